package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.Set;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launchers' class-data archive (distribution/src/lib/cds.sh, which the installed bin/acf and
 * bin/acf-runtime source; ./acf does the same): every run passes -Xlog:cds=off, so an archive the
 * JVM refuses must be noticed when it is made, said once with the JVM's reason, and not made again
 * on every run.
 */
class LauncherArchiveTest {
  private static final String JAVA = AcfJvm.java();

  @TempDir Path home;

  /**
   * Sources cds.sh as a launcher does, with {@code java} as its JVM; returns stderr and cds_opts.
   */
  private String[] acfCds(String java) throws Exception {
    Process p = startAcfCds(java, "");
    return finish(p);
  }

  /** Starts the script; {@code slow} runs in the training (a {@code sleep}, to overlap two). */
  private Process startAcfCds(String java, String slow) throws Exception {
    Files.createDirectories(home.resolve("lib"));
    Files.copy(
        RepositoryRoot.resolve("distribution/src/lib/cds.sh"),
        home.resolve("lib/cds.sh"),
        StandardCopyOption.REPLACE_EXISTING);
    String script =
        String.join(
            "\n",
            "set -euo pipefail",
            "home='" + home + "'; prog=acf; java='" + java + "'; cp_opts=()",
            ". \"$home/lib/cds.sh\"",
            // Training: one class listed (the dump archives it); counted, to see reruns.
            "train() { echo trained >>\"$home/trainings\"; "
                + slow
                + " echo java/lang/Object >\"$1.list.x\"; }",
            "acf_cds test train -version",
            "echo \"opts=${cds_opts[*]:-}\"");
    return new ProcessBuilder("bash", "-c", script).start();
  }

  private static String[] finish(Process p) throws Exception {
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isEqualTo(0);
    return new String[] {err, out.trim()};
  }

  private long trainings() throws IOException {
    Path f = home.resolve("trainings");
    return Files.exists(f) ? Files.readAllLines(f).size() : 0;
  }

  @Test
  void anArchiveTheJvmAcceptsIsMadeOnceAndUsed() throws Exception {
    String[] first = acfCds(JAVA);
    assertThat(first[0]).contains("creating the class-data archive");
    assertThat(first[0]).doesNotContain("refused");
    assertThat(first[1]).contains("-XX:SharedArchiveFile=" + home.resolve("lib/test.jsa"));
    String[] second = acfCds(JAVA);
    assertThat(second[0]).isEmpty();
    assertThat(second[1]).isEqualTo(first[1]);
    assertThat(trainings()).isEqualTo(1);
  }

  @Test
  void anArchiveMadeForAnotherClassPathIsMadeAgain() throws Exception {
    // An installation moved or copied elsewhere: its archive records the old jars' paths, which
    // the JVM would silently ignore (every run about 2x slower) until the next build.
    acfCds(JAVA);
    Path made = home.resolve("lib/test.jsa.java");
    Files.writeString(made, JAVA + "\n-cp /elsewhere/lib/acf.jar\n");
    String[] moved = acfCds(JAVA);
    assertThat(moved[0]).contains("creating the class-data archive");
    assertThat(moved[1]).contains("-XX:SharedArchiveFile=");
    assertThat(trainings()).isEqualTo(2);
    assertThat(acfCds(JAVA)[0]).isEmpty();
    assertThat(trainings()).isEqualTo(2);
  }

  @Test
  void twoLaunchersStartingAtOnceMakeTheArchiveOnce() throws Exception {
    // Issue 32: two processes sharing a checkout made it twice. The second one to look finds the
    // first one making it (the lock is taken) and starts without it.
    Process first = startAcfCds(JAVA, "sleep 3;");
    Thread.sleep(1000);
    Process second = startAcfCds(JAVA, "");
    String[] b = finish(second);
    String[] a = finish(first);
    assertThat(a[0]).contains("creating the class-data archive");
    assertThat(b[0]).isEmpty();
    assertThat(b[1]).isEqualTo("opts=");
    assertThat(trainings()).isEqualTo(1);
    // The next one uses the archive the first made.
    assertThat(acfCds(JAVA)[1]).contains("-XX:SharedArchiveFile=");
    assertThat(trainings()).isEqualTo(1);
  }

  @Test
  void anArchiveTheJvmRefusesIsReportedOnceWithItsReason() throws Exception {
    // A java whose dumps are garbage: the real JVM then refuses the archive (bad magic number).
    Path fake = home.resolve("fakejava");
    Files.writeString(
        fake,
        String.join(
            "\n",
            "#!/bin/bash",
            "for a in \"$@\"; do case \"$a\" in",
            "  -XX:SharedArchiveFile=*) f=\"${a#-XX:SharedArchiveFile=}\" ;;",
            "  -Xshare:dump) dump=1 ;;",
            "esac; done",
            "if [ -n \"${dump:-}\" ]; then head -c 65536 /dev/urandom >\"$f\"; exit 0; fi",
            "exec '" + JAVA + "' \"$@\"",
            ""));
    Files.setPosixFilePermissions(
        fake, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_EXECUTE));
    String[] first = acfCds(fake.toString());
    assertThat(first[0]).contains("the JVM refused the class-data archive");
    assertThat(first[0]).contains("bad magic number");
    assertThat(first[1]).isEqualTo("opts=");
    assertThat(Files.exists(home.resolve("lib/test.jsa"))).isFalse();
    // Said once: later runs start without the archive and without trying again.
    String[] second = acfCds(fake.toString());
    assertThat(second[0]).isEmpty();
    assertThat(second[1]).isEqualTo("opts=");
    assertThat(trainings()).isEqualTo(1);
    // A new jar, or another java, tries again (and the real java's archive is used).
    Files.write(home.resolve("lib/new.jar"), new byte[0]);
    Files.setLastModifiedTime(
        home.resolve("lib/new.jar"), FileTime.from(Instant.now().plusSeconds(5)));
    assertThat(acfCds(fake.toString())[0]).contains("refused");
    assertThat(trainings()).isEqualTo(2);
    String[] real = acfCds(JAVA);
    assertThat(real[0]).doesNotContain("refused");
    assertThat(real[1]).contains("-XX:SharedArchiveFile=");
    assertThat(trainings()).isEqualTo(3);
  }
}

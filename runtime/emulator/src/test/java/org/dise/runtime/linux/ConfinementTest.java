package org.dise.runtime.linux;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file sandbox, attacked by a guest program ({@code src/test/sandbox/confine.c}): links inside
 * the allowed directory that lead out (dangling or not, to a file or a directory, at the end or in
 * the middle of a path, chains), {@code ..} and absolute paths, hard links, renames and links
 * across the boundary, {@code /proc/self}, directory descriptors kept across a chdir, and very long
 * paths. Nothing outside may change and the secret outside must never be read; the same calls on
 * paths inside must behave as under qemu-riscv64.
 */
class ConfinementTest {
  private static final String SECRET = "SECRET-CONTENT";

  @TempDir Path root;
  private Path box;
  private Path out;

  @BeforeEach
  void layOut() throws IOException {
    Path r = root.toRealPath();
    box = Files.createDirectories(r.resolve("box/inner"));
    box = box.getParent();
    out = Files.createDirectories(r.resolve("out/dir")).getParent();
    Files.writeString(out.resolve("secret.txt"), SECRET);
    Files.createSymbolicLink(out.resolve("outlink"), Path.of("secret.txt"));
    Files.writeString(box.resolve("own.txt"), "OWN");
    Files.createSymbolicLink(box.resolve("dangle"), out.resolve("created"));
    Files.createSymbolicLink(box.resolve("dangle_dir"), out.resolve("nodir"));
    Files.createSymbolicLink(box.resolve("to_secret"), out.resolve("secret.txt"));
    Files.createSymbolicLink(box.resolve("to_secret_2"), out.resolve("secret.txt"));
    Files.createSymbolicLink(box.resolve("to_outdir"), out);
    Files.createSymbolicLink(box.resolve("inner/up"), Path.of("../.."));
    Files.createSymbolicLink(box.resolve("inner/relup"), Path.of("../../out"));
    Files.createSymbolicLink(box.resolve("chain1"), Path.of("chain2"));
    Files.createSymbolicLink(box.resolve("chain2"), out.resolve("secret.txt"));
    Files.createSymbolicLink(box.resolve("loop"), Path.of("loop"));
    Files.createLink(box.resolve("hard"), out.resolve("secret.txt"));
  }

  @Test
  void aGuestCannotReadOrChangeAnythingOutside() throws Exception {
    Map<String, String> before = snapshot(out);
    GuestRun.Result r =
        GuestRun.ours(new Sandbox(box), "confine", "attack", out.toString(), "../out");
    Map<String, String> probes = probes(r.stdout());

    assertWithMessage("%s", r).that(r.exit()).isEqualTo(0);
    assertWithMessage("the tree outside the sandbox").that(snapshot(out)).isEqualTo(before);
    assertWithMessage("the guest's output").that(r.stdout()).doesNotContain(SECRET);
    assertThat(Files.readString(out.resolve("secret.txt"))).isEqualTo(SECRET);
    assertThat(Files.exists(out.resolve("created"), LinkOption.NOFOLLOW_LINKS)).isFalse();

    // The escape of issue 19: O_CREAT through a dangling link that points out.
    assertThat(probes.get("dangle-creat")).isEqualTo("EACCES");
    assertThat(probes.get("dangle-creat-trunc")).isEqualTo("EACCES");
    // O_EXCL does not follow the last link: the link itself exists, as on Linux.
    assertThat(probes.get("dangle-creat-excl")).isEqualTo("EEXIST");
    assertThat(probes.get("link-nofollow")).isEqualTo("ELOOP");
    for (String p :
        new String[] {
          "dangle-dir-creat",
          "link-read",
          "link-append",
          "link-rdwr",
          "chain-read",
          "dirlink-read",
          "dirlink-creat",
          "dirlink-list",
          "uplink-read",
          "rel-uplink-read",
          "dotdot-read",
          "dotdot-creat",
          "abs-read",
          "abs-write",
          "abs-creat",
          "abs-dotdot",
          "stat-abs",
          "stat-link",
          "readlink-out",
          "access-abs",
          "mkdir-abs",
          "mkdir-dirlink",
          "unlink-abs",
          "unlink-dirlink",
          "rmdir-abs",
          "rename-out",
          "rename-out-dirlink",
          "rename-in",
          "rename-dir-in",
          "rename-over-out",
          "link-in",
          "link-in-follow",
          "link-out",
          "hardlink-read",
          "hardlink-write",
          "symlink-use",
          "symlink-make-out",
          "symlink-dir-creat",
          "proc-root",
          "proc-cwd",
          "proc-mem",
          "proc-environ",
          "chdir-dirlink",
          "chdir-abs",
          "chdir-up",
          "dirfd-out",
          "dirfd-abs",
          "after-chdir-out",
          "opendir-out",
          "path-3900-out"
        }) {
      assertWithMessage("probe %s", p).that(probes.get(p)).isEqualTo("EACCES");
    }
    // Outside, a missing file and an existing one look the same: no existence oracle.
    assertThat(probes.get("stat-missing-out")).isEqualTo("EACCES");
    // What lies inside stays usable; the other errors are Linux's.
    String expected =
        """
        lstat-link OK
        unlink-link-itself OK
        symlink-make OK
        chdir-sub OK
        dirfd-in OK read=[OWN]
        fchdir-back OK
        readlink-exe OK
        dirfd-bad EBADF
        dirfd-file ENOTDIR
        path-4200 ENAMETOOLONG
        name-300 ENAMETOOLONG
        link-loop ELOOP
        """;
    for (String row : expected.lines().toList()) {
      String probe = row.substring(0, row.indexOf(' '));
      assertWithMessage("probe %s", probe)
          .that(probes.get(probe))
          .isEqualTo(row.substring(probe.length() + 1));
    }
    // Every refusal is reported on the notice stream, naming the path.
    assertThat(r.stderr()).contains("acf: guest was denied creating " + out.resolve("created"));
  }

  @Test
  void acfsProtectedStateInsideTheWritableDirectoryStaysUnchanged() throws Exception {
    // acf's state (a cache, a spool, --out) inside the guest's own directory: the same attacks,
    // aimed at it, change nothing there; it stays readable; the rest of the box stays writable.
    Path state = Files.createDirectories(box.resolve("state/dir")).getParent();
    Files.writeString(state.resolve("secret.txt"), SECRET);
    Files.delete(box.resolve("hard"));
    Files.createLink(box.resolve("hard"), state.resolve("secret.txt"));
    Sandbox s = new Sandbox(box);
    s.protect(state);
    Map<String, String> before = snapshot(state);
    GuestRun.Result r = GuestRun.ours(s, "confine", "attack", state.toString(), "state");
    Map<String, String> probes = probes(r.stdout());
    assertWithMessage("%s", r).that(r.exit()).isEqualTo(0);
    assertWithMessage("acf's state").that(snapshot(state)).isEqualTo(before);
    for (String p :
        new String[] {
          "abs-write",
          "abs-creat",
          "mkdir-abs",
          "unlink-abs",
          "rmdir-abs",
          "rename-out",
          "rename-in",
          "rename-over-out",
          "link-out",
          "hardlink-write"
        }) {
      assertWithMessage("probe %s", p).that(probes.get(p)).isEqualTo("EACCES");
    }
    // Readable as the rest of the box (the guest's read probe meets the second hard link instead).
    assertThat(s.mayRead(state.resolve("secret.txt"))).isTrue();
    assertThat(r.stderr()).contains("acf's own state: the guest may not change it");
    // Neither the state nor a folder above it may be renamed or removed (acf's state moved aside
    // for a planted one); entries beside them may.
    assertThat(s.mayChangeEntry(state)).isFalse();
    assertThat(s.mayChangeEntry(state.resolve("x"))).isFalse();
    Path nested = box.resolve("a/b/c");
    s.protect(nested);
    assertThat(s.mayChangeEntry(box.resolve("a"))).isFalse();
    assertThat(s.mayChangeEntry(box.resolve("a/b"))).isFalse();
    assertThat(s.mayChangeEntry(box.resolve("a/other"))).isTrue();
    assertThat(s.mayChangeEntry(box.resolve("own.txt"))).isTrue();
    assertThat(s.mayWrite(box.resolve("own.txt"))).isTrue();
  }

  @Test
  void allowingTheOutsideDirectoryForReadingLetsTheGuestReadButNotWrite() throws Exception {
    Files.delete(box.resolve("hard")); // else secret.txt has two links and is refused anyway
    Sandbox s = new Sandbox(box);
    s.allowRead(out);
    Map<String, String> before = snapshot(out);
    GuestRun.Result r = GuestRun.ours(s, "confine", "attack", out.toString(), "../out");
    Map<String, String> probes = probes(r.stdout());
    assertThat(probes.get("link-read")).isEqualTo("OK read=[" + SECRET + "]");
    assertThat(probes.get("dangle-creat")).isEqualTo("EACCES");
    assertThat(probes.get("link-append")).isEqualTo("EACCES");
    assertThat(probes.get("rename-in")).isEqualTo("EACCES");
    assertThat(snapshot(out)).isEqualTo(before);
  }

  @Test
  void callsOnPathsInsideBehaveAsUnderQemu(@TempDir Path work) throws Exception {
    Path ours = Files.createDirectory(work.resolve("ours")).toRealPath();
    GuestRun.Result mine = GuestRun.ours(new Sandbox(ours), "confine", "allowed");
    assertThat(mine.stdout()).contains("creat-via-dangling: OK");
    assertThat(mine.stdout()).contains("rename: OK");
    String missing = GuestRun.qemuMissing();
    Assumptions.assumeTrue(missing == null, missing);
    Path q = Files.createDirectory(work.resolve("qemu"));
    GuestRun.Result theirs = GuestRun.qemu(q, "confine", "allowed");
    assertThat(mine.stdout()).isEqualTo(theirs.stdout());
    assertThat(mine.exit()).isEqualTo(theirs.exit());
    assertThat(snapshot(ours)).isEqualTo(snapshot(q));
  }

  private static Map<String, String> probes(String stdout) {
    Map<String, String> m = new TreeMap<>();
    for (String line : stdout.split("\n")) {
      int colon = line.indexOf(": ");
      if (colon > 0) {
        m.put(line.substring(0, colon), line.substring(colon + 2));
      }
    }
    return m;
  }

  /** Every entry under {@code dir}: its kind and content or link target. */
  private static Map<String, String> snapshot(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.collect(
          Collectors.toMap(
              p -> dir.relativize(p).toString(),
              p -> {
                try {
                  if (Files.isSymbolicLink(p)) {
                    return "link " + Files.readSymbolicLink(p);
                  }
                  if (Files.isDirectory(p)) {
                    return "dir";
                  }
                  return "file "
                      + new String(Files.readAllBytes(p), StandardCharsets.UTF_8)
                      + " "
                      + Files.getLastModifiedTime(p);
                } catch (IOException e) {
                  return "unreadable " + e;
                }
              },
              (a, b) -> a,
              TreeMap::new));
    }
  }
}

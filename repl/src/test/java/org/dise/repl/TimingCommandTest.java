package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.dise.repl.ConfigCommandTest.Result;
import org.dise.repl.common.ExitStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf run --timing}: the timing model measures, and never changes what the guest computes or
 * what the profile holds (spec/timing.md, "The hook").
 */
class TimingCommandTest {
  private static final String ACF = ConfigCommandTest.ACF;
  private static final String PROGRAM = ConfigCommandTest.PROGRAM;

  private static Result acf(String... args) {
    return ConfigCommandTest.acf(args);
  }

  @Test
  void profilesAndGuestOutputAreByteIdenticalWithAndWithoutTiming(@TempDir Path dir)
      throws Exception {
    Path plain = dir.resolve("plain");
    Path ooo = dir.resolve("ooo");
    Path inorder = dir.resolve("inorder");
    Result a = acf("run", "--acf", ACF, "--out", plain.toString(), PROGRAM, "6");
    Result b = acf("run", "--timing", "ooo", "--acf", ACF, "--out", ooo.toString(), PROGRAM, "6");
    Result c =
        acf("run", "--timing", "inorder", "--acf", ACF, "--out", inorder.toString(), PROGRAM, "6");
    assertThat(a.status()).isEqualTo(0);
    assertThat(b.status()).isEqualTo(0);
    assertThat(c.status()).isEqualTo(0);
    assertThat(b.stdout()).isEqualTo(a.stdout());
    assertThat(c.stdout()).isEqualTo(a.stdout());
    // The profile and the analytic cost report come out the same; the timing report follows.
    String profile = ConfigCommandTest.profile(a.stderr());
    String withoutLabel = profile.substring(0, profile.indexOf("  (analytic"));
    assertThat(ConfigCommandTest.profile(b.stderr())).startsWith(withoutLabel);
    assertThat(b.stderr()).contains("timing model             ooo");
    assertThat(b.stderr()).containsMatch("cycles, application alone [0-9,]+ \\(CPI [0-9.]+\\)");
    assertThat(b.stderr()).containsMatch("MPKI \\(alone / profiled\\)  L1I ");
    assertThat(b.stderr()).contains("handler cycles are modelled, not measured");
    assertThat(a.stderr()).contains("(analytic: one cycle per event");
    for (Path d : List.of(ooo, inorder)) {
      for (Path f : files(plain)) {
        if (!f.getFileName().toString().equals("summary.json")) {
          assertThat(Files.readAllBytes(d.resolve(f.getFileName())))
              .isEqualTo(Files.readAllBytes(f));
        }
      }
    }
    String summary = Files.readString(ooo.resolve("summary.json"));
    assertThat(summary).contains("\"cost_model\": \"ooo\"");
    assertThat(summary).containsMatch("\"timing\": \\{\"model\": \"ooo\", \"overhead\": [0-9.]+");
    assertThat(summary).contains("\"l1d_mpki\"");
    assertThat(Files.readString(plain.resolve("summary.json")))
        .contains("\"cost_model\": \"analytic\"");
  }

  @Test
  void profilingCostsCyclesOnBothModels(@TempDir Path dir) throws Exception {
    for (String model : List.of("ooo", "inorder")) {
      Path out = dir.resolve(model);
      Result r = acf("run", "--timing", model, "--acf", ACF, "--out", out.toString(), PROGRAM, "6");
      assertThat(r.status()).isEqualTo(0);
      String s = Files.readString(out.resolve("summary.json"));
      long alone = member(s, "application", "cycles");
      long profiled = member(s, "profiled", "cycles");
      assertThat(profiled).isGreaterThan(alone);
      assertThat(member(s, "profiled", "cycles_handler")).isGreaterThan(0L);
    }
  }

  @Test
  void listNamesEveryParameterAndBadInputIsAUsageError(@TempDir Path dir) throws Exception {
    Result list = acf("timing", "list");
    assertThat(list.status()).isEqualTo(0);
    assertThat(list.stdout()).contains("l1d.size               8192      32768");
    assertThat(list.stdout()).contains("bp.kind");
    Result bad = acf("run", "--timing", "o3", PROGRAM, "1");
    assertThat(bad.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(bad.stderr()).contains("unknown timing model `o3`");
    Path cfg = dir.resolve("small.cfg");
    Files.writeString(cfg, "l1d.size = 16384\nl1d.ways = 3\n");
    Result geometry =
        acf("run", "--timing", "ooo", "--timing-config", cfg.toString(), PROGRAM, "1");
    assertThat(geometry.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(geometry.stderr()).contains("small.cfg: timing model: l1d: size 16384");
    Files.writeString(cfg, "# fine\nl1d.size = 16384\nmemory = 5\n");
    Result unknown = acf("run", "--timing", "ooo", "--timing-config", cfg.toString(), PROGRAM, "1");
    assertThat(unknown.stderr()).contains("small.cfg:3:1: unknown timing parameter `memory`");
  }

  private static List<Path> files(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }

  /** A number member {@code name} of the object member {@code object} of summary.json's timing. */
  private static long member(String summary, String object, String name) {
    int t = summary.indexOf("\"timing\": ");
    int o = summary.indexOf("\"" + object + "\": {", t);
    int m = summary.indexOf("\"" + name + "\": ", o) + name.length() + 4;
    int end = m;
    while (Character.isDigit(summary.charAt(end))) {
      end++;
    }
    return Long.parseLong(summary.substring(m, end));
  }
}

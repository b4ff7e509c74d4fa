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

  /** Fig. 6's hot call pairs into the sink {@code mine}. */
  private static final String PAIRS =
      "P3: T.OPCLASS == proc_call => R3, null\nR3: call(mine, T.INSN); T.INSN;\n";

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
    // The call pairs' handler ran as RISC-V code (the library's handlers.elf), not a constant.
    assertThat(b.stderr()).containsMatch("handler cycles are measured: [0-9,]+ calls ran [0-9,]+");
    assertThat(b.stderr()).contains("handlers.c:call_pair_counter");
    assertThat(b.stderr()).doesNotContain("modelled, not measured");
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
    assertThat(summary).containsMatch("\"measured_handler_calls\": [1-9][0-9]*");
    assertThat(summary).contains("\"modelled_handler_calls\": 0");
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
  void withoutHandlerCodeTheSinksCostIsChargedAndSaidToBeModelled(@TempDir Path dir)
      throws Exception {
    Path cfg = dir.resolve("modelled.cfg");
    Files.writeString(cfg, "handler.code = false\n");
    Path measured = dir.resolve("measured");
    Path modelled = dir.resolve("modelled");
    Result a =
        acf("run", "--timing", "ooo", "--acf", ACF, "--out", measured.toString(), PROGRAM, "6");
    Result b =
        acf(
            "run",
            "--timing",
            "ooo",
            "--timing-config",
            cfg.toString(),
            "--acf",
            ACF,
            "--out",
            modelled.toString(),
            PROGRAM,
            "6");
    assertThat(b.status()).isEqualTo(0);
    assertThat(b.stdout()).isEqualTo(a.stdout());
    assertThat(b.stderr()).contains("handler cycles are modelled, not measured");
    String m = Files.readString(measured.resolve("summary.json"));
    String f = Files.readString(modelled.resolve("summary.json"));
    assertThat(f).contains("\"measured_handler_calls\": 0");
    // The same calls either way; only their price differs.
    assertThat(member(f, "profiled", "handler_calls"))
        .isEqualTo(member(m, "profiled", "handler_calls"));
    assertThat(member(f, "profiled", "cycles_handler"))
        .isNotEqualTo(member(m, "profiled", "cycles_handler"));
  }

  @Test
  void aSinkNamesItsOwnHandlerInC(@TempDir Path dir) throws Exception {
    String gcc = org.dise.testsupport.ExternalTool.missing("riscv64-linux-gnu-gcc", "--version");
    org.junit.jupiter.api.Assumptions.assumeTrue(gcc == null, gcc);
    Path c = dir.resolve("pairs.c");
    Files.writeString(
        c,
        "#include \"acf_handler.h\"\n"
            + "void pairs(struct table *t, u64 pc, u64 target) {\n"
            + "  struct entry *e = probe(t, pc, target);\n"
            + "  if (e) e->count++;\n"
            + "}\n");
    Path acfFile = dir.resolve("mine.acf");
    Files.writeString(
        acfFile, "sink mine = call_pair_counter(handler = \"" + c + ":pairs\");\n" + PAIRS);
    Result r = acf("run", "--timing", "inorder", "--acf", acfFile.toString(), PROGRAM, "6");
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stderr())
        .containsMatch("mine: [0-9,]+ calls, [0-9.]+ instructions each \\(.*pairs\\.c:pairs\\)");
    Files.writeString(
        acfFile, "sink mine = call_pair_counter(handler = \"" + c + ":triples\");\n" + PAIRS);
    Result bad = acf("run", "--timing", "inorder", "--acf", acfFile.toString(), PROGRAM, "6");
    assertThat(bad.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(bad.stderr()).contains("sink `mine`: handler `triples` is not a function of");
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

  @Test
  void sweepMeasuresEachSampledRunAndKeepsItsAccuracy(@TempDir Path dir) throws Exception {
    List<String> args =
        List.of(SweepInputTest.smallSweep("1,8", "--interval", "2K", "--workload", PROGRAM + " 6"));
    List<String> plainArgs = new java.util.ArrayList<>(args);
    plainArgs.addAll(List.of("--out", dir.resolve("plain.csv").toString()));
    List<String> timedArgs = new java.util.ArrayList<>(args);
    timedArgs.addAll(List.of("--timing", "ooo", "--out", dir.resolve("timed.csv").toString()));
    assertThat(acf(plainArgs.toArray(new String[0])).status()).isEqualTo(0);
    Result timed = acf(timedArgs.toArray(new String[0]));
    assertThat(timed.status()).isEqualTo(0);
    assertThat(timed.stdout()).contains("timing: overhead of each sampled run");
    List<String> plain = Files.readAllLines(dir.resolve("plain.csv"));
    List<String> rows = Files.readAllLines(dir.resolve("timed.csv"));
    List<String> header = List.of(rows.get(0).split(","));
    assertThat(header).containsAtLeast("timing_model", "cycles_profiled", "timing_overhead_pct");
    assertThat(rows).hasSize(plain.size());
    int overhead = header.indexOf("timing_overhead_pct");
    double[] byPeriod = new double[2];
    for (int i = 1; i < rows.size(); i++) {
      String[] cells = rows.get(i).split(",");
      assertThat(cells).hasLength(header.size());
      assertThat(cells[header.indexOf("timing_model")]).isEqualTo("ooo");
      // What the sampled run found is the same measured or not: the first nine columns.
      assertThat(String.join(",", List.of(cells).subList(0, 9)))
          .isEqualTo(String.join(",", List.of(plain.get(i).split(",")).subList(0, 9)));
      if (i <= 2) {
        byPeriod[i - 1] = Double.parseDouble(cells[overhead]);
      }
    }
    // Profiling every interval costs more cycles than profiling one in eight.
    assertThat(byPeriod[0]).isGreaterThan(byPeriod[1]);
    assertThat(byPeriod[1]).isGreaterThan(0.0);
    // A timed sweep's CSV reads back.
    assertThat(acf("sweep", "--from", dir.resolve("timed.csv").toString()).status()).isEqualTo(0);
  }

  @Test
  void compareReportAndViewShowTheTimingFigures(@TempDir Path dir) throws Exception {
    Path timed = dir.resolve("timed");
    Path plain = dir.resolve("plain");
    assertThat(
            acf("run", "--timing", "inorder", "--acf", ACF, "--out", timed.toString(), PROGRAM, "6")
                .status())
        .isEqualTo(0);
    assertThat(acf("run", "--acf", ACF, "--out", plain.toString(), PROGRAM, "6").status())
        .isEqualTo(0);
    // inorder prices its events in joules (spec/timing.md, "Energy").
    assertThat(Files.readString(timed.resolve("summary.json")))
        .containsMatch("\"energy_joules_application\": [0-9.e-]+");
    Result compare = acf("compare", plain.toString(), timed.toString());
    assertThat(compare.status()).isEqualTo(0);
    assertThat(compare.stdout()).contains("timing, A (" + plain + "): not measured (analytic)");
    assertThat(compare.stdout())
        .containsMatch("timing +inorder: application alone [0-9,]+ cycles \\(CPI [0-9.]+\\)");
    assertThat(compare.stdout()).contains("timing MPKI");
    Result json = acf("compare", "--format", "json", plain.toString(), timed.toString());
    assertThat(json.stdout()).contains("\"timing\":{\"a\":null,\"b\":{\"model\":\"inorder\"");
    Result both = acf("compare", timed.toString(), timed.toString());
    assertThat(both.stdout()).contains("overhead B - A +0.00 points");
    assertThat(acf("view", timed.toString()).status()).isEqualTo(0);
    String page = Files.readString(timed.resolve("index.html"));
    assertThat(page).contains("timing MPKI");
    assertThat(page).contains("timing energy");
  }

  @Test
  void coProcessorInterruptsChargeTheMainCore(@TempDir Path dir) throws Exception {
    String acf = ConfigCommandTest.ROOT.resolve("examples/acf/coproc_vs_sampling.acf").toString();
    for (String model : List.of("inorder", "ooo")) {
      Path out = dir.resolve(model);
      Result r = acf("run", "--timing", model, "--acf", acf, "--out", out.toString(), PROGRAM, "6");
      assertThat(r.status()).isEqualTo(0);
      assertThat(r.stderr())
          .containsMatch("co-processor interrupts +[0-9,]+, charged [0-9,]+ cycles");
      String s = Files.readString(out.resolve("summary.json"));
      long interrupts = member(s, "timing", "interrupts");
      long cycles = member(s, "timing", "interrupt_cycles");
      assertThat(interrupts).isAtLeast(1L);
      // Each costs interrupt_cycles (400) plus copy_cycles (20) per slot copied (spec/engine.md).
      assertThat(cycles).isAtLeast(interrupts * 400);
      long extra = member(s, "profiled", "cycles") - member(s, "application", "cycles");
      // Tagging replaces nothing: the interrupts are the whole difference on the in-order core,
      // less what each one hides of a result still in flight when it starts (at most lat.mul - 1
      // = 2 cycles: the interrupted program no longer waits for it). The exact figure moves with
      // the checkout path, which shifts the guest's instruction stream. On ooo they also drain
      // the window.
      if (model.equals("inorder")) {
        assertThat(extra).isAtMost(cycles);
        assertThat(extra).isAtLeast(cycles - 2 * interrupts);
      } else {
        assertThat(extra).isAtLeast(cycles);
      }
    }
  }

  private static List<Path> files(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }

  /** A number member {@code name} of the object member {@code object} of summary.json's timing. */
  private static long member(String summary, String object, String name) {
    int t = summary.indexOf("\"timing\": ");
    int o = object.equals("timing") ? t : summary.indexOf("\"" + object + "\": {", t);
    int m = summary.indexOf("\"" + name + "\": ", o) + name.length() + 4;
    int end = m;
    while (Character.isDigit(summary.charAt(end))) {
      end++;
    }
    return Long.parseLong(summary.substring(m, end));
  }
}

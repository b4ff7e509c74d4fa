package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.dise.testsupport.ExternalTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf experiment} as a plan of runs: {@code --plan}, {@code --run K}, {@code --status},
 * {@code --collect}, resume, retry, results of another version or specification refused, and the
 * same CSV from one process, a pool of worker processes and a SLURM job array.
 */
class ExperimentExecutorTest {
  static final String BIN = "../examples/programs/bin";
  static final ObjectMapper JSON = new ObjectMapper();

  /** {@code acf experiment overhead} on a short program, with {@code more} options. */
  static ConfigCommandTest.Result overhead(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "experiment", "overhead", "--quick", "--programs", "phases:1:AB", "--dir", BIN));
    args.addAll(List.of(more));
    return acf(args.toArray(String[]::new));
  }

  static List<JsonNode> plan(String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of(more));
    args.add("--plan");
    ConfigCommandTest.Result r = overhead(args.toArray(String[]::new));
    assertThat(r.status()).isEqualTo(0);
    List<JsonNode> lines = new ArrayList<>();
    for (String l : r.stdout().lines().toList()) {
      lines.add(JSON.readTree(l));
    }
    return lines;
  }

  static void ok(ConfigCommandTest.Result r) {
    assertThat(r.stderr()).doesNotContain("Exception");
    assertThat(r.status()).isEqualTo(0);
  }

  @Test
  void thePlanIsOneJsonLinePerRunWithEverythingTheRunDependsOn() throws Exception {
    List<JsonNode> plan = plan();
    // Three profile types by three variants, on one program.
    assertThat(plan).hasSize(9);
    Set<String> ids = new HashSet<>();
    for (int k = 0; k < plan.size(); k++) {
      JsonNode p = plan.get(k);
      assertThat(p.path("index").asInt()).isEqualTo(k);
      assertThat(p.path("experiment").asText()).isEqualTo("overhead");
      assertThat(p.path("program").asText()).isEqualTo(BIN + "/phases:1:AB");
      assertThat(p.path("program_sha256").asText()).hasLength(64);
      assertThat(p.path("settings").path("acf").asText()).startsWith("import profiles;");
      ids.add(p.path("id").asText());
    }
    assertThat(ids).hasSize(9);
    // The plan is a function of the options: the same every time.
    assertThat(plan().toString()).isEqualTo(plan.toString());
  }

  @Test
  void runsOneAtATimeThenResumesCollectsAndRefusesForeignResults(@TempDir Path tmp)
      throws Exception {
    Path out = tmp.resolve("out");
    List<JsonNode> plan = plan();
    ok(overhead("--run", "4", "--out", out.toString()));
    Path result = out.resolve("runs/" + plan.get(4).path("id").asText() + ".json");
    assertThat(Files.exists(result)).isTrue();
    long written = Files.getLastModifiedTime(result).toMillis();
    ConfigCommandTest.Result again = overhead("--run", "4", "--out", out.toString());
    ok(again);
    assertThat(again.stderr()).contains("has a result, skipped");
    assertThat(Files.getLastModifiedTime(result).toMillis()).isEqualTo(written);

    ConfigCommandTest.Result status = overhead("--status", out.toString());
    assertThat(status.status()).isEqualTo(1);
    assertThat(status.stdout())
        .contains("9 runs: 1 done, 0 running, 0 queued, 0 failed, 8 pending");
    ConfigCommandTest.Result early = overhead("--collect", out.toString());
    assertThat(early.status()).isEqualTo(2);
    assertThat(early.stderr()).contains("overhead: 8 of 9 runs have no result in");
    assertThat(early.stderr()).contains("0 of them failed");

    // A crashed worker leaves a marker whose process is gone: the run is simply run again.
    Path lost = out.resolve("runs/" + plan.get(0).path("id").asText() + ".running");
    Files.writeString(lost, Results_host() + " 999999999\n");
    // A run that failed is left alone until --retry.
    Path failed = out.resolve("runs/" + plan.get(1).path("id").asText() + ".failed");
    Files.writeString(failed, "simulated failure\n");
    ConfigCommandTest.Result resumed = overhead("--jobs", "1", "--out", out.toString());
    assertThat(resumed.status()).isEqualTo(2);
    assertThat(resumed.stderr())
        .contains("2 of 9 runs not run now: 1 have a result, 1 failed (--retry runs them again)");
    assertThat(resumed.stderr()).contains("1 of 9 runs have no result in");
    assertThat(resumed.stderr()).contains("1 of them failed");
    assertThat(overhead("--status", out.toString()).stdout())
        .contains("9 runs: 8 done, 0 running, 0 queued, 1 failed, 0 pending");
    ConfigCommandTest.Result retried = overhead("--jobs", "1", "--retry", "--out", out.toString());
    ok(retried);
    assertThat(overhead("--status", out.toString()).status()).isEqualTo(0);
    byte[] csv = Files.readAllBytes(out.resolve("overhead.csv"));

    // Collecting again gives the same CSV; so does a run in one go into another directory.
    ok(overhead("--collect", out.toString()));
    assertThat(Files.readAllBytes(out.resolve("overhead.csv"))).isEqualTo(csv);
    Path fresh = tmp.resolve("fresh");
    ok(overhead("--jobs", "1", "--out", fresh.toString()));
    assertThat(Files.readAllBytes(fresh.resolve("overhead.csv"))).isEqualTo(csv);

    // Results of another version, or of another specification, are refused, not mixed in.
    ObjectNode r = (ObjectNode) JSON.readTree(result.toFile());
    r.put("acf_version", "acf 0.0.1 (commit 0000000)");
    Files.writeString(result, r.toString());
    ConfigCommandTest.Result old = overhead("--collect", out.toString());
    assertThat(old.status()).isEqualTo(2);
    assertThat(old.stderr()).contains("written by acf 0.0.1 (commit 0000000), not acf ");
    assertThat(old.stderr()).contains("results of another version are not mixed in");
    Path other = out.resolve("runs/" + plan.get(5).path("id").asText() + ".json");
    Files.copy(other, result, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    ConfigCommandTest.Result foreign = overhead("--jobs", "1", "--out", out.toString());
    assertThat(foreign.status()).isEqualTo(2);
    assertThat(foreign.stderr()).contains("holds the result of another run specification");
  }

  @Test
  void theTimingModelAndItsConfigurationArePartOfEveryRunsSpecification(@TempDir Path tmp)
      throws Exception {
    List<JsonNode> ooo = plan();
    List<JsonNode> inorder = plan("--timing", "inorder");
    List<JsonNode> analytic = plan("--timing", "analytic");
    Path config = tmp.resolve("small-l1d.timing");
    Files.writeString(config, "l1d.size = 4096\n");
    List<JsonNode> configured = plan("--timing", "ooo", "--timing-config", config.toString());
    assertThat(ooo.get(0).path("settings").path("timing").asText()).isEqualTo("ooo");
    assertThat(ooo.get(0).path("settings").path("timing.l1d.size").asText()).isEqualTo("32768");
    assertThat(inorder.get(0).path("settings").path("timing").asText()).isEqualTo("inorder");
    assertThat(analytic.get(0).path("settings").path("timing").asText()).isEqualTo("analytic");
    assertThat(analytic.get(0).path("settings").has("timing.l1d.size")).isFalse();
    assertThat(configured.get(0).path("settings").path("timing.l1d.size").asText())
        .isEqualTo("4096");
    Set<String> ids = new HashSet<>();
    for (List<JsonNode> p : List.of(ooo, inorder, analytic, configured)) {
      p.forEach(n -> ids.add(n.path("id").asText()));
    }
    assertThat(ids).hasSize(4 * 9);

    // A result measured under one model is not taken for another's: in its own file, and
    // refused as another specification if put in the other's place.
    Path out = tmp.resolve("out");
    ok(overhead("--timing", "analytic", "--run", "1", "--out", out.toString()));
    Path analyticResult = out.resolve("runs/" + analytic.get(1).path("id").asText() + ".json");
    Path inorderResult = out.resolve("runs/" + inorder.get(1).path("id").asText() + ".json");
    assertThat(JSON.readTree(analyticResult.toFile()).path("result").has("timing")).isFalse();
    ConfigCommandTest.Result missing = overhead("--timing", "inorder", "--collect", out.toString());
    assertThat(missing.status()).isEqualTo(2);
    assertThat(missing.stderr()).contains("9 of 9 runs have no result");
    Files.copy(analyticResult, inorderResult);
    ConfigCommandTest.Result foreign =
        overhead("--timing", "inorder", "--run", "1", "--out", out.toString());
    assertThat(foreign.status()).isEqualTo(2);
    assertThat(foreign.stderr()).contains("holds the result of another run specification");
  }

  @Test
  void timedWorkersWriteTheModelsFiguresAndCollectBuildsTheTimingColumns(@TempDir Path tmp)
      throws Exception {
    Path one = tmp.resolve("one");
    Path pool = tmp.resolve("pool");
    ok(overhead("--timing", "inorder", "--jobs", "1", "--out", one.toString()));
    ok(
        overhead(
            "--timing", "inorder", "--executor", "local", "--jobs", "2", "--out", pool.toString()));
    byte[] csv = Files.readAllBytes(one.resolve("overhead.csv"));
    assertThat(Files.readAllBytes(pool.resolve("overhead.csv"))).isEqualTo(csv);
    List<String> lines = Files.readAllLines(one.resolve("overhead.csv"));
    assertThat(lines.get(0)).contains(",timing_model,cycles_alone,cycles_profiled,");
    assertThat(lines.get(0)).contains(",timing_overhead_pct");
    assertThat(lines.get(1)).contains(",inorder,");
    JsonNode first = plan("--timing", "inorder").get(1);
    JsonNode result =
        JSON.readTree(pool.resolve("runs/" + first.path("id").asText() + ".json").toFile());
    assertThat(result.path("result").path("timing").path("timing_model").asText())
        .isEqualTo("inorder");
    assertThat(result.path("result").path("timing").path("timing_overhead_pct").asDouble())
        .isGreaterThan(0.0);
    // Collecting the workers' results again gives the same CSV.
    ok(overhead("--timing", "inorder", "--collect", pool.toString()));
    assertThat(Files.readAllBytes(pool.resolve("overhead.csv"))).isEqualTo(csv);
  }

  static String Results_host() throws Exception {
    return java.net.InetAddress.getLocalHost().getHostName();
  }

  @Test
  void workerProcessesGiveTheSameCsvAsOneProcess(@TempDir Path tmp) throws Exception {
    Path one = tmp.resolve("one");
    Path pool = tmp.resolve("pool");
    ok(overhead("--jobs", "1", "--out", one.toString()));
    ConfigCommandTest.Result r =
        overhead("--executor", "local", "--jobs", "2", "--out", pool.toString());
    ok(r);
    assertThat(r.stderr()).contains("9 run(s) in 2 worker process(es)");
    assertThat(r.stderr()).contains("run 9 of 9");
    // Each worker takes every other run, one after another; its output is kept in the runs.
    String first = Files.readString(pool.resolve("runs/worker-0.log"));
    String second = Files.readString(pool.resolve("runs/worker-1.log"));
    for (JsonNode p : plan()) {
      int k = p.path("index").asInt();
      assertThat(k % 2 == 0 ? first : second).contains("run " + k + " (");
    }
    assertThat(Files.readAllBytes(pool.resolve("overhead.csv")))
        .isEqualTo(Files.readAllBytes(one.resolve("overhead.csv")));
  }

  /**
   * The experiments split after overhead: co-processor runs (one per period and tagging), and
   * bursty tracing, whose overlap is measured against another run's trace when collecting, give the
   * same CSV from worker processes as from one process.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({"coproc, 3", "bursty, 5"})
  void splitExperimentsGiveTheSameCsvFromWorkers(String name, int runs, @TempDir Path tmp)
      throws Exception {
    List<String> base =
        List.of("experiment", name, "--quick", "--programs", "phases:1:AB", "--dir", BIN);
    List<String> plan = new ArrayList<>(base);
    plan.add("--plan");
    ConfigCommandTest.Result p = acf(plan.toArray(String[]::new));
    ok(p);
    assertThat(p.stdout().lines().count()).isEqualTo(runs);
    List<String> one = new ArrayList<>(base);
    one.addAll(List.of("--jobs", "1", "--out", tmp.resolve("one").toString()));
    ok(acf(one.toArray(String[]::new)));
    List<String> pool = new ArrayList<>(base);
    pool.addAll(
        List.of("--executor", "local", "--jobs", "2", "--out", tmp.resolve("pool").toString()));
    ConfigCommandTest.Result r = acf(pool.toArray(String[]::new));
    ok(r);
    assertThat(r.stderr()).contains(runs + " run(s) in 2 worker process(es)");
    assertThat(withoutTimes(tmp.resolve("pool").resolve(name + ".csv")))
        .isEqualTo(withoutTimes(tmp.resolve("one").resolve(name + ".csv")));
  }

  /**
   * A CSV's lines without the columns that hold times (bursty's analysis time per reference), the
   * only ones a run on another process may change. A CSV that has such columns holds no comma in a
   * cell.
   */
  static List<String> withoutTimes(Path csv) throws Exception {
    List<String> lines = Files.readAllLines(csv);
    List<String> header = List.of(lines.get(0).split(",", -1));
    if (header.stream().noneMatch(h -> h.contains("_us_per_"))) {
      return lines;
    }
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      List<String> cells = List.of(line.split(",", -1));
      List<String> kept = new ArrayList<>();
      for (int i = 0; i < cells.size(); i++) {
        if (!header.get(i).contains("_us_per_")) {
          kept.add(cells.get(i));
        }
      }
      out.add(String.join(",", kept));
    }
    return out;
  }

  /**
   * The issue's test: {@code overhead --quick} as a SLURM job array on the cluster .ci/run starts
   * ({@code .ci/slurm}: SLURM_CONF), against the same plan run here.
   */
  @Test
  void aSlurmJobArrayGivesTheSameCsvAsLocalWorkers(@TempDir Path tmp) throws Exception {
    String missing = ExternalTool.missing("sinfo", "-h");
    if (missing != null) {
      System.out.println(
          "skipped: no SLURM cluster reachable (" + missing + "); .ci/run starts one");
      return;
    }
    // On a filesystem the node shares: here the same machine. Against one process, which the
    // test above holds equal to a pool of workers (`--executor local --jobs 2`).
    Path local = tmp.resolve("local");
    Path slurm = tmp.resolve("slurm");
    List<String> quick = List.of("experiment", "overhead", "--quick", "--dir", BIN);
    List<String> a = new ArrayList<>(quick);
    a.addAll(List.of("--executor", "local", "--jobs", "1", "--out", local.toString()));
    ok(acf(a.toArray(String[]::new)));
    List<String> b = new ArrayList<>(quick);
    b.addAll(List.of("--executor", "slurm", "--slurm-time", "10", "--out", slurm.toString()));
    ConfigCommandTest.Result r = acf(b.toArray(String[]::new));
    ok(r);
    // As many runs as the quick plan has (three profile types by three variants per program).
    int n = acf(concat(quick, "--plan")).stdout().lines().toList().size();
    assertThat(n % 9).isEqualTo(0);
    assertThat(r.stderr()).containsMatch("submitted SLURM job \\d+: " + n + " run\\(s\\)");
    assertThat(Files.readAllBytes(slurm.resolve("overhead.csv")))
        .isEqualTo(Files.readAllBytes(local.resolve("overhead.csv")));
    List<String> s = new ArrayList<>(quick);
    s.addAll(List.of("--status", slurm.toString()));
    ConfigCommandTest.Result status = acf(s.toArray(String[]::new));
    assertThat(status.stdout())
        .contains(n + " runs: " + n + " done, 0 running, 0 queued, 0 failed, 0 pending");

    // A failed run: resubmitted by --retry alone, without waiting; --status until it is done.
    JsonNode third = JSON.readTree(acf(concat(quick, "--plan")).stdout().lines().toList().get(3));
    String id = third.path("id").asText();
    Files.delete(slurm.resolve("runs/" + id + ".json"));
    Files.writeString(slurm.resolve("runs/" + id + ".failed"), "simulated: out of memory\n");
    ConfigCommandTest.Result failed = acf(concat(quick, "--status", slurm.toString()));
    assertThat(failed.status()).isEqualTo(1);
    assertThat(failed.stdout()).contains("failed   " + id);
    assertThat(failed.stdout()).contains("(simulated: out of memory)");
    ConfigCommandTest.Result retry =
        acf(
            concat(
                quick, "--executor", "slurm", "--retry", "--no-wait", "--out", slurm.toString()));
    ok(retry);
    assertThat(retry.stderr()).containsMatch("submitted SLURM job \\d+: 1 run\\(s\\) \\(array 3,");
    for (int i = 0;
        i < 120 && acf(concat(quick, "--status", slurm.toString())).status() != 0;
        i++) {
      Thread.sleep(1000);
    }
    ok(acf(concat(quick, "--collect", slurm.toString())));
    assertThat(Files.readAllBytes(slurm.resolve("overhead.csv")))
        .isEqualTo(Files.readAllBytes(local.resolve("overhead.csv")));
  }

  static String[] concat(List<String> a, String... more) {
    List<String> all = new ArrayList<>(a);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  /** {@code acf sweep}: one run per workload, and the same CSV from workers as from one process. */
  @Test
  void aSweepIsAPlanOfOneRunPerWorkload(@TempDir Path tmp) throws Exception {
    List<String> sweep =
        List.of(
            SweepInputTest.smallSweep(
                "4",
                "--workload",
                SamplingCommandTest.PHASES + " 1",
                "--workload",
                SamplingCommandTest.PHASES + " 1 AB"));
    List<String> planArgs = new ArrayList<>(sweep);
    planArgs.add("--plan");
    ConfigCommandTest.Result plan = acf(planArgs.toArray(String[]::new));
    ok(plan);
    List<String> lines = plan.stdout().lines().toList();
    assertThat(lines).hasSize(2);
    JsonNode first = JSON.readTree(lines.get(0));
    assertThat(first.path("kind").asText()).isEqualTo("sweep.workload");
    assertThat(first.path("settings").path("acf").asText()).contains("external_trigger");
    assertThat(first.path("settings").path("periods").asText()).isEqualTo("[4]");

    List<String> one = new ArrayList<>(sweep);
    one.addAll(List.of("--jobs", "1", "--out", tmp.resolve("one.csv").toString()));
    ok(acf(one.toArray(String[]::new)));
    assertThat(Files.isDirectory(tmp.resolve("one.csv.runs/runs"))).isTrue();
    List<String> two = new ArrayList<>(sweep);
    two.addAll(List.of("--jobs", "2", "--out", tmp.resolve("two.csv").toString()));
    ConfigCommandTest.Result r = acf(two.toArray(String[]::new));
    ok(r);
    assertThat(r.stderr()).contains("2 run(s) in 2 worker process(es)");
    assertThat(Files.readAllBytes(tmp.resolve("two.csv")))
        .isEqualTo(Files.readAllBytes(tmp.resolve("one.csv")));
    assertThat(Files.readAllLines(tmp.resolve("two.csv"))).hasSize(1 + 2 * 3);
    // Run again: both results are there, nothing runs, the CSV is collected again.
    ConfigCommandTest.Result again = acf(two.toArray(String[]::new));
    ok(again);
    assertThat(again.stderr()).contains("2 of 2 runs not run now: 2 have a result");
  }
}

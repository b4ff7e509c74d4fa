package org.dise.repl;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.dise.experiments.Workload;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;
import org.dise.runtime.cpu.CompiledBlocks;

/**
 * {@code acf bench --cold}: every workload as a fresh process, exactly as a user types it ({@code
 * ./acf run PROGRAM}), beside {@code qemu-riscv64}, with wall and CPU time (all threads, from the
 * child's rusage) and their ratios to qemu; the median of the repeats is shown. acf and qemu take
 * turns, and with several repeats a ratio is the median of each round's own ratio (a load that
 * changes between rounds falls on both sides of it), beside the lowest and highest round's wall
 * ratio, so that a table shows how far the machine moved it.
 *
 * @param launcher the command that starts acf ({@code [/path/acf]} or {@code [java, -jar, jar]})
 * @param runOptions options given to every {@code acf run} (e.g. a translation threshold)
 * @param acfOptions per extra configuration, the {@code acf run} options that select it
 * @param acfNames a column name for each extra configuration
 * @param repeat runs per workload and configuration (at least 1)
 * @param qemu whether qemu-riscv64 runs beside acf
 * @param out where the table goes
 * @param qemuSysroot qemu-riscv64 -L's directory, for dynamically linked workloads (null: none)
 * @param json --format json: the table's figures as one document on {@code out}, instead of the
 *     text
 */
record ColdBench(
    List<String> launcher,
    List<String> runOptions,
    List<List<String>> acfOptions,
    List<String> acfNames,
    int repeat,
    boolean qemu,
    PrintStream out,
    String qemuSysroot,
    boolean json) {
  /**
   * The JVM options of the launchers (./acf, bin/acf) without huge pages, for a jar run without
   * them: the serial collector, C1 alone in one compiler thread, and units compiled at their first
   * call.
   */
  static final List<String> JVM_OPTIONS =
      List.of(
          "-Xss16m",
          "-XX:+UseSerialGC",
          "-XX:TieredStopAtLevel=1",
          "-XX:CICompilerCount=1",
          "-XX:CompileCommand=quiet",
          "-XX:CompileCommand=CompileThresholdScaling,"
              + CompiledBlocks.UNIT_CLASS_NAME.replace('.', '/')
              + "*.*,0.001");

  /** Wall and CPU (user + system, every thread) seconds of one process, and its exit status. */
  record Times(double wall, double cpu, int status) {}

  ColdBench {
    repeat = Math.max(1, repeat);
  }

  /**
   * The command a user types to run acf: the {@code acf} launcher script beside the jar this class
   * came from (it rebuilds a stale jar and sets the JVM options), else {@code java -jar} with the
   * launcher's default options.
   */
  static List<String> defaultLauncher() {
    try {
      Path jar =
          Path.of(ColdBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path root = repositoryOf(jar);
      if (root != null && Files.isExecutable(root.resolve("acf"))) {
        return List.of(root.resolve("acf").toString());
      }
      if (jar.toString().endsWith(".jar")) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(JVM_OPTIONS);
        cmd.addAll(List.of("-jar", jar.toString()));
        return cmd;
      }
    } catch (Exception e) {
      // fall through: no usable location
    }
    throw new UserError(
        "bench --cold: cannot find the acf launcher or jar; give --launcher", ExitStatus.USAGE);
  }

  /** The repository a jar at {@code repl/target/acf.jar} was built in, or null. */
  static Path repositoryOf(Path jar) {
    Path root = jar.getParent() == null ? null : jar.getParent().getParent();
    return root == null ? null : root.getParent();
  }

  /**
   * The repository whose example sets {@code acf bench --set} reads: the current directory when it
   * is one, else the repository the running jar was built in.
   */
  static Path repository() {
    Path here = Path.of("").toAbsolutePath();
    if (Files.isDirectory(BenchSet.setsDir(here))) {
      return here;
    }
    try {
      Path root =
          repositoryOf(
              Path.of(ColdBench.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
      if (root != null && Files.isDirectory(BenchSet.setsDir(root))) {
        return root;
      }
    } catch (Exception e) {
      // fall through
    }
    throw new UserError(
        "bench --set: run it from the acf repository (no examples/programs/sets here)",
        ExitStatus.USAGE);
  }

  int run(List<Workload> programs) throws IOException, InterruptedException {
    // JSON: the same figures collected, the text going nowhere.
    PrintStream out = json ? new PrintStream(java.io.OutputStream.nullOutputStream()) : this.out;
    List<Object> rows = new ArrayList<>();
    out.println(
        "cold runs: "
            + String.join(" ", launcher)
            + " run "
            + (runOptions.isEmpty() ? "" : String.join(" ", runOptions) + " ")
            + "PROGRAM"
            + (repeat > 1 ? "; median of " + repeat : ""));
    StringBuilder head =
        new StringBuilder(String.format("%-10s %8s %8s", "workload", "acf-s", "acf-cpu"));
    if (qemu) {
      head.append(String.format(" %8s %8s %8s %8s", "qemu-s", "qemu-cpu", "wall/q", "cpu/q"));
      if (repeat > 1) {
        head.append(String.format(" %13s", "wall/q range"));
      }
    }
    for (String n : acfNames) {
      head.append(String.format(" %14s %14s", n + "/plain", n + "-cpu/plain"));
    }
    out.println(head);
    List<Double> wallRatios = new ArrayList<>();
    List<Double> cpuRatios = new ArrayList<>();
    List<List<Double>> acfRatios = new ArrayList<>();
    List<List<Double>> acfCpuRatios = new ArrayList<>();
    for (int k = 0; k < acfOptions.size(); k++) {
      acfRatios.add(new ArrayList<>());
      acfCpuRatios.add(new ArrayList<>());
    }
    for (Workload p : programs) {
      List<Times> ours = new ArrayList<>();
      List<Times> theirs = new ArrayList<>();
      List<List<Times>> withAcf = new ArrayList<>();
      for (int k = 0; k < acfOptions.size(); k++) {
        withAcf.add(new ArrayList<>());
      }
      // Take turns, so that a change in the machine's load falls on every configuration alike.
      for (int i = 0; i < repeat; i++) {
        ours.add(time(acfCommand(p, List.of())));
        if (qemu) {
          List<String> q = new ArrayList<>(List.of("qemu-riscv64"));
          if (qemuSysroot != null) {
            q.addAll(List.of("-L", qemuSysroot));
          }
          q.add(p.program().toString());
          q.addAll(p.args());
          theirs.add(time(q));
        }
        for (int k = 0; k < acfOptions.size(); k++) {
          withAcf.get(k).add(time(acfCommand(p, acfOptions.get(k))));
        }
      }
      Times a = median(ours);
      StringBuilder line =
          new StringBuilder(String.format("%-10s %8.2f %8.2f", p.label(), a.wall, a.cpu));
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("workload", p.label());
      row.put("seconds", a.wall);
      row.put("cpu_seconds", finite(a.cpu));
      row.put("exit_status", a.status);
      Map<String, Object> qemuRow = null;
      if (qemu) {
        Times q = median(theirs);
        double[] walls = roundRatios(ours, theirs, false);
        double wr = medianOf(walls);
        double cr = medianOf(roundRatios(ours, theirs, true));
        wallRatios.add(wr);
        cpuRatios.add(cr);
        qemuRow = new LinkedHashMap<>();
        qemuRow.put("seconds", q.wall);
        qemuRow.put("cpu_seconds", finite(q.cpu));
        qemuRow.put("exit_status", q.status);
        qemuRow.put("wall_ratio", finite(wr));
        qemuRow.put("cpu_ratio", finite(cr));
        qemuRow.put("wall_ratio_min", finite(walls[0]));
        qemuRow.put("wall_ratio_max", finite(walls[walls.length - 1]));
        line.append(String.format(" %8.2f %8.2f %7.1fx %7.1fx", q.wall, q.cpu, wr, cr));
        if (repeat > 1) {
          line.append(
              String.format(
                  " %13s", String.format("%.1f-%.1fx", walls[0], walls[walls.length - 1])));
        }
        if (q.status != a.status) {
          line.append(String.format("  (exit status %d, qemu's %d)", a.status, q.status));
        }
      } else if (a.status != 0) {
        line.append(String.format("  (exit status %d)", a.status));
      }
      row.put("qemu", qemuRow);
      List<Object> configurations = new ArrayList<>();
      for (int k = 0; k < acfOptions.size(); k++) {
        Times t = median(withAcf.get(k));
        double r = ratio(t, a, false);
        // CPU time moves less than wall time on a loaded machine.
        double c = ratio(t, a, true);
        acfRatios.get(k).add(r);
        acfCpuRatios.get(k).add(c);
        line.append(String.format(" %13.2fx %13.2fx", r, c));
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("name", acfNames.get(k));
        conf.put("options", acfOptions.get(k));
        conf.put("seconds", t.wall);
        conf.put("cpu_seconds", finite(t.cpu));
        conf.put("exit_status", t.status);
        conf.put("over_plain", finite(r));
        conf.put("cpu_over_plain", finite(c));
        configurations.add(conf);
      }
      row.put("configurations", configurations);
      rows.add(row);
      out.println(line);
    }
    if (qemu && !wallRatios.isEmpty()) {
      StringBuilder g =
          new StringBuilder(
              String.format(
                  "%-10s %8s %8s %8s %8s %7.1fx %7.1fx%s",
                  "geomean",
                  "",
                  "",
                  "",
                  "",
                  geomean(wallRatios),
                  geomean(cpuRatios),
                  repeat > 1 && !acfRatios.isEmpty() ? String.format(" %13s", "") : ""));
      for (int k = 0; k < acfRatios.size(); k++) {
        g.append(
            String.format(
                " %13.2fx %13.2fx", geomean(acfRatios.get(k)), geomean(acfCpuRatios.get(k))));
      }
      out.println(g);
    } else if (!acfRatios.isEmpty()) {
      StringBuilder g = new StringBuilder(String.format("%-10s %8s %8s", "geomean", "", ""));
      for (int k = 0; k < acfRatios.size(); k++) {
        g.append(
            String.format(
                " %13.2fx %13.2fx", geomean(acfRatios.get(k)), geomean(acfCpuRatios.get(k))));
      }
      out.println(g);
    }
    out.printf(
        "acf-s, qemu-s: wall seconds; -cpu: user+system seconds of every thread of the"
            + " process; wall/q, cpu/q: ratios to qemu-riscv64"
            + (repeat > 1 && qemu
                ? " (the median of each round's ratio; range: the lowest and highest round's)"
                : "")
            + (acfNames.isEmpty()
                ? ""
                : "; X/plain, X-cpu/plain: wall and CPU time under the productions or timing model over the plain"
                    + " run's")
            + "%n");
    out.printf(
        "machine: %d cores, %s, Java %s, load average %.2f%n",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.arch"),
        System.getProperty("java.version"),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      List<String> command = new ArrayList<>(launcher);
      command.add("run");
      command.addAll(runOptions);
      doc.put("command", command);
      doc.put("repeat", repeat);
      doc.put("workloads", rows);
      Map<String, Object> geo = new LinkedHashMap<>();
      geo.put("qemu_wall_ratio", wallRatios.isEmpty() ? null : finite(geomean(wallRatios)));
      geo.put("qemu_cpu_ratio", cpuRatios.isEmpty() ? null : finite(geomean(cpuRatios)));
      Map<String, Object> perConf = new LinkedHashMap<>();
      for (int k = 0; k < acfRatios.size(); k++) {
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("over_plain", finite(geomean(acfRatios.get(k))));
        g.put("cpu_over_plain", finite(geomean(acfCpuRatios.get(k))));
        perConf.put(acfNames.get(k), g);
      }
      geo.put("configurations", perConf);
      doc.put("geomean", geo);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("cores", Runtime.getRuntime().availableProcessors());
      m.put("arch", System.getProperty("os.arch"));
      m.put("java", System.getProperty("java.version"));
      m.put("load_average", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      doc.put("machine", m);
      this.out.println(org.dise.repl.common.SummaryJson.write(doc));
    }
    return 0;
  }

  /** JSON has no NaN or infinity: a figure that is not finite is null there. */
  private static Double finite(double x) {
    return Double.isFinite(x) ? x : null;
  }

  private List<String> acfCommand(Workload w, List<String> extra) {
    List<String> cmd = new ArrayList<>(launcher);
    cmd.add("run");
    cmd.addAll(runOptions);
    cmd.addAll(extra);
    cmd.add(w.program().toString());
    cmd.addAll(w.args());
    return cmd;
  }

  /**
   * Runs {@code cmd} under {@code sh}, whose {@code times} built-in reports the user and system
   * time of its waited-for children from the kernel's rusage: every thread of the child, which
   * {@code ProcessHandle} cannot give once the child has exited.
   */
  static Times time(List<String> cmd) throws IOException, InterruptedException {
    List<String> sh =
        new ArrayList<>(
            List.of("sh", "-c", "\"$@\" </dev/null >/dev/null 2>&1; s=$?; times; exit $s", "sh"));
    sh.addAll(cmd);
    ProcessBuilder pb = new ProcessBuilder(sh);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    long t0 = System.nanoTime();
    Process proc = pb.start();
    byte[] report = proc.getInputStream().readAllBytes();
    if (!proc.waitFor(30, TimeUnit.MINUTES)) {
      proc.destroyForcibly();
    }
    double wall = (System.nanoTime() - t0) / 1e9;
    return new Times(wall, childCpu(new String(report, StandardCharsets.UTF_8)), proc.exitValue());
  }

  /** The children's user + system seconds from {@code times} output (its second line). */
  static double childCpu(String times) {
    String[] lines = times.strip().split("\n");
    if (lines.length < 2) {
      return Double.NaN;
    }
    double sum = 0;
    for (String f : lines[1].trim().split("\\s+")) {
      sum += duration(f);
    }
    return sum;
  }

  /** {@code 1m2.345s} as seconds. */
  static double duration(String f) {
    int m = f.indexOf('m');
    double minutes = m < 0 ? 0 : Double.parseDouble(f.substring(0, m));
    String s = f.substring(m + 1).replace("s", "");
    return minutes * 60 + Double.parseDouble(s);
  }

  static Times median(List<Times> runs) {
    Times[] byWall = runs.toArray(new Times[0]);
    Arrays.sort(byWall, (x, y) -> Double.compare(x.wall, y.wall));
    double[] cpu = runs.stream().mapToDouble(Times::cpu).sorted().toArray();
    Times mid = byWall[byWall.length / 2];
    return new Times(mid.wall, cpu[cpu.length / 2], mid.status);
  }

  /**
   * Each round's ratio of acf's time to qemu's (wall, or CPU when {@code cpu}), sorted: round i ran
   * {@code ours.get(i)} and then {@code theirs.get(i)}.
   */
  static double[] roundRatios(List<Times> ours, List<Times> theirs, boolean cpu) {
    double[] r = new double[ours.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = ratio(ours.get(i), theirs.get(i), cpu);
    }
    Arrays.sort(r);
    return r;
  }

  /**
   * {@code t}'s time over {@code base}'s: wall, or CPU when {@code cpu} (a base under 5 ms of CPU
   * counts as 5 ms, so that a run the clock barely saw gives no infinite ratio).
   */
  static double ratio(Times t, Times base, boolean cpu) {
    return cpu ? t.cpu / Math.max(base.cpu, 0.005) : t.wall / base.wall;
  }

  /** The middle value of sorted {@code xs} (the upper one of an even count, as {@link #median}). */
  static double medianOf(double[] xs) {
    return xs[xs.length / 2];
  }

  static double geomean(List<Double> xs) {
    double s = 0;
    for (double x : xs) {
      s += Math.log(x);
    }
    return Math.exp(s / xs.size());
  }
}

package org.dise.repl;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.dise.compiler.FrontendBenchmark;
import org.dise.runtime.cpu.FpuBenchmark;
import org.dise.runtime.profiles.sink.StreamFinderBenchmark;

/**
 * The micro-benchmarks that {@code acf bench NAME} runs: programs that print figures (never timed
 * assertions in tests), kept beside the code they measure and named here once.
 */
final class Benchmarks {
  /** One benchmark: its name on the command line, what it measures, and its main. */
  record Benchmark(String name, String measures, Consumer<String[]> main) {}

  static final List<Benchmark> ALL =
      List.of(
          new Benchmark(
              "fpu",
              "the floating-point unit's round-to-nearest fast path on normal"
                  + " operands (ns per addD, mulD, divD beside plain Java doubles)",
              FpuBenchmark::main),
          new Benchmark(
              "frontend",
              "parse and check of a generated ACF of 1,000 productions"
                  + " (ms, best and mean of 20 after warm-up; target < 200 ms)",
              FrontendBenchmark::main),
          new Benchmark(
              "stream-finder",
              "the hot data stream search on synthetic traces of 64 Ki to 8 Mi references (ns"
                  + " per traced reference, and the heap its index holds)",
              StreamFinderBenchmark::main));

  private Benchmarks() {}

  static Optional<Benchmark> find(String name) {
    return ALL.stream().filter(b -> b.name().equals(name)).findFirst();
  }

  static String names() {
    return String.join(", ", ALL.stream().map(Benchmark::name).toList());
  }

  /** Runs {@code b}, with the figures on {@code out}, framed by what ran and for how long. */
  static void run(Benchmark b, PrintStream out) {
    out.println("benchmark " + b.name() + ": " + b.measures());
    PrintStream old = System.out;
    long t0 = System.nanoTime();
    try {
      System.setOut(out);
      b.main().accept(new String[0]);
    } finally {
      System.setOut(old);
    }
    out.printf("benchmark %s: done in %.1f s%n", b.name(), (System.nanoTime() - t0) / 1e9);
  }
}

package org.dise.compiler;

import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.SourceFile;
import org.dise.runtime.dise.HardwareBudget;

/**
 * A benchmark, printed and not asserted (issue 17: benchmarks are programs, not tests): parse and
 * check a generated file of 1,000 productions (with their replacements) after warm-up. Target:
 * under 200 ms. {@code acf bench frontend} runs it.
 */
public final class FrontendBenchmark {
  static final int PRODUCTIONS = 1_000;

  private FrontendBenchmark() {}

  static String generate(int n) {
    StringBuilder sb = new StringBuilder("// generated: " + n + " productions\n");
    String[] classes = {"branch", "load", "store", "proc_call", "alu", "jump"};
    for (int i = 0; i < n; i++) {
      sb.append("P")
          .append(i)
          .append(": T.OPCLASS == ")
          .append(classes[i % classes.length])
          .append(" && T.PC >= 0x")
          .append(Integer.toHexString(0x10000 + 64 * i))
          .append(" && T.PC < 0x")
          .append(Integer.toHexString(0x10000 + 64 * i + 64))
          .append(" && zero_")
          .append(i % 2)
          .append(" => R")
          .append(i)
          .append(", inc_")
          .append(2 + i % 2)
          .append('\n');
      sb.append("R")
          .append(i)
          .append(": addi $dr0, $dr0, 1; sd $dr0, ")
          .append(8 * (i % 16))
          .append("(sp); call(Branch_handler, T.INSN, T.PC); T.INSN;\n");
    }
    return sb.toString();
  }

  /** Prints the figures. */
  public static void main(String[] args) {
    parseAndCheckThousandProductions();
  }

  static void parseAndCheckThousandProductions() {
    String src = generate(PRODUCTIONS);
    // The paper's budget has 32 PT entries; the benchmark measures the front end, not the fit.
    HardwareBudget big = new HardwareBudget(PRODUCTIONS, 1 << 20, 8, 16, 8, 8, 8, 32);
    Frontend frontend = Frontend.standard().withBudget(big);
    SourceFile file = new SourceFile("bench.acf", src);
    Frontend.Result r = frontend.check(file, null);
    if (!r.ok()) {
      throw new IllegalStateException(
          "the generated benchmark input does not check:\n"
              + DiagnosticRenderer.renderAll(r.diagnostics().sorted()));
    }
    for (int i = 0; i < 20; i++) {
      frontend.check(file, null);
    }
    int runs = 20;
    long best = Long.MAX_VALUE;
    long total = 0;
    for (int i = 0; i < runs; i++) {
      long t0 = System.nanoTime();
      frontend.check(file, null);
      long t = System.nanoTime() - t0;
      best = Math.min(best, t);
      total += t;
    }
    System.out.printf(
        "benchmark: parse+check of %d productions (%d KB): best %.1f ms, "
            + "mean %.1f ms (target < 200 ms)%n",
        PRODUCTIONS, src.length() / 1024, best / 1e6, total / 1e6 / runs);
  }
}

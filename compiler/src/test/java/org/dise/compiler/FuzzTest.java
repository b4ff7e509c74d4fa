package org.dise.compiler;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.format.Formatter;
import org.dise.compiler.parse.AcfParsing;
import org.junit.jupiter.api.Test;

/**
 * Mutation fuzzing of the front end: programs from the conformance suite, mutated at random
 * (seeded, bounded in time), must yield diagnostics, never an exception or a hang; and whatever
 * parses must survive the formatter. Set {@code -Dacf.fuzzSeconds=N} to fuzz longer.
 */
class FuzzTest {
  static final long SEED = Long.getLong("acf.fuzzSeed", 20240601L);
  static final long SECONDS = Long.getLong("acf.fuzzSeconds", 20L);
  static final String[] TOKENS = {
    "P1:",
    "R1:",
    ":",
    "=>",
    "->",
    "⇒",
    "→",
    ",",
    ";",
    "(",
    ")",
    "{",
    "}",
    "&&",
    "||",
    "!",
    "==",
    "<",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    "null",
    "T.OP",
    "T.OPCLASS",
    "T.PC",
    "T.INSN",
    "T.FOO",
    "zero_0",
    "overflow_7",
    "inc_0",
    "set_1(HPS_R0)",
    "dec(c)",
    "set(c, 3)",
    "call(",
    "acf",
    "use",
    "import",
    "const",
    "counter",
    "sink",
    "trigger",
    "register",
    "\"x.acf\"",
    "0x",
    "0b2",
    "1_0K",
    "99999999999999999999999",
    "$dr0",
    "$dr99",
    ".L",
    ".L:",
    "addi",
    "ld",
    "fadd.s",
    "a0",
    "branch",
    "proc_call",
    "on_trig_inst",
    "/*",
    "*/",
    "//",
    "\n",
    " ",
    "\"",
    "@",
    "\u0000",
    "\uFFFF",
    "zero",
    "as",
    "lib",
    "sampling",
    "hot_methods",
  };

  @Test
  void mutatedProgramsYieldDiagnosticsNeverExceptions() throws Exception {
    List<String> corpus = corpus();
    Random random = new Random(SEED);
    Frontend frontend = TestSupport.frontend();
    ExecutorService worker =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(null, r, "fuzz", 64L << 20);
              t.setDaemon(true);
              return t;
            });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
    int runs = 0;
    int parsed = 0;
    try {
      while (System.nanoTime() < deadline) {
        String input = mutate(corpus.get(random.nextInt(corpus.size())), random);
        Future<Boolean> f = worker.submit(() -> run(frontend, input));
        try {
          if (f.get(10, TimeUnit.SECONDS)) {
            parsed++;
          }
        } catch (TimeoutException e) {
          f.cancel(true);
          throw new AssertionError("front end hung on input:\n" + input);
        } catch (java.util.concurrent.ExecutionException e) {
          throw new AssertionError(
              "front end threw " + e.getCause() + " on input:\n" + input, e.getCause());
        }
        runs++;
      }
    } finally {
      worker.shutdownNow();
    }
    System.out.printf(
        "fuzz: %d mutated programs in %d s (seed %d), %d parsed%n", runs, SECONDS, SEED, parsed);
    assertWithMessage("the fuzzer ran nothing").that(runs).isGreaterThan(100);
  }

  /** Checks one input; true if it parsed. Any exception escapes to the caller. */
  static boolean run(Frontend frontend, String input) {
    Frontend.Result r = frontend.check(new SourceFile("fuzz.acf", input), null);
    if (r.ast().isEmpty()) {
      if (!r.diagnostics().hasErrors()) {
        throw new AssertionError("no AST and no error");
      }
      return false;
    }
    String printed = Formatter.format(r.ast().get());
    Optional<AcfFile> again = AcfParsing.parse(new SourceFile("fmt", printed), new Diagnostics());
    if (again.isEmpty() || !again.get().equals(r.ast().get())) {
      throw new AssertionError("formatter round trip failed:\n" + printed);
    }
    return true;
  }

  static String mutate(String s, Random random) {
    StringBuilder sb = new StringBuilder(s);
    int n = 1 + random.nextInt(4);
    for (int i = 0; i < n; i++) {
      int at = sb.length() == 0 ? 0 : random.nextInt(sb.length() + 1);
      switch (random.nextInt(6)) {
        case 0 -> sb.insert(at, TOKENS[random.nextInt(TOKENS.length)]);
        case 1 -> {
          int end = Math.min(sb.length(), at + 1 + random.nextInt(12));
          sb.delete(Math.min(at, sb.length()), end);
        }
        case 2 -> sb.insert(at, (char) random.nextInt(0x80));
        case 3 -> {
          int end = Math.min(sb.length(), at + random.nextInt(40));
          sb.insert(at, sb.substring(Math.min(at, end), end));
        }
        case 4 -> sb.insert(at, " " + TOKENS[random.nextInt(TOKENS.length)] + " ");
        default -> {
          if (sb.length() > 0) {
            sb.setCharAt(Math.min(at, sb.length() - 1), (char) (32 + random.nextInt(95)));
          }
        }
      }
    }
    return sb.toString();
  }

  static List<String> corpus() throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(ConformanceTest.ROOT)) {
      for (Path p : s.filter(x -> x.toString().endsWith(".acf")).sorted().toList()) {
        out.add(Files.readString(p, StandardCharsets.UTF_8));
      }
    }
    out.add("(".repeat(500) + "zero_0" + ")".repeat(500));
    out.add("P: " + "!".repeat(2000) + "zero_0 => null, inc_0");
    out.add("P: zero_0" + " && zero_0".repeat(1000) + " => null, inc_0");
    return out;
  }
}

package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.Operand;
import org.dise.runtime.isa.SemanticsTable;
import org.junit.jupiter.api.Test;

/**
 * Checks the F and D instructions ({@link Semantics} over {@link Fpu}) against reference vectors
 * recorded from qemu-riscv64 running src/test/isa/fp_vectors.c (see that file for the line format).
 */
class FpuVectorsTest {
  static final String RESOURCE = "/isa/fp_vectors.expected";

  /** The Semantics methods, by name. */
  private static final Map<String, Method> METHODS = new HashMap<>();

  static {
    for (Method m : Semantics.class.getMethods()) {
      METHODS.put(m.getName(), m);
    }
  }

  /**
   * Runs one vector line's instruction through its {@link Semantics} method, as the interpreter
   * does (operands and rounding mode as {@link SemanticsTable} lists them, binary32 operands
   * NaN-boxed); returns the result, a binary32 one zero-extended as the vectors write it.
   */
  static long run(Fpu f, String mnemonic, int rm, long a, long b, long c) {
    Op op =
        Arrays.stream(Op.values())
            .filter(o -> o.mnemonic().equals(mnemonic))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("unknown op " + mnemonic));
    SemanticsTable.Entry e = SemanticsTable.of(op);
    // fcvt.X.Y converts from format Y to X; the others have one format, their suffix.
    String[] parts = mnemonic.split("\\.");
    boolean singleIn = parts[parts.length - 1].equals("s");
    boolean singleOut = parts[0].equals("fcvt") ? parts[1].equals("s") : singleIn;
    List<Object> args = new ArrayList<>();
    if (e.fpu()) {
      args.add(f);
    }
    long[] values = {a, b, c};
    for (int i = 0; i < e.sources().size(); i++) {
      boolean fpReg = e.sources().get(i) != Operand.RS1;
      args.add(fpReg && singleIn ? Fpu.boxS((int) values[i]) : values[i]);
    }
    if (e.rm()) {
      args.add(rm);
    }
    long r;
    try {
      r = (long) METHODS.get(e.method()).invoke(null, args.toArray());
    } catch (ReflectiveOperationException x) {
      throw new IllegalStateException(mnemonic + ": " + x.getCause(), x);
    }
    return e.dest() == Operand.FRD && singleOut ? r & 0xffffffffL : r;
  }

  @Test
  void allVectorsMatchQemu() throws Exception {
    InputStream in = FpuVectorsTest.class.getResourceAsStream(RESOURCE);
    assertWithMessage("missing test resource " + RESOURCE).that(in).isNotNull();
    List<String> failures = new ArrayList<>();
    int checked = 0, mismatches = 0;
    java.util.Map<String, Integer> perOp = new java.util.TreeMap<>();
    Fpu f = new Fpu();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("---")) {
          break; // record.sh trailer: stderr / exit status
        }
        if (line.isEmpty()) {
          continue;
        }
        String[] t = line.split(" ");
        int arrow = 2;
        while (!t[arrow].equals("->")) {
          arrow++;
        }
        int nargs = arrow - 2;
        String op = t[0];
        int rm = t[1].equals("-") ? Fpu.RNE : Integer.parseInt(t[1]);
        long a = Long.parseUnsignedLong(t[2], 16);
        long b = nargs > 1 ? Long.parseUnsignedLong(t[3], 16) : 0;
        long c = nargs > 2 ? Long.parseUnsignedLong(t[4], 16) : 0;
        long expRes = Long.parseUnsignedLong(t[arrow + 1], 16);
        int expFlags = Integer.parseInt(t[arrow + 2], 16);
        f.fflags = 0;
        long res;
        String err = null;
        try {
          res = run(f, op, rm, a, b, c);
        } catch (RuntimeException e) {
          res = 0;
          err = e.toString();
        }
        checked++;
        if (err != null || res != expRes || f.fflags != expFlags) {
          mismatches++;
          perOp.merge(op, 1, Integer::sum);
          if (failures.size() < 20) {
            int w = t[arrow + 1].length();
            failures.add(
                String.format(
                    "%s  =>  got %0" + w + "x %02x%s",
                    line,
                    res,
                    f.fflags,
                    err == null ? "" : " (" + err + ")"));
          }
        }
      }
    }
    System.out.println(
        "FpuVectorsTest: checked "
            + checked
            + " vectors, "
            + mismatches
            + " mismatches"
            + (perOp.isEmpty() ? "" : " " + perOp));
    assertWithMessage("vectors checked").that(checked).isGreaterThan(100000);
    assertWithMessage(
            mismatches
                + " of "
                + checked
                + " vectors differ from qemu "
                + perOp
                + "; first ones (expected -> result flags  =>  got result flags):\n  "
                + String.join("\n  ", failures))
        .that(mismatches)
        .isEqualTo(0);
  }
}

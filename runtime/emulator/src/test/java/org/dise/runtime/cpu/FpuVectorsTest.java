package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Checks {@link Fpu} against reference vectors recorded from qemu-riscv64 running
 * src/test/isa/fp_vectors.c (see that file for the line format).
 */
class FpuVectorsTest {
  static final String RESOURCE = "/isa/fp_vectors.expected";

  /** Runs one vector line's operation; returns the result (binary32 results zero-extended). */
  static long run(Fpu f, String op, int rm, long a, long b, long c) {
    int sa = (int) a, sb = (int) b, sc = (int) c;
    switch (op) {
      case "fadd.d":
        return f.addD(a, b, rm);
      case "fsub.d":
        return f.subD(a, b, rm);
      case "fmul.d":
        return f.mulD(a, b, rm);
      case "fdiv.d":
        return f.divD(a, b, rm);
      case "fsqrt.d":
        return f.sqrtD(a, rm);
      case "fmadd.d":
        return f.fmaddD(a, b, c, rm);
      case "fmsub.d":
        return f.fmsubD(a, b, c, rm);
      case "fnmsub.d":
        return f.fnmsubD(a, b, c, rm);
      case "fnmadd.d":
        return f.fnmaddD(a, b, c, rm);
      case "fmin.d":
        return f.minD(a, b);
      case "fmax.d":
        return f.maxD(a, b);
      case "feq.d":
        return f.eqD(a, b);
      case "flt.d":
        return f.ltD(a, b);
      case "fle.d":
        return f.leD(a, b);
      case "fclass.d":
        return Fpu.classD(a);
      case "fadd.s":
        return u(f.addS(sa, sb, rm));
      case "fsub.s":
        return u(f.subS(sa, sb, rm));
      case "fmul.s":
        return u(f.mulS(sa, sb, rm));
      case "fdiv.s":
        return u(f.divS(sa, sb, rm));
      case "fsqrt.s":
        return u(f.sqrtS(sa, rm));
      case "fmadd.s":
        return u(f.fmaddS(sa, sb, sc, rm));
      case "fmsub.s":
        return u(f.fmsubS(sa, sb, sc, rm));
      case "fnmsub.s":
        return u(f.fnmsubS(sa, sb, sc, rm));
      case "fnmadd.s":
        return u(f.fnmaddS(sa, sb, sc, rm));
      case "fmin.s":
        return u(f.minS(sa, sb));
      case "fmax.s":
        return u(f.maxS(sa, sb));
      case "feq.s":
        return f.eqS(sa, sb);
      case "flt.s":
        return f.ltS(sa, sb);
      case "fle.s":
        return f.leS(sa, sb);
      case "fclass.s":
        return Fpu.classS(sa);
      case "fcvt.w.d":
        return f.cvtWD(a, rm);
      case "fcvt.wu.d":
        return f.cvtWUD(a, rm);
      case "fcvt.l.d":
        return f.cvtLD(a, rm);
      case "fcvt.lu.d":
        return f.cvtLUD(a, rm);
      case "fcvt.w.s":
        return f.cvtWS(sa, rm);
      case "fcvt.wu.s":
        return f.cvtWUS(sa, rm);
      case "fcvt.l.s":
        return f.cvtLS(sa, rm);
      case "fcvt.lu.s":
        return f.cvtLUS(sa, rm);
      case "fcvt.d.w":
        return f.cvtDW(a, rm);
      case "fcvt.d.wu":
        return f.cvtDWU(a, rm);
      case "fcvt.d.l":
        return f.cvtDL(a, rm);
      case "fcvt.d.lu":
        return f.cvtDLU(a, rm);
      case "fcvt.s.w":
        return u(f.cvtSW(a, rm));
      case "fcvt.s.wu":
        return u(f.cvtSWU(a, rm));
      case "fcvt.s.l":
        return u(f.cvtSL(a, rm));
      case "fcvt.s.lu":
        return u(f.cvtSLU(a, rm));
      case "fcvt.s.d":
        return u(f.cvtSD(a, rm));
      case "fcvt.d.s":
        return f.cvtDS(sa);
      default:
        throw new IllegalArgumentException("unknown op " + op);
    }
  }

  private static long u(int v) {
    return v & 0xffffffffL;
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

package org.dise.runtime.isa;

import java.util.Locale;

/** ABI names of the integer and floating-point registers. */
public final class Registers {
  private Registers() {}

  private static final String[] X = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6"
  };
  private static final String[] F = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2",
    "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
    "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"
  };

  public static String x(int i) {
    return X[i == DecodedInsn.X0_SINK ? 0 : i];
  }

  public static String f(int i) {
    return F[i];
  }

  /** The number of an integer register by ABI name ({@code a0}, {@code fp}) or {@code xN}. */
  public static int xByName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.equals("fp")) {
      return 8;
    }
    for (int i = 0; i < 32; i++) {
      if (X[i].equals(n) || n.equals("x" + i)) {
        return i;
      }
    }
    return -1;
  }

  /** The number of a floating-point register by ABI name ({@code fa0}) or {@code fN}. */
  public static int fByName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (int i = 0; i < 32; i++) {
      if (F[i].equals(n) || n.equals("f" + i)) {
        return i;
      }
    }
    return -1;
  }
}

package org.dise.compiler.isa;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** RISC-V register names (numeric and ABI) as replacement operands spell them. */
public final class Registers {
  private static final String[] X_ABI = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6"};
  private static final String[] F_ABI = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2",
    "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
    "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
  private static final Map<String, Integer> X = new HashMap<>();
  private static final Map<String, Integer> F = new HashMap<>();

  static {
    for (int i = 0; i < 32; i++) {
      X.put("x" + i, i);
      X.put(X_ABI[i], i);
      F.put("f" + i, i);
      F.put(F_ABI[i], i);
    }
    X.put("fp", 8);
  }

  private Registers() {}

  /** The number of an integer register name, or -1. */
  public static int x(String name) {
    return X.getOrDefault(name.toLowerCase(Locale.ROOT), -1);
  }

  /** The number of a floating-point register name, or -1. */
  public static int f(String name) {
    return F.getOrDefault(name.toLowerCase(Locale.ROOT), -1);
  }
}

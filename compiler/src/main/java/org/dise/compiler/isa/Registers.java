package org.dise.compiler.isa;

/** RISC-V register names as replacement operands spell them: the runtime's table. */
public final class Registers {
  private Registers() {}

  /** The number of an integer register name ({@code a0}, {@code x5}, {@code fp}), or -1. */
  public static int x(String name) {
    return org.dise.runtime.isa.Registers.xByName(name);
  }

  /** The number of a floating-point register name, or -1. */
  public static int f(String name) {
    return org.dise.runtime.isa.Registers.fByName(name);
  }
}

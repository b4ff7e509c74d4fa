package org.dise.runtime.cpu;

import org.objectweb.asm.MethodVisitor;

/**
 * A decode stage's prologue of one tagged instruction ({@link DecodeStage#splitsOriginal}) as JVM
 * bytecode, emitted inline into the translated unit that holds the instruction (issue 14: counter
 * micro-ops and sink calls inlined in the translation, as QEMU's TCG plugins inline their
 * counters). The emulator knows no engine: the stage writes the bytecode, through a {@link Unit}
 * that gives it the unit's view of the machine.
 */
@FunctionalInterface
public interface PrologueEmitter {
  /**
   * Emits what {@link DecodeStage#before} does for the instruction, under whatever flag vector the
   * emitted code finds ({@link Unit#loadVector}). The unit has stored the registers of {@link
   * #registersRead} into {@code Cpu.x} and brought the cpu's pc and instruction count up to date
   * before this code, and restores the count and reads the flag vector again after it. The code
   * must leave the operand stack as it found it, write no guest register, and may use no JVM local.
   */
  void emit(Unit unit);

  /**
   * The integer registers the emitted code and what it calls read from {@code Cpu.x} (bit r: {@code
   * x[r]}), which the unit stores from its locals first; all unless the stage knows better.
   */
  default long registersRead() {
    return -1L;
  }

  /** The translated unit as the emitted code sees it. */
  interface Unit {
    /** Where the code goes. */
    MethodVisitor mv();

    /** Pushes the {@link Cpu}. */
    void loadCpu();

    /** Pushes the tagged instruction's {@link org.dise.runtime.isa.DecodedInsn}. */
    void loadInsn();

    /** Pushes the flag vector as a one-bit mask (a long), as it was before the prologue. */
    void loadVector();

    /** Pushes integer register {@code reg} ({@code x[reg]}, DISE registers included) as a long. */
    void loadX(int reg);

    /** Pushes the raw bits of floating-point register {@code reg} as a long. */
    void loadF(int reg);

    /**
     * Pushes {@code value}, an object the unit holds for as long as it lives, as a constant of JVM
     * type {@code descriptor} (resolved once, then as cheap as a literal): a sink's per-site
     * counter that the emitted code adds to directly.
     */
    void loadConstant(Object value, String descriptor);

    /** Pushes the int constant {@code v} in its shortest form. */
    default void pushInt(int v) {
      BytecodeTranslator.iconst(mv(), v);
    }
  }
}

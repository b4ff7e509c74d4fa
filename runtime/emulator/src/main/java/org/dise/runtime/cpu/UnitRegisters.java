package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Operand;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Register allocation of a translated unit: the guest integer registers it reads or writes live in
 * JVM locals (two slots each) for the whole unit. An entry loads only the registers live there and
 * an exit stores only those the path taken wrote ({@link RegisterLiveness}): a local mask, {@code
 * dirty}, holds the registers written by the blocks the unit completed since it was entered, and
 * {@link #here} those the current block wrote so far, known when the code is generated. Registers
 * the unit did not load hold 0 until written (the verifier wants every local set), and nothing
 * reads them: liveness loads every register read before it is written. Floating-point registers
 * stay in {@code f[]}.
 */
final class UnitRegisters {
  private final MethodVisitor mv;

  /** The locals holding {@code x[]} and {@code f[]}. */
  private final int X;

  private final int F;

  /** The first guest register's local; a scratch long below it. */
  private final int regBase;

  private final int scratch;

  /** Registers the unit reads or writes (0 and the x0 sink excluded), and those it writes. */
  final boolean[] used = new boolean[Cpu.DISE_REG_BASE + Cpu.DISE_REGS];

  final boolean[] written = new boolean[used.length];

  /** The long locals: registers written by the blocks completed since entry; registers loaded. */
  private final int dirty;

  private final int loaded;

  /**
   * The registers the current block surely wrote (or may have, with a valid local either way)
   * before the code being generated: stored at an exit here without testing {@code dirty}. Set by
   * {@link BlockEmitter} per instruction.
   */
  long here;

  UnitRegisters(MethodVisitor mv, int x, int f, int scratch, int regBase) {
    this.mv = mv;
    this.X = x;
    this.F = f;
    this.scratch = scratch;
    this.regBase = regBase;
    this.dirty = regBase + 2 * used.length;
    this.loaded = dirty + 2;
  }

  /** Holds {@code reg} in a local and stores it at exits: a register the unit's code writes. */
  void write(int reg) {
    if (real(reg)) {
      used[reg] = true;
      written[reg] = true;
    }
  }

  /** Pushes integer register {@code reg}: the unit's local if it holds one, else {@code x[reg]}. */
  void loadX(int reg) {
    if (reg < used.length && used[reg]) {
      get(reg); // the unit's local (x0 and the x0 sink read as 0)
    } else {
      mv.visitVarInsn(ALOAD, X); // current: the unit stored what it wrote
      BytecodeTranslator.iconst(mv, reg);
      mv.visitInsn(LALOAD);
    }
  }

  /** Pops a long into integer register {@code reg}: its local, or {@code x[reg]}. */
  void storeX(int reg) {
    if (reg < used.length && used[reg]) {
      if (real(reg)) {
        mv.visitVarInsn(LSTORE, slot(reg));
      } else {
        mv.visitInsn(POP2);
      }
    } else {
      mv.visitVarInsn(LSTORE, scratch);
      mv.visitVarInsn(ALOAD, X);
      BytecodeTranslator.iconst(mv, reg);
      mv.visitVarInsn(LLOAD, scratch);
      mv.visitInsn(LASTORE);
    }
  }

  int slot(int reg) {
    return regBase + 2 * reg;
  }

  static boolean real(int reg) {
    return reg != 0 && reg != DecodedInsn.X0_SINK;
  }

  /**
   * Records the integer registers an instruction reads (rs1 and rs2 whatever they name: an extra
   * load is harmless) and writes (an x register rd).
   */
  void scan(DecodedInsn d) {
    use(d.rs1);
    use(d.rs2);
    if (d.exec.operands().contains(Operand.RD)) {
      use(d.rd);
      if (real(d.rd)) {
        written[d.rd] = true;
      }
    }
  }

  void use(int reg) {
    if (real(reg)) {
      used[reg] = true;
    }
  }

  /**
   * Stores the written registers of {@code mask} (bit r: x[r], DISE registers included) that the
   * path taken wrote: those of {@link #here} at once, the others if {@code dirty} says so.
   */
  void storeWritten(long mask) {
    for (int r = 0; r < written.length; r++) { // fewer than 64 registers
      if (!written[r] || (mask >>> r & 1) == 0) {
        continue;
      }
      Label skip = null;
      if ((here >>> r & 1) == 0) {
        skip = new Label();
        testBit(dirty, r, skip);
      }
      mv.visitVarInsn(ALOAD, X);
      BytecodeTranslator.iconst(mv, r);
      mv.visitVarInsn(LLOAD, slot(r));
      mv.visitInsn(LASTORE);
      if (skip != null) {
        mv.visitLabel(skip);
      }
    }
  }

  /** Jumps to {@code skip} unless bit {@code r} of long local {@code mask} is set. */
  private void testBit(int mask, int r, Label skip) {
    mv.visitVarInsn(LLOAD, mask);
    if (r != 0) {
      BytecodeTranslator.iconst(mv, r);
      mv.visitInsn(LUSHR);
    }
    mv.visitInsn(L2I);
    mv.visitInsn(ICONST_1);
    mv.visitInsn(IAND);
    mv.visitJumpInsn(IFEQ, skip);
  }

  /**
   * At the method's start: every cached register's local 0 (the verifier wants them set on every
   * path; liveness makes sure none is read before it is loaded or written), nothing dirty.
   */
  void clear() {
    for (int r = 0; r < used.length; r++) {
      if (used[r]) {
        mv.visitInsn(LCONST_0);
        mv.visitVarInsn(LSTORE, slot(r));
      }
    }
    mv.visitInsn(LCONST_0);
    mv.visitVarInsn(LSTORE, dirty);
    mv.visitInsn(LCONST_0);
    mv.visitVarInsn(LSTORE, loaded);
  }

  /** An entry: loads the cached registers of {@code live} and notes them loaded. */
  void enter(long live) {
    long mask = 0;
    for (int r = 0; r < used.length; r++) {
      if (used[r] && (live >>> r & 1) != 0) {
        mv.visitVarInsn(ALOAD, X);
        BytecodeTranslator.iconst(mv, r);
        mv.visitInsn(LALOAD);
        mv.visitVarInsn(LSTORE, slot(r));
        mask |= 1L << r;
      }
    }
    BytecodeTranslator.lconst(mv, mask);
    mv.visitVarInsn(LSTORE, loaded);
  }

  /** A block completed: the registers it wrote are dirty. */
  void completed(long writes) {
    long mask = writes & mask(written);
    if (mask != 0) {
      mv.visitVarInsn(LLOAD, dirty);
      BytecodeTranslator.lconst(mv, mask);
      mv.visitInsn(LOR);
      mv.visitVarInsn(LSTORE, dirty);
    }
  }

  /** Adds the registers of the long on the stack to {@code dirty} (the fault handler's part). */
  void dirtyFromStack() {
    mv.visitVarInsn(LLOAD, dirty);
    mv.visitInsn(LOR);
    mv.visitVarInsn(LSTORE, dirty);
  }

  /**
   * Control reached a block of the unit through an indirect jump, which liveness does not follow:
   * loads every cached register neither loaded at entry nor written since, so that all are valid.
   */
  void loadRest() {
    for (int r = 0; r < used.length; r++) {
      if (used[r]) {
        Label skip = new Label();
        Label load = new Label();
        testBit(loaded, r, load);
        mv.visitJumpInsn(GOTO, skip);
        mv.visitLabel(load);
        if (written[r]) {
          testBit(dirty, r, load = new Label());
          mv.visitJumpInsn(GOTO, skip);
          mv.visitLabel(load);
        }
        mv.visitVarInsn(ALOAD, X);
        BytecodeTranslator.iconst(mv, r);
        mv.visitInsn(LALOAD);
        mv.visitVarInsn(LSTORE, slot(r));
        mv.visitLabel(skip);
      }
    }
    BytecodeTranslator.lconst(mv, -1L);
    mv.visitVarInsn(LSTORE, loaded);
  }

  /** The registers of {@code set} as a mask. */
  static long mask(boolean[] set) {
    long m = 0;
    for (int r = 0; r < set.length && r < 64; r++) {
      m |= set[r] ? 1L << r : 0;
    }
    return m;
  }

  /** Reloads the cached registers of {@code mask} from x[]. */
  void reload(long mask) {
    for (int r = 0; r < used.length && r < 64; r++) {
      if (used[r] && (mask >>> r & 1) != 0) {
        mv.visitVarInsn(ALOAD, X);
        BytecodeTranslator.iconst(mv, r);
        mv.visitInsn(LALOAD);
        mv.visitVarInsn(LSTORE, slot(r));
      }
    }
  }

  void get(int reg) {
    if (real(reg)) {
      mv.visitVarInsn(LLOAD, slot(reg));
    } else {
      mv.visitInsn(LCONST_0);
    }
  }

  /** Stores the long on the stack in rd (dropped for x0). */
  void put(DecodedInsn d) {
    if (real(d.rd)) {
      mv.visitVarInsn(LSTORE, slot(d.rd));
    } else {
      mv.visitInsn(POP2);
    }
  }

  void fget(int reg) {
    mv.visitVarInsn(ALOAD, F);
    BytecodeTranslator.iconst(mv, reg);
    mv.visitInsn(LALOAD);
  }

  /** f[reg] = the long on the stack. */
  void fput(int reg) {
    int tmp = scratch;
    mv.visitVarInsn(LSTORE, tmp);
    mv.visitVarInsn(ALOAD, F);
    BytecodeTranslator.iconst(mv, reg);
    mv.visitVarInsn(LLOAD, tmp);
    mv.visitInsn(LASTORE);
  }
}

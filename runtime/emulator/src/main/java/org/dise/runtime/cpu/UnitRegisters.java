package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Operand;
import org.objectweb.asm.MethodVisitor;

/**
 * Register allocation of a translated unit: the guest integer registers it reads or writes live in
 * JVM locals (two slots each) for the whole unit, loaded at entry and stored at every exit, before
 * every call that reads {@code x[]} and in the fault handler, so that state is precise wherever
 * control leaves the unit. Floating-point registers stay in {@code f[]}.
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

  UnitRegisters(MethodVisitor mv, int x, int f, int scratch, int regBase) {
    this.mv = mv;
    this.X = x;
    this.F = f;
    this.scratch = scratch;
    this.regBase = regBase;
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

  void storeWritten() {
    storeWritten(-1L);
  }

  /** Stores the written registers of {@code mask} (bit r: x[r], DISE registers included). */
  void storeWritten(long mask) {
    for (int r = 0; r < written.length; r++) { // fewer than 64 registers
      if (written[r] && (mask >>> r & 1) != 0) {
        mv.visitVarInsn(ALOAD, X);
        BytecodeTranslator.iconst(mv, r);
        mv.visitVarInsn(LLOAD, slot(r));
        mv.visitInsn(LASTORE);
      }
    }
  }

  /** Reloads every cached register from x[] (after a handler that wrote there). */
  void reloadUsed() {
    for (int r = 0; r < used.length; r++) {
      if (used[r]) {
        mv.visitVarInsn(ALOAD, X);
        BytecodeTranslator.iconst(mv, r);
        mv.visitInsn(LALOAD);
        mv.visitVarInsn(LSTORE, slot(r));
      }
    }
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

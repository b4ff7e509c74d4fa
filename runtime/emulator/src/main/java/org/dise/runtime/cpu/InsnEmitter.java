package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.Operand;
import org.dise.runtime.isa.SemanticsTable;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Per-instruction emission of a translated unit: each instruction's {@link Semantics} method on its
 * operands as {@link SemanticsTable} lists them (copied in place by {@link SemanticsInliner}), the
 * result into its register, and a block's exits leaving the next pc in the unit's pc local.
 */
final class InsnEmitter {
  private static final String CTX = "org/dise/runtime/cpu/UnitContext";
  private static final String FPU = "org/dise/runtime/cpu/Fpu";

  /**
   * Whether a conditional branch is one long compare and jump (system property {@code
   * acf.compareJump}, true by default; tests set it): {@code lcmp} and {@code ifxx}, which C1
   * compiles to one cmp and jcc, instead of the {@link Semantics} method's boolean (a compare, a
   * select of 0 or 1) and a test of it.
   */
  static boolean compareJump = EmulatorProperties.COMPARE_JUMP.value();

  /**
   * Whether lbu and lhu mask the loaded int before widening it (system property {@code
   * acf.intZeroExtend}, true by default; tests set it), instead of widening and masking the long.
   */
  static boolean intZeroExtend = EmulatorProperties.INT_ZERO_EXTEND.value();

  private final MethodVisitor mv;
  private final UnitRegisters regs;
  private final MemoryAccess memory;

  /** The locals of the unit's context, its next pc, and k (the index of the running insn). */
  private final int CPU_L;

  private final int pcLocal;
  private final int k;
  private final int scratch;

  /** Where a block's exits go, its next pc in the pc local (set per block). */
  Label done;

  /**
   * A block's transfers to blocks of the same unit, emitted as direct jumps ({@code
   * acf.directEdges}); null: every exit goes to {@link #done}.
   */
  interface Edges {
    /** Whether {@code pc} starts a block of the unit. */
    boolean reaches(long pc);

    /** Emits the block's end and its transfer to the unit's block at {@code pc}. */
    void jump(long pc);
  }

  /** The block's direct edges (set per block), or null. */
  Edges edges;

  /** Whether an exit of the block went to {@link #done} (reset per block). */
  boolean leftToDone;

  InsnEmitter(
      MethodVisitor mv,
      UnitRegisters regs,
      MemoryAccess memory,
      int context,
      int pcLocal,
      int k,
      int scratch) {
    this.mv = mv;
    this.regs = regs;
    this.memory = memory;
    this.CPU_L = context;
    this.pcLocal = pcLocal;
    this.k = k;
    this.scratch = scratch;
  }

  /**
   * Emits instruction {@code i} as its {@link SemanticsTable} row says (what the interpreter's
   * generated dispatch runs); true when it returned (ended the block).
   */
  boolean insn(DecodedInsn d, int i) {
    SemanticsTable.Entry e = SemanticsTable.of(d.exec);
    switch (e.kind()) {
      case VALUE -> value(d, i, e);
      case BRANCH -> {
        branch(d, e);
        return true;
      }
      case JUMP -> {
        jump(d, e);
        return true;
      }
      case LOAD -> load(d, i, e);
      case STORE -> store(d, i, e);
      case ATOMIC -> atomic(d, i);
      case CSR -> csr(d);
      default -> {
        // System instructions are the interpreter's (BlockCompiler.translatable keeps them out),
        // except those that do nothing on one hart.
        if (d.exec != Op.FENCE && d.exec != Op.ON_TRIG_INST && d.exec != Op.OFF_TRIG_INST) {
          throw new IllegalArgumentException("not translatable: " + d.exec.mnemonic());
        }
      }
    }
    return false;
  }

  /**
   * A floating-point CSR access (BlockCompiler.translatable admits no other): rd = {@link Fpu#csr}
   * on the CSR's number, what the instruction does to it and its operand, as the interpreter runs
   * it.
   */
  private void csr(DecodedInsn d) {
    fpu();
    BytecodeTranslator.iconst(mv, (int) d.imm);
    BytecodeTranslator.iconst(mv, Interpreter.csrMode(d));
    if (Interpreter.csrImmediate(d)) {
      BytecodeTranslator.lconst(mv, d.rs1);
    } else {
      regs.get(d.rs1);
    }
    mv.visitMethodInsn(INVOKEVIRTUAL, FPU, "csr", "(IIJ)J", false);
    regs.put(d);
  }

  /** A jump: rd = the next pc, and the block leaves for the row's target. */
  private void jump(DecodedInsn d, SemanticsTable.Entry e) {
    if (d.exec == Op.JAL && edges != null && edges.reaches(d.target())) {
      BytecodeTranslator.lconst(mv, d.npc);
      regs.put(d);
      edges.jump(d.target());
      return;
    }
    compute(d, e);
    mv.visitVarInsn(LSTORE, scratch); // before rd is written: rd may be rs1
    BytecodeTranslator.lconst(mv, d.npc);
    regs.put(d);
    mv.visitVarInsn(LLOAD, scratch);
    exitStack();
  }

  /** The {@link org.dise.runtime.mem.Memory} method of an access of {@code width} bytes. */
  private static String access(char kind, int width) {
    return kind
        + switch (width) {
          case 1 -> "b";
          case 2 -> "h";
          case 4 -> "w";
          default -> "d";
        };
  }

  /**
   * A load of the row's width into rd, sign- or zero-extended as the row says, or into frd (a
   * single NaN-boxed); the memory's methods and the fast path return 1-4 bytes as an int.
   */
  private void load(DecodedInsn d, int i, SemanticsTable.Entry e) {
    int width = e.width();
    mark(i);
    memory.load(d, width, access('l', width), width == 8 ? "(J)J" : "(J)I");
    if (e.dest() == Operand.FRD) {
      if (width == 4) {
        boxS();
      }
      regs.fput(d.rd);
      return;
    }
    if (e.unsigned() && width < 4 && intZeroExtend) {
      BytecodeTranslator.iconst(mv, (1 << (8 * width)) - 1); // whatever the int's upper bits
      mv.visitInsn(IAND);
      mv.visitInsn(I2L);
      regs.put(d);
      return;
    }
    if (width == 1) {
      mv.visitInsn(I2B); // the fast path's byte and mem.lb's int alike
    }
    if (width < 8) {
      mv.visitInsn(I2L);
      if (e.unsigned()) {
        BytecodeTranslator.lconst(mv, (1L << (8 * width)) - 1);
        mv.visitInsn(LAND);
      }
    }
    regs.put(d);
  }

  /** A store of the row's width of its data register (x or f). */
  private void store(DecodedInsn d, int i, SemanticsTable.Entry e) {
    mark(i);
    if (e.sources().get(0) == Operand.FRS2) {
      regs.fget(d.rs2);
    } else {
      regs.get(d.rs2);
    }
    memory.store(d, e.width(), access('s', e.width()));
  }

  /**
   * Emits an instruction's {@link Semantics} method on its operands as the table lists them (copied
   * in place by {@link SemanticsInliner}), leaving the result on the stack.
   */
  void compute(DecodedInsn d, SemanticsTable.Entry e) {
    List<SemanticsInliner.Operand> args = new ArrayList<>();
    if (e.fpu()) {
      args.add(this::fpu);
    }
    if (e.pc()) {
      args.add(() -> BytecodeTranslator.lconst(mv, d.pc));
    }
    for (Operand o : e.sources()) {
      args.add(
          switch (o) {
            case RS1 -> () -> regs.get(d.rs1);
            case RS2 -> () -> regs.get(d.rs2);
            case FRS1 -> () -> regs.fget(d.rs1);
            case FRS2 -> () -> regs.fget(d.rs2);
            case FRS3 -> () -> regs.fget(d.rs3);
            default -> () -> BytecodeTranslator.lconst(mv, d.imm); // imm, uimm, shamt
          });
    }
    if (e.rm()) {
      args.add(() -> rm(d));
    }
    SemanticsInliner.emit(mv, e.method(), e.descriptor(), args, scratch);
  }

  /** rd or frd = the instruction's method. */
  void value(DecodedInsn d, int i, SemanticsTable.Entry e) {
    if (e.rm()) {
      mark(i); // a dynamic rounding mode may be illegal
    }
    compute(d, e);
    if (e.dest() == Operand.FRD) {
      regs.fput(d.rd);
    } else {
      regs.put(d);
    }
  }

  /** A conditional branch: leaves the block for the taken or the next pc. */
  private void branch(DecodedInsn d, SemanticsTable.Entry e) {
    Label taken = new Label();
    if (compareJump) {
      compareJump(d, taken);
    } else {
      compute(d, e);
      mv.visitJumpInsn(IFNE, taken);
    }
    exitConst(d.npc);
    mv.visitLabel(taken);
    exitConst(d.pc + d.imm);
  }

  /**
   * Jumps to {@code taken} when the branch's condition holds: rs1 and rs2 compared by {@code lcmp}
   * (x0 as the constant 0), then one {@code ifxx}. An unsigned compare flips both operands' sign
   * bits first ({@code a <u b} exactly when {@code a ^ MIN < b ^ MIN}; x0 flipped is the constant
   * MIN), so that it too is one compare and jump.
   */
  private void compareJump(DecodedInsn d, Label taken) {
    boolean unsigned = d.exec == Op.BLTU || d.exec == Op.BGEU;
    operand(d.rs1, unsigned);
    operand(d.rs2, unsigned);
    mv.visitInsn(LCMP);
    mv.visitJumpInsn(
        switch (d.exec) {
          case BEQ -> IFEQ;
          case BNE -> IFNE;
          case BLT, BLTU -> IFLT;
          case BGE, BGEU -> IFGE;
          default -> throw new IllegalArgumentException("not a branch: " + d.exec.mnemonic());
        },
        taken);
  }

  /** Pushes register {@code reg}, its sign bit flipped when {@code flip}. */
  private void operand(int reg, boolean flip) {
    if (reg == 0) {
      BytecodeTranslator.lconst(mv, flip ? Long.MIN_VALUE : 0);
      return;
    }
    regs.get(reg);
    if (flip) {
      BytecodeTranslator.lconst(mv, Long.MIN_VALUE);
      mv.visitInsn(LXOR);
    }
  }

  /** An A instruction: the cpu keeps the reservation; rd gets the old value. */
  private void atomic(DecodedInsn d, int i) {
    mark(i);
    mv.visitVarInsn(ALOAD, CPU_L);
    regs.get(d.rs1);
    regs.get(d.rs2);
    BytecodeTranslator.iconst(mv, d.opcode);
    mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "atomic", "(JJI)J", false);
    regs.put(d);
  }

  private void boxS() {
    mv.visitMethodInsn(INVOKESTATIC, FPU, "boxS", "(I)J", false);
  }

  private void fpu() {
    mv.visitVarInsn(ALOAD, CPU_L);
    mv.visitFieldInsn(GETFIELD, CTX, "fpu", "L" + FPU + ";");
  }

  /** The rounding mode: a constant, or frm read (and checked) when the instruction runs. */
  private void rm(DecodedInsn d) {
    if (d.rm == 7) {
      mv.visitVarInsn(ALOAD, CPU_L);
      BytecodeTranslator.iconst(mv, d.raw);
      mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "dynamicRm", "(I)I", false);
    } else {
      BytecodeTranslator.iconst(mv, d.rm); // 5 and 6 are illegal: translatable() leaves those alone
    }
  }

  void mark(int i) {
    BytecodeTranslator.iconst(mv, i);
    mv.visitVarInsn(ISTORE, k);
  }

  /** Leaves the block for {@code pc}. */
  void exitConst(long pc) {
    if (edges != null && edges.reaches(pc)) {
      edges.jump(pc);
      return;
    }
    BytecodeTranslator.lconst(mv, pc);
    exitStack();
  }

  /** Leaves the block for the pc on the stack. */
  void exitStack() {
    leftToDone = true;
    mv.visitVarInsn(LSTORE, pcLocal);
    mv.visitJumpInsn(GOTO, done);
  }
}

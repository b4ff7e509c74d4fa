package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.Operand;
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

  /** Emits instruction {@code i}; true when it returned (ended the block). */
  boolean insn(DecodedInsn d, int i) {
    SemanticsTable.Entry e = SemanticsTable.of(d.exec);
    switch (e.kind()) {
      case VALUE -> {
        value(d, i, e);
        return false;
      }
      case BRANCH -> {
        branch(d, e);
        return true;
      }
      case ATOMIC -> {
        atomic(d, i);
        return false;
      }
      default -> {}
    }
    switch (d.exec) {
      case JAL -> {
        BytecodeTranslator.lconst(mv, d.npc);
        regs.put(d);
        exitConst(d.pc + d.imm);
        return true;
      }
      case JALR -> {
        int tmp = scratch;
        compute(d, e);
        mv.visitVarInsn(LSTORE, tmp); // before rd is written: rd may be rs1
        BytecodeTranslator.lconst(mv, d.npc);
        regs.put(d);
        mv.visitVarInsn(LLOAD, tmp);
        exitStack();
        return true;
      }
      case LB, LBU -> {
        mark(i);
        memory.load(d, 1, "lb", "(J)I");
        if (d.exec == Op.LB) {
          mv.visitInsn(I2B);
          mv.visitInsn(I2L);
        } else {
          mv.visitInsn(I2L);
          BytecodeTranslator.lconst(mv, 0xffL);
          mv.visitInsn(LAND);
        }
        regs.put(d);
      }
      case LH, LHU -> {
        mark(i);
        memory.load(d, 2, "lh", "(J)I");
        mv.visitInsn(I2L);
        if (d.exec == Op.LHU) {
          BytecodeTranslator.lconst(mv, 0xffffL);
          mv.visitInsn(LAND);
        }
        regs.put(d);
      }
      case LW, LWU -> {
        mark(i);
        memory.load(d, 4, "lw", "(J)I");
        mv.visitInsn(I2L);
        if (d.exec == Op.LWU) {
          BytecodeTranslator.lconst(mv, 0xffffffffL);
          mv.visitInsn(LAND);
        }
        regs.put(d);
      }
      case LD -> {
        mark(i);
        memory.load(d, 8, "ld", "(J)J");
        regs.put(d);
      }
      case SB, SH, SW, SD -> {
        mark(i);
        regs.get(d.rs2);
        memory.store(
            d,
            switch (d.exec) {
              case SB -> 1;
              case SH -> 2;
              case SW -> 4;
              default -> 8;
            },
            d.exec.mnemonic());
      }
      case FLD -> {
        mark(i);
        memory.load(d, 8, "ld", "(J)J");
        regs.fput(d.rd);
      }
      case FLW -> {
        mark(i);
        memory.load(d, 4, "lw", "(J)I");
        boxS();
        regs.fput(d.rd);
      }
      case FSD, FSW -> {
        mark(i);
        regs.fget(d.rs2);
        memory.store(d, d.exec == Op.FSD ? 8 : 4, d.exec == Op.FSD ? "sd" : "sw");
      }
      case FENCE, ON_TRIG_INST, OFF_TRIG_INST -> {}
      default ->
          throw new IllegalArgumentException(
              "not translatable: " + d.exec.mnemonic()); // translatable() keeps these out
    }
    return false;
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
    compute(d, e);
    Label taken = new Label();
    mv.visitJumpInsn(IFNE, taken);
    exitConst(d.npc);
    mv.visitLabel(taken);
    exitConst(d.pc + d.imm);
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
    BytecodeTranslator.lconst(mv, pc);
    exitStack();
  }

  /** Leaves the block for the pc on the stack. */
  void exitStack() {
    mv.visitVarInsn(LSTORE, pcLocal);
    mv.visitJumpInsn(GOTO, done);
  }
}

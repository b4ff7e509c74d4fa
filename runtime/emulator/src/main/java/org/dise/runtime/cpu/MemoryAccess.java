package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.mem.Memory;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Memory access in a translated unit: the fast path of loads and stores indexes the memory's page
 * arrays (read at unit entry into two locals) and reads or writes the page inline ({@link
 * Memory#get64} and friends); every other case (an address above 4 GiB, a page not there or not
 * accessible, an access across the page end, a store into decoded code) either leaves the unit at
 * the instruction ({@link #exitTo}), for the interpreter to run it, or calls the {@link Memory}
 * method the interpreter uses, which faults or completes exactly as it does.
 *
 * <p>Leaving is the default for the guest's own instructions: a call on the slow path made C1 keep
 * the unit's values in stack slots across the fast path too (it spills around any call, and placed
 * the spills before the branch), while a jump out of the unit costs the fast path nothing. The slow
 * path runs once per page first touched, so leaving costs a dispatch there. A tagged instruction's
 * access, the code of a plan emitted inline and a unit under a block observer call instead: leaving
 * there would run the decode stage's part again or end an observed block early.
 */
final class MemoryAccess {
  private static final String MEM = "org/dise/runtime/mem/Memory";

  private final MethodVisitor mv;
  private final UnitRegisters regs;
  private final int memory;
  private final int scratch;
  private final int pages;

  /** Where the slow path jumps to leave the unit; null: it calls the Memory method. */
  private Label exit;

  /** Whether some access jumps to its exit. */
  private boolean exits;

  MemoryAccess(MethodVisitor mv, UnitRegisters regs, int memory, int scratch, int pages) {
    this.mv = mv;
    this.regs = regs;
    this.memory = memory;
    this.scratch = scratch;
    this.pages = pages;
  }

  /**
   * The accesses emitted from now on leave the unit at {@code exit} on their slow path (with the
   * instruction's index in its block in the fault index local, as for a fault), or, with null, call
   * the Memory method.
   */
  void exitTo(Label exit) {
    this.exit = exit;
  }

  /** Whether some access emitted so far leaves at its exit label (which then must be emitted). */
  boolean exits() {
    return exits;
  }

  // memory: the local holding the Memory; pages: the locals holding its readable and (at +1)
  // writable page arrays; scratch: six slots, the address (2), a stored value (2), the page and
  // the offset.

  /** At unit entry: the page arrays into their locals. */
  void enter() {
    mv.visitVarInsn(ALOAD, memory);
    mv.visitMethodInsn(INVOKEVIRTUAL, MEM, "readPages", "()[[B", false);
    mv.visitVarInsn(ASTORE, pages);
    mv.visitVarInsn(ALOAD, memory);
    mv.visitMethodInsn(INVOKEVIRTUAL, MEM, "writePages", "()[[B", false);
    mv.visitVarInsn(ASTORE, pages + 1);
  }

  /**
   * The memory fast path of a load of {@code size} bytes at {@code x[rs1] + imm}: the page array is
   * indexed inline and the bytes read from the page, as {@code mem.lX} would return them (an int
   * for 1-4 bytes, sign-extended, a long for 8); an address above 4 GiB, a page that is not
   * readable or not there yet, or an access across the page end calls {@code mem.lX}, which faults
   * or completes exactly as the interpreter's access.
   */
  void load(DecodedInsn d, int size, String slow, String slowDesc) {
    access(
        d,
        size,
        false,
        () -> {
          switch (size) {
            case 1 -> mv.visitInsn(BALOAD);
            case 2 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "get16", "([BI)I", false);
            case 4 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "get32", "([BI)I", false);
            default -> mv.visitMethodInsn(INVOKESTATIC, MEM, "get64", "([BI)J", false);
          }
        },
        slow,
        slowDesc);
  }

  /**
   * The fast path of a store of {@code size} bytes of the long on the stack: pages holding decoded
   * code are not in the writable array, so self-modifying code takes {@code mem.sX} (which raises
   * {@link Memory.CodeModified}), as do faults.
   */
  void store(DecodedInsn d, int size, String slow) {
    mv.visitVarInsn(LSTORE, scratch + 2);
    access(
        d,
        size,
        true,
        () -> {
          mv.visitVarInsn(LLOAD, scratch + 2);
          switch (size) {
            case 1 -> {
              mv.visitInsn(L2I);
              mv.visitInsn(BASTORE);
            }
            case 2 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "put16", "([BIJ)V", false);
            case 4 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "put32", "([BIJ)V", false);
            default -> mv.visitMethodInsn(INVOKESTATIC, MEM, "put64", "([BIJ)V", false);
          }
        },
        slow,
        "(JJ)V");
  }

  /**
   * A load or store (the value in scratch+2): the page and offset on the stack for {@code fast},
   * which completes the access; or the {@link Memory} method {@code slow} on the address (and the
   * value).
   */
  private void access(
      DecodedInsn d, int size, boolean store, Runnable fast, String slow, String slowDesc) {
    boolean leaves = exit != null;
    exits |= leaves;
    Label slowPath = leaves ? exit : new Label();
    pageOf(d, scratch, store ? pages + 1 : pages, size, slowPath);
    mv.visitVarInsn(ALOAD, scratch + 4);
    mv.visitVarInsn(ILOAD, scratch + 5);
    fast.run();
    if (leaves) {
      return; // the slow path is the unit's exit
    }
    Label done = new Label();
    mv.visitJumpInsn(GOTO, done);
    mv.visitLabel(slowPath);
    mv.visitVarInsn(ALOAD, memory);
    mv.visitVarInsn(LLOAD, scratch);
    if (store) {
      mv.visitVarInsn(LLOAD, scratch + 2);
    }
    mv.visitMethodInsn(INVOKEVIRTUAL, MEM, slow, slowDesc, false);
    mv.visitLabel(done);
  }

  /**
   * Computes the address into local {@code a}, then the page (scratch+4) and offset (scratch+5)
   * from the page array in local {@code array}, jumping to {@code slow} when the fast path does not
   * apply.
   */
  private void pageOf(DecodedInsn d, int a, int array, int size, Label slow) {
    regs.get(d.rs1);
    if (d.imm != 0) {
      BytecodeTranslator.lconst(mv, d.imm);
      mv.visitInsn(LADD);
    }
    mv.visitVarInsn(LSTORE, a);
    mv.visitVarInsn(LLOAD, a);
    BytecodeTranslator.iconst(mv, 32);
    mv.visitInsn(LUSHR);
    mv.visitInsn(LCONST_0);
    mv.visitInsn(LCMP);
    mv.visitJumpInsn(IFNE, slow);
    // Below 4 GiB, the address's low word holds its page: an int shift, whose count C1 takes as
    // an immediate (a long shift's count must be in rcx).
    mv.visitVarInsn(ALOAD, array);
    mv.visitVarInsn(LLOAD, a);
    mv.visitInsn(L2I);
    BytecodeTranslator.iconst(mv, Memory.PAGE_BITS);
    mv.visitInsn(IUSHR);
    mv.visitInsn(AALOAD);
    mv.visitInsn(DUP);
    mv.visitVarInsn(ASTORE, scratch + 4);
    mv.visitJumpInsn(IFNULL, slow);
    mv.visitVarInsn(LLOAD, a);
    mv.visitInsn(L2I);
    BytecodeTranslator.iconst(mv, (int) Memory.PAGE_MASK);
    mv.visitInsn(IAND);
    mv.visitVarInsn(ISTORE, scratch + 5);
    if (size > 1) {
      mv.visitVarInsn(ILOAD, scratch + 5);
      BytecodeTranslator.iconst(mv, Memory.PAGE_SIZE - size);
      mv.visitJumpInsn(IF_ICMPGT, slow);
    }
  }
}

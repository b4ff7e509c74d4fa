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
 * accessible, an access across the page end, a store into decoded code) calls the {@link Memory}
 * method the interpreter uses, which faults or completes exactly as it does.
 */
final class MemoryAccess {
  private static final String MEM = "org/dise/runtime/mem/Memory";

  private final MethodVisitor mv;
  private final UnitRegisters regs;

  /** The local holding the {@link Memory}. */
  private final int MEMORY;

  /** Locals holding the memory's readable and (at +1) writable page arrays. */
  private final int pages;

  /** Six slots of scratch: the address (2), a stored value (2), the page and the offset. */
  private final int scratch;

  MemoryAccess(MethodVisitor mv, UnitRegisters regs, int memory, int scratch, int pages) {
    this.mv = mv;
    this.regs = regs;
    this.MEMORY = memory;
    this.scratch = scratch;
    this.pages = pages;
  }

  /** At unit entry: the page arrays into their locals. */
  void enter() {
    mv.visitVarInsn(ALOAD, MEMORY);
    mv.visitMethodInsn(INVOKEVIRTUAL, MEM, "readPages", "()[[B", false);
    mv.visitVarInsn(ASTORE, pages);
    mv.visitVarInsn(ALOAD, MEMORY);
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
    int a = scratch;
    Label slowPath = new Label();
    Label done = new Label();
    pageOf(d, a, pages, size, slowPath);
    mv.visitVarInsn(ALOAD, scratch + 4);
    mv.visitVarInsn(ILOAD, scratch + 5);
    switch (size) {
      case 1 -> mv.visitInsn(BALOAD);
      case 2 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "get16", "([BI)I", false);
      case 4 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "get32", "([BI)I", false);
      default -> mv.visitMethodInsn(INVOKESTATIC, MEM, "get64", "([BI)J", false);
    }
    mv.visitJumpInsn(GOTO, done);
    mv.visitLabel(slowPath);
    mv.visitVarInsn(ALOAD, MEMORY);
    mv.visitVarInsn(LLOAD, a);
    memCall(slow, slowDesc);
    mv.visitLabel(done);
  }

  /**
   * The fast path of a store of {@code size} bytes of the long on the stack: pages holding decoded
   * code are not in the writable array, so self-modifying code takes {@code mem.sX} (which raises
   * {@link Memory.CodeModified}), as do faults.
   */
  void store(DecodedInsn d, int size, String slow) {
    int a = scratch;
    int v = scratch + 2;
    mv.visitVarInsn(LSTORE, v);
    Label slowPath = new Label();
    Label done = new Label();
    pageOf(d, a, pages + 1, size, slowPath);
    mv.visitVarInsn(ALOAD, scratch + 4);
    mv.visitVarInsn(ILOAD, scratch + 5);
    mv.visitVarInsn(LLOAD, v);
    switch (size) {
      case 1 -> {
        mv.visitInsn(L2I);
        mv.visitInsn(BASTORE);
      }
      case 2 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "put16", "([BIJ)V", false);
      case 4 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "put32", "([BIJ)V", false);
      default -> mv.visitMethodInsn(INVOKESTATIC, MEM, "put64", "([BIJ)V", false);
    }
    mv.visitJumpInsn(GOTO, done);
    mv.visitLabel(slowPath);
    mv.visitVarInsn(ALOAD, MEMORY);
    mv.visitVarInsn(LLOAD, a);
    mv.visitVarInsn(LLOAD, v);
    memCall(slow, "(JJ)V");
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
    mv.visitVarInsn(ALOAD, array);
    mv.visitVarInsn(LLOAD, a);
    BytecodeTranslator.iconst(mv, Memory.PAGE_BITS);
    mv.visitInsn(LUSHR);
    mv.visitInsn(L2I);
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

  private void memCall(String m, String desc) {
    mv.visitMethodInsn(INVOKEVIRTUAL, MEM, m, desc, false);
  }
}

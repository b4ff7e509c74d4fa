package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The exception ranges of a unit's fault handler: one around each instruction of the unit that can
 * throw a guest fault (a call, an {@code athrow}), rather than one range over the whole unit.
 *
 * <p>Why: C1 keeps every value its handler reads (the held registers, the instruction count, the
 * block and instruction index) in the handler's stack slots at every instruction inside a range,
 * and inside one range over the whole unit that is every array access (a bounds check may throw)
 * and every field read (a null check may). Covering only what can throw took 2-6% off motion, lz77,
 * chess and SQLite (docs/benchmarks.md, "Slow paths that leave the unit"). Those implicit checks
 * cannot fail in a unit (page numbers of a 32-bit address are below the page arrays' length, and
 * pages are null-checked); what can throw is a call (the memory slow path, a decode-stage or helper
 * call) or an {@code athrow}, so only those are covered. Calls that cannot throw a guest fault
 * (Unsafe's accessors, the page accessors, the java.lang arithmetic helpers, the interrupt test),
 * which C1 compiles inline, stay outside.
 */
final class FaultRanges extends MethodVisitor {
  private static final String MEM = "org/dise/runtime/mem/Memory";
  private static final String CTX = "org/dise/runtime/cpu/UnitContext";

  private final Label from;
  private final Label to;
  private final Label handler;
  private final List<Label> ranges = new ArrayList<>();
  private boolean inside;

  /**
   * Covers the throwing instructions between labels {@code from} and {@code to} with {@code
   * handler} (for {@code java/lang/RuntimeException}); the ranges are declared at {@link
   * #visitMaxs}, after any other handler of the method, which so take precedence.
   */
  FaultRanges(MethodVisitor mv, Label from, Label to, Label handler) {
    super(ASM9, mv);
    this.from = from;
    this.to = to;
    this.handler = handler;
  }

  @Override
  public void visitLabel(Label label) {
    super.visitLabel(label);
    if (label == from) {
      inside = true;
    } else if (label == to) {
      inside = false;
    }
  }

  @Override
  public void visitMethodInsn(int op, String owner, String name, String desc, boolean itf) {
    Runnable call = () -> super.visitMethodInsn(op, owner, name, desc, itf);
    if (!inside || cannotFault(owner, name)) {
      call.run();
    } else {
      covered(call);
    }
  }

  @Override
  public void visitInsn(int opcode) {
    if (!inside || opcode != ATHROW) {
      super.visitInsn(opcode);
    } else {
      covered(() -> super.visitInsn(opcode));
    }
  }

  /** Emits {@code insn} inside a range of its own, declared at {@link #visitMaxs}. */
  private void covered(Runnable insn) {
    Label start = new Label();
    Label end = new Label();
    super.visitLabel(start);
    insn.run();
    super.visitLabel(end);
    ranges.add(start);
    ranges.add(end);
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    for (int i = 0; i < ranges.size(); i += 2) {
      super.visitTryCatchBlock(
          ranges.get(i), ranges.get(i + 1), handler, "java/lang/RuntimeException");
    }
    super.visitMaxs(maxStack, maxLocals);
  }

  /** Calls that C1 compiles inline and that throw no guest fault. */
  static boolean cannotFault(String owner, String name) {
    return switch (owner) {
      case "sun/misc/Unsafe",
          "java/lang/Math",
          "java/lang/StrictMath",
          "java/lang/Long",
          "java/lang/Integer",
          "java/lang/Double",
          "java/lang/Float" ->
          true;
      case MEM ->
          switch (name) {
            case "get16", "get32", "get64", "put16", "put32", "put64" -> true;
            default -> false;
          };
      case CTX -> name.equals("interruptPending") || name.equals("vectorBit");
      default -> false;
    };
  }
}

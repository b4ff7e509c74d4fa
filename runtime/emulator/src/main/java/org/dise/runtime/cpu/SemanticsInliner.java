package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * Emits a {@link Semantics} method into translated code by copying its bytecode in place, with each
 * parameter load replaced by the code that produces that operand (a guest register's local, an
 * immediate as a constant, the Fpu). {@code add} thus becomes two loads and an {@code ladd},
 * exactly what a hand-written emitter would produce, while the definition stays in one place; the
 * JVM's own interpreter, which runs translated code until C1 compiles it, pays no call either. A
 * method whose shape this cannot copy (a parameter stored to, a switch, an exception handler) is
 * emitted as an {@code invokestatic}, which HotSpot inlines once it compiles the code.
 */
final class SemanticsInliner {
  private SemanticsInliner() {}

  private static final String OWNER = "org/dise/runtime/cpu/Semantics";

  /** Pushes one operand on the JVM stack. */
  interface Operand {
    void push();
  }

  /** A recorded method body, and whether it can be copied. */
  private record Body(
      String desc, List<Insn> insns, int[] paramOfSlot, int paramSlots, boolean copyable) {}

  private interface Insn {
    void replay(Replay r);
  }

  private static final Map<String, Body> BODIES = read();

  /** True when {@code name} has a body this class can copy (for tests). */
  static boolean copyable(String name) {
    Body b = BODIES.get(name);
    return b != null && b.copyable();
  }

  /**
   * Emits {@code Semantics.name(args)}: leaves its result (if any) on the stack. The method's own
   * locals beyond its parameters use {@code scratch} onwards (two slots each at most, four slots in
   * all are enough for every method in {@link Semantics}).
   */
  static void emit(MethodVisitor mv, String name, String desc, List<Operand> args, int scratch) {
    Body b = BODIES.get(name);
    if (b == null || !b.desc().equals(desc)) {
      throw new IllegalStateException("Semantics has no method " + name + desc);
    }
    if (!b.copyable()) {
      for (Operand a : args) {
        a.push();
      }
      mv.visitMethodInsn(INVOKESTATIC, OWNER, name, desc, false);
      return;
    }
    // An operand the body never reads still runs for its checks (the rounding mode).
    boolean[] read = new boolean[args.size()];
    for (Insn i : b.insns()) {
      if (i instanceof Var v && v.opcode >= ILOAD && v.opcode <= ALOAD && v.var < b.paramSlots()) {
        read[b.paramOfSlot()[v.var]] = true;
      }
    }
    for (int p = 0; p < args.size(); p++) {
      if (!read[p]) {
        Type t = Type.getArgumentTypes(desc)[p];
        if (t.getSort() == Type.INT) { // only the rounding mode has side effects worth keeping
          args.get(p).push();
          mv.visitInsn(t.getSize() == 2 ? POP2 : POP);
        }
      }
    }
    new Replay(mv, b, args, scratch).run();
  }

  /** Copies one body into {@code mv}. */
  private static final class Replay {
    final MethodVisitor mv;
    final Body body;
    final List<Operand> args;
    final int scratch;
    final Map<Label, Label> labels = new IdentityHashMap<>();
    final Label end = new Label();
    boolean jumpedToEnd;

    Replay(MethodVisitor mv, Body body, List<Operand> args, int scratch) {
      this.mv = mv;
      this.body = body;
      this.args = args;
      this.scratch = scratch;
    }

    Label label(Label l) {
      return labels.computeIfAbsent(l, k -> new Label());
    }

    void run() {
      List<Insn> insns = body.insns();
      for (int k = 0; k < insns.size(); k++) {
        Insn i = insns.get(k);
        if (i instanceof Simple s && s.opcode >= IRETURN && s.opcode <= RETURN) {
          if (!isLast(insns, k)) {
            mv.visitJumpInsn(GOTO, end);
            jumpedToEnd = true;
          }
          continue;
        }
        i.replay(this);
      }
      if (jumpedToEnd) {
        mv.visitLabel(end);
      }
    }

    /** True when only labels follow position {@code k}. */
    private static boolean isLast(List<Insn> insns, int k) {
      for (int j = k + 1; j < insns.size(); j++) {
        if (!(insns.get(j) instanceof LabelInsn)) {
          return false;
        }
      }
      return true;
    }
  }

  private record Simple(int opcode) implements Insn {
    public void replay(Replay r) {
      r.mv.visitInsn(opcode);
    }
  }

  private record Var(int opcode, int var) implements Insn {
    public void replay(Replay r) {
      if (var < r.body.paramSlots()) {
        r.args.get(r.body.paramOfSlot()[var]).push(); // loads only: stores make it uncopyable
      } else {
        r.mv.visitVarInsn(opcode, r.scratch + var - r.body.paramSlots());
      }
    }
  }

  private record IntInsn(int opcode, int operand) implements Insn {
    public void replay(Replay r) {
      r.mv.visitIntInsn(opcode, operand);
    }
  }

  private record Ldc(Object value) implements Insn {
    public void replay(Replay r) {
      r.mv.visitLdcInsn(value);
    }
  }

  private record Jump(int opcode, Label target) implements Insn {
    public void replay(Replay r) {
      r.mv.visitJumpInsn(opcode, r.label(target));
    }
  }

  private record LabelInsn(Label label) implements Insn {
    public void replay(Replay r) {
      r.mv.visitLabel(r.label(label));
    }
  }

  private record Call(int opcode, String owner, String name, String desc, boolean itf)
      implements Insn {
    public void replay(Replay r) {
      r.mv.visitMethodInsn(opcode, owner, name, desc, itf);
    }
  }

  private record Field(int opcode, String owner, String name, String desc) implements Insn {
    public void replay(Replay r) {
      r.mv.visitFieldInsn(opcode, owner, name, desc);
    }
  }

  private static Map<String, Body> read() {
    byte[] bytes;
    try (InputStream in = Semantics.class.getResourceAsStream("Semantics.class")) {
      if (in == null) {
        throw new IllegalStateException("Semantics.class is not on the class path");
      }
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, Body> bodies = new HashMap<>();
    new ClassReader(bytes)
        .accept(
            new ClassVisitor(ASM9) {
              @Override
              public MethodVisitor visitMethod(
                  int access, String name, String desc, String sig, String[] exceptions) {
                if ((access & ACC_STATIC) == 0 || (access & ACC_PUBLIC) == 0) {
                  return null;
                }
                return new Recorder(name, desc, bodies);
              }
            },
            ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return bodies;
  }

  /** Records a method's instructions; anything it cannot copy marks the body uncopyable. */
  private static final class Recorder extends MethodVisitor {
    private final String name;
    private final String desc;
    private final Map<String, Body> bodies;
    private final List<Insn> insns = new ArrayList<>();
    private final int[] paramOfSlot;
    private final int paramSlots;
    private boolean copyable = true;

    Recorder(String name, String desc, Map<String, Body> bodies) {
      super(ASM9);
      this.name = name;
      this.desc = desc;
      this.bodies = bodies;
      Type[] params = Type.getArgumentTypes(desc);
      int slots = 0;
      for (Type t : params) {
        slots += t.getSize();
      }
      paramSlots = slots;
      paramOfSlot = new int[slots];
      int s = 0;
      for (int p = 0; p < params.length; p++) {
        for (int k = 0; k < params[p].getSize(); k++) {
          paramOfSlot[s++] = p;
        }
      }
    }

    @Override
    public void visitInsn(int opcode) {
      insns.add(new Simple(opcode));
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      insns.add(new IntInsn(opcode, operand));
    }

    @Override
    public void visitVarInsn(int opcode, int var) {
      if (var < paramSlots && (opcode < ILOAD || opcode > ALOAD)) {
        copyable = false; // a parameter written to: its operand cannot be substituted
      }
      boolean wide = opcode == LLOAD || opcode == LSTORE || opcode == DLOAD || opcode == DSTORE;
      if (var >= paramSlots && var - paramSlots + (wide ? 2 : 1) > 4) {
        copyable = false; // more scratch than the translator reserves
      }
      insns.add(new Var(opcode, var));
    }

    @Override
    public void visitLdcInsn(Object value) {
      insns.add(new Ldc(value));
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
      if (opcode == JSR) {
        copyable = false;
      }
      insns.add(new Jump(opcode, label));
    }

    @Override
    public void visitLabel(Label label) {
      insns.add(new LabelInsn(label));
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String n, String d, boolean itf) {
      if (owner.equals(OWNER)) {
        copyable = false; // another Semantics method: the translated class calls it instead
      }
      insns.add(new Call(opcode, owner, n, d, itf));
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String n, String d) {
      insns.add(new Field(opcode, owner, n, d));
    }

    @Override
    public void visitIincInsn(int var, int increment) {
      copyable = false;
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      copyable = false;
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
      copyable = false;
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
      copyable = false;
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
      copyable = false;
    }

    @Override
    public void visitInvokeDynamicInsn(
        String n, String d, org.objectweb.asm.Handle bsm, Object... args) {
      copyable = false;
    }

    @Override
    public void visitMultiANewArrayInsn(String d, int dims) {
      copyable = false;
    }

    @Override
    public void visitEnd() {
      bodies.put(name, new Body(desc, List.copyOf(insns), paramOfSlot, paramSlots, copyable));
    }
  }
}

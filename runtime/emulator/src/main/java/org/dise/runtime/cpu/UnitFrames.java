package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.commons.AnalyzerAdapter;

/**
 * The frame model of a unit's method: writes its stack map frames as the emitters produce its code,
 * in one pass, instead of ASM's {@code COMPUTE_FRAMES} (a fixed point over the method's control
 * flow, 85% of generating a unit). The types of the locals and the stack follow the code ({@link
 * AnalyzerAdapter}); at a label, the frame is the meet of what every jump seen so far brings there
 * and what falls through. The emitters know the rest: the unit's state ({@link #declareState}: the
 * locals assigned before its try range, live everywhere after it), which handler frames hold, and
 * the labels where only that state is live ({@link #anchor}: the dispatch loop, a block's top, the
 * places out-of-line code comes back to), whose frames hold it alone so that any later jump back
 * there matches. Where the model cannot be sure (a backward jump to a label whose frame does not
 * match, stacks that disagree, a label no jump reaches after an unconditional one) it gives up:
 * {@link #failed}, and the unit is written again with ASM's frames ({@link #FALLBACKS}); from there
 * it only passes the code on (code whose types do not add up may throw from the type model: the
 * caller takes that as a failure too).
 */
final class UnitFrames extends MethodVisitor {
  /** Units written again with ASM's frames because the model gave up or the verifier refused. */
  static final AtomicLong FALLBACKS = new AtomicLong();

  private final AnalyzerAdapter types;

  /** The unit's state: the locals (as {@link AnalyzerAdapter#locals}), or null until declared. */
  private List<Object> state;

  /** Per label not yet placed: the states (locals, stack) jumps bring there. */
  private final Map<Label, List<Frame>> incoming = new IdentityHashMap<>();

  /** Per placed label: the frame written there (or null when none was: fall-through only). */
  private final Map<Label, Frame> placed = new IdentityHashMap<>();

  /** Handler labels and the exception type each catches. */
  private final Map<Label, String> handlers = new HashMap<>();

  /** Labels visited since the last instruction (all at one offset), and which are anchors. */
  private final List<Label> pending = new ArrayList<>();

  private boolean pendingAnchor;

  private boolean failed;

  /** Locals and stack, each expanded (a long or double followed by TOP). */
  private record Frame(List<Object> locals, List<Object> stack) {}

  /** Frames for method {@code name} of {@code owner}, written to {@code out}. */
  UnitFrames(String owner, int access, String name, String desc, MethodVisitor out) {
    super(ASM9, out);
    this.types = new AnalyzerAdapter(owner, access, name, desc, null);
  }

  /** True when the frames written may be wrong: the unit must be written with ASM's. */
  boolean failed() {
    return failed;
  }

  /**
   * The locals assigned so far are the unit's state: live from here on with these types, what
   * handler frames and {@link #anchor} frames hold.
   */
  void declareState() {
    state = types.locals == null ? null : new ArrayList<>(types.locals);
  }

  /** Places {@code label} where only the unit's state is live (its frame holds nothing else). */
  void anchor(Label label) {
    visitLabel(label);
    pendingAnchor = true;
  }

  /** {@link #anchor} when {@code mv} writes frames, else a plain label. */
  static void anchor(MethodVisitor mv, Label label) {
    if (mv instanceof UnitFrames f) {
      f.anchor(label);
    } else {
      mv.visitLabel(label);
    }
  }

  /** How units get their frames ({@code -Dacf.unitFrames}). */
  enum Mode {
    /** Written by this model as the code is emitted (ASM's where it gives up). */
    EMITTED,
    /** Computed by ASM ({@code COMPUTE_FRAMES}). */
    ASM,
    /** None: a Java 6 class file, verified by inference. */
    NONE;

    static Mode of(String value) {
      return switch (value) {
        case "emitted" -> EMITTED;
        case "asm" -> ASM;
        case "false" -> NONE;
        default -> throw new IllegalArgumentException("-Dacf.unitFrames=" + value);
      };
    }
  }

  @Override
  public void visitLabel(Label label) {
    super.visitLabel(label);
    types.visitLabel(label);
    pending.add(label);
  }

  @Override
  public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
    handlers.put(handler, type == null ? "java/lang/Throwable" : type);
    super.visitTryCatchBlock(start, end, handler, type);
  }

  /**
   * An instruction to the type model, while it holds (not {@link #failed}), and to the class
   * writer: after {@link #flush} and, for a jump, {@link #jump}.
   */
  private void passOn(Consumer<MethodVisitor> insn) {
    if (!failed) {
      insn.accept(types);
    }
    insn.accept(mv);
  }

  /** Before an instruction: the frame of the labels just visited, when one is needed. */
  private void flush() {
    if (pending.isEmpty() || failed) {
      pending.clear();
      return;
    }
    Frame frame = frameHere();
    if (frame != null && !failed) {
      Object[] locals = compact(frame.locals).toArray();
      Object[] stack = compact(frame.stack).toArray();
      super.visitFrame(F_NEW, locals.length, locals, stack.length, stack);
      types.visitFrame(F_NEW, locals.length, locals, stack.length, stack);
    }
    for (Label l : pending) {
      placed.put(l, frame);
      incoming.remove(l);
    }
    pending.clear();
    pendingAnchor = false;
  }

  /** The frame at the pending labels, or null when they need none (only fall-through). */
  private Frame frameHere() {
    String handler = null;
    List<Frame> in = new ArrayList<>();
    for (Label l : pending) {
      handler = handler == null ? handlers.get(l) : handler;
      in.addAll(incoming.getOrDefault(l, List.of()));
    }
    boolean fallsThrough = types.locals != null;
    if (handler != null) {
      if (state == null || fallsThrough || !in.isEmpty()) {
        failed = true; // a handler is reached by exceptions alone
        return new Frame(new ArrayList<>(), List.of(handler));
      }
      return new Frame(state, List.of(handler));
    }
    if (fallsThrough) {
      in.add(current());
    }
    if (in.isEmpty()) {
      // After an unconditional transfer and reached by no jump so far: only a backward jump
      // can reach it, so it holds the unit's state and an empty stack.
      if (!pendingAnchor || state == null) {
        failed = true;
        return state == null
            ? new Frame(new ArrayList<>(), List.of())
            : new Frame(state, List.of());
      }
      return new Frame(state, List.of());
    }
    if (!pendingAnchor && in.size() == 1 && fallsThrough) {
      return null; // nothing jumps here (yet): no frame, and no later jump may come back
    }
    Frame meet = in.get(0);
    for (int i = 1; i < in.size(); i++) {
      meet = meet(meet, in.get(i));
    }
    if (pendingAnchor) {
      if (state == null) {
        failed = true;
        return meet;
      }
      meet = new Frame(meetLocals(meet.locals, state), meet.stack);
    }
    return meet;
  }

  private Frame current() {
    return new Frame(new ArrayList<>(types.locals), new ArrayList<>(types.stack));
  }

  private Frame meet(Frame a, Frame b) {
    if (!a.stack.equals(b.stack)) {
      failed = true; // the emitters never join different stacks
    }
    return new Frame(meetLocals(a.locals, b.locals), a.stack);
  }

  /** Slot by slot: the type both agree on, else TOP (dead from here). */
  private static List<Object> meetLocals(List<Object> a, List<Object> b) {
    int n = Math.min(a.size(), b.size());
    List<Object> m = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Object t = a.get(i);
      m.add(t.equals(b.get(i)) ? t : TOP);
    }
    // A long or double whose second half was dropped is dropped whole.
    for (int i = 0; i < n; i++) {
      Object t = m.get(i);
      if ((t == LONG || t == DOUBLE) && (i + 1 >= n || m.get(i + 1) != TOP)) {
        m.set(i, TOP);
      }
    }
    // Trailing TOPs go, but not the second half of a long or double.
    while (!m.isEmpty() && m.get(m.size() - 1) == TOP && !wide(m, m.size() - 2)) {
      m.remove(m.size() - 1);
    }
    return m;
  }

  /** Whether entry {@code i} of {@code types} is a long or a double (false out of range). */
  private static boolean wide(List<Object> types, int i) {
    return i >= 0 && (types.get(i) == LONG || types.get(i) == DOUBLE);
  }

  /** The frame's types as visitFrame takes them: a long or double is one entry. */
  private static List<Object> compact(List<Object> expanded) {
    List<Object> c = new ArrayList<>(expanded.size());
    for (int i = 0; i < expanded.size(); i++) {
      Object t = expanded.get(i);
      c.add(t);
      if (t == LONG || t == DOUBLE) {
        i++;
      }
    }
    return c;
  }

  /** A jump to {@code target} from here, with {@code pops} values taken off the stack first. */
  private void jump(Label target, int pops) {
    if (failed) {
      return;
    }
    if (types.locals == null) {
      failed = true; // unreachable code: not the emitters'
      return;
    }
    List<Object> stack = new ArrayList<>(types.stack);
    for (int i = 0; i < pops; i++) {
      stack.remove(stack.size() - 1);
    }
    Frame here = new Frame(new ArrayList<>(types.locals), stack);
    if (placed.containsKey(target)) {
      Frame there = placed.get(target);
      if (there == null || !fits(here, there)) {
        failed = true;
      }
      return;
    }
    incoming.computeIfAbsent(target, k -> new ArrayList<>()).add(here);
  }

  /** Whether a jump's state matches the frame at a placed label. */
  private static boolean fits(Frame here, Frame there) {
    if (!here.stack.equals(there.stack) || here.locals.size() < there.locals.size()) {
      return false;
    }
    for (int i = 0; i < there.locals.size(); i++) {
      Object t = there.locals.get(i);
      if (t != TOP && !t.equals(here.locals.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void visitJumpInsn(int opcode, Label label) {
    flush();
    int pops =
        switch (opcode) {
          case GOTO -> 0;
          case IF_ICMPEQ,
              IF_ICMPNE,
              IF_ICMPLT,
              IF_ICMPGE,
              IF_ICMPGT,
              IF_ICMPLE,
              IF_ACMPEQ,
              IF_ACMPNE ->
              2;
          default -> 1;
        };
    if (opcode == JSR) {
      failed = true;
    }
    jump(label, pops);
    passOn(v -> v.visitJumpInsn(opcode, label));
  }

  @Override
  public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
    flush();
    jump(dflt, 1);
    for (Label l : labels) {
      jump(l, 1);
    }
    passOn(v -> v.visitTableSwitchInsn(min, max, dflt, labels));
  }

  @Override
  public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
    flush();
    jump(dflt, 1);
    for (Label l : labels) {
      jump(l, 1);
    }
    passOn(v -> v.visitLookupSwitchInsn(dflt, keys, labels));
  }

  @Override
  public void visitInsn(int opcode) {
    flush();
    passOn(v -> v.visitInsn(opcode));
  }

  @Override
  public void visitIntInsn(int opcode, int operand) {
    flush();
    passOn(v -> v.visitIntInsn(opcode, operand));
  }

  @Override
  public void visitVarInsn(int opcode, int var) {
    flush();
    passOn(v -> v.visitVarInsn(opcode, var));
  }

  @Override
  public void visitTypeInsn(int opcode, String type) {
    flush();
    passOn(v -> v.visitTypeInsn(opcode, type));
  }

  @Override
  public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
    flush();
    passOn(v -> v.visitFieldInsn(opcode, owner, name, descriptor));
  }

  @Override
  public void visitMethodInsn(
      int opcode, String owner, String name, String descriptor, boolean isInterface) {
    flush();
    passOn(v -> v.visitMethodInsn(opcode, owner, name, descriptor, isInterface));
  }

  @Override
  public void visitInvokeDynamicInsn(String name, String desc, Handle bsm, Object... bsmArgs) {
    flush();
    passOn(v -> v.visitInvokeDynamicInsn(name, desc, bsm, bsmArgs));
  }

  @Override
  public void visitLdcInsn(Object value) {
    flush();
    passOn(v -> v.visitLdcInsn(value));
  }

  @Override
  public void visitIincInsn(int var, int increment) {
    flush();
    passOn(v -> v.visitIincInsn(var, increment));
  }

  @Override
  public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
    flush();
    passOn(v -> v.visitMultiANewArrayInsn(descriptor, numDimensions));
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    if (!incoming.isEmpty()) {
      failed = true; // a jump to a label never placed, or placed at the method's end
    }
    pending.clear();
    super.visitMaxs(maxStack, maxLocals);
  }
}

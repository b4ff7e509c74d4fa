package org.dise.runtime.dise;

import static org.objectweb.asm.Opcodes.*;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.PrologueEmitter;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.Sink;
import org.dise.runtime.sink.SiteCounter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * A tagged instruction's prologue ({@link DiseEngine#before}) as bytecode inside the translated
 * unit: per group of flag vectors that share one plan, a mask test on the unit's flag vector, the
 * group's counter micro-ops as calls on {@link HpsCounters}, and each sink call as one direct
 * invocation of the sink's {@code record} with its arguments read from the unit's registers, with
 * the same cost accounting as the interpreted engine (spec/emulator.md, "Prologues emitted as
 * bytecode").
 */
final class InlinePrologue implements PrologueEmitter {
  // Internal names and Sink.record's descriptor, shared with InlineReplacement and SiteCall: taken
  // from the classes, so that a rename is a compile error, and naming no emulator method.
  static final String ENGINE = Type.getInternalName(DiseEngine.class);
  private static final String HPS = Type.getInternalName(HpsCounters.class);
  static final String SINK = Type.getInternalName(Sink.class);
  static final String RECORD = descriptor(Sink.class, "record");

  /** The JVM descriptor of the one method {@code name} of {@code owner}. */
  static String descriptor(Class<?> owner, String name) {
    for (java.lang.reflect.Method m : owner.getMethods()) {
      if (m.getName().equals(name)) {
        return Type.getMethodDescriptor(m);
      }
    }
    throw new IllegalStateException(owner.getName() + " has no method " + name);
  }

  /** At most this many distinct plans per instruction are emitted; more call the engine. */
  static final int MAX_GROUPS = 4;

  /** The flag vectors (one bit each) under which {@code plan} applies. */
  record Group(long vectors, DiseEngine.Plan plan) {}

  private final List<Group> groups;
  private final DiseEngine engine;
  private final DecodedInsn d;

  InlinePrologue(DiseEngine engine, DecodedInsn d, List<Group> groups) {
    this.engine = engine;
    this.d = d;
    this.groups = groups;
  }

  /**
   * The emitter for {@code d} under {@code engine} (whose {@link DiseEngine#splitsOriginal} holds
   * for it), or null when its plans are too many to emit.
   */
  static InlinePrologue of(DiseEngine engine, DecodedInsn d, StaticMatch m) {
    List<Group> groups = groups(engine, d, m);
    return groups == null ? null : new InlinePrologue(engine, d, groups);
  }

  /**
   * The plans of {@code d} with an effect, grouped by the flag vectors that share one, or null when
   * they are more than {@link #MAX_GROUPS}.
   */
  static List<Group> groups(DiseEngine engine, DecodedInsn d, StaticMatch m) {
    Map<List<Object>, long[]> byPlan = new LinkedHashMap<>();
    Map<List<Object>, DiseEngine.Plan> plans = new LinkedHashMap<>();
    for (int v = 0; v < 64; v++) {
      if ((d.diseMask >>> v & 1) == 0) {
        continue;
      }
      DiseEngine.Plan p = engine.plan(m, v);
      if (p.ops.length == 0 && p.sequences.length == 0) {
        continue; // nothing matches with an effect: the instruction runs alone
      }
      // Sequences are the StaticMatch's own arrays: equal plans hold the same ones.
      List<Object> key = List.of(Arrays.asList(p.ops), Arrays.asList((Object[]) p.sequences));
      byPlan.computeIfAbsent(key, k -> new long[1])[0] |= 1L << v;
      plans.putIfAbsent(key, p);
    }
    if (byPlan.size() > MAX_GROUPS) {
      return null;
    }
    List<Group> groups = new ArrayList<>();
    byPlan.forEach((k, mask) -> groups.add(new Group(mask[0], plans.get(k))));
    return groups;
  }

  /** What the sinks called read of the registers (the arguments come from the unit's locals). */
  @Override
  public long registersRead() {
    long r = 0;
    for (Group g : groups) {
      for (Step[] s : g.plan.sequences) {
        for (int i = 0; i < s.length - 1; i++) {
          int sink = ((Step.Call) s[i]).sink;
          if (engine.siteFor(sink, d) == null) { // a per-site counter reads the unit's locals
            r |= engine.sinkAt(sink).registersRead(d);
          }
        }
      }
    }
    return r;
  }

  @Override
  public void emit(Unit u) {
    MethodVisitor mv = u.mv();
    Label end = new Label();
    for (Group g : groups) {
      Label next = new Label();
      if (groups.size() > 1 || g.vectors != d.diseMask) {
        u.loadVector();
        mv.visitLdcInsn(g.vectors);
        mv.visitInsn(LAND);
        mv.visitInsn(LCONST_0);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFEQ, next);
      }
      for (MicroOp op : g.plan.ops) {
        microOp(u, engine, op);
      }
      if (g.plan.sequences.length > 0) {
        engine(u, engine);
        mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "replaced", "()V", false);
        for (Step[] s : g.plan.sequences) {
          for (int i = 0; i < s.length - 1; i++) { // the last step is T.INSN, the unit's part
            call(u, (Step.Call) s[i]);
          }
        }
      }
      mv.visitJumpInsn(GOTO, end);
      mv.visitLabel(next);
    }
    mv.visitLabel(end);
  }

  /**
   * Pushes the engine, a constant of the unit (units are translated under one decode stage and
   * dropped when another is installed).
   */
  static void engine(Unit u, DiseEngine engine) {
    u.loadConstant(engine, "L" + ENGINE + ";");
  }

  static void microOp(Unit u, DiseEngine engine, MicroOp op) {
    MethodVisitor mv = u.mv();
    engine(u, engine);
    mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "hps", "()L" + HPS + ";", false);
    u.pushInt(op.counter());
    switch (op.kind()) {
      case INC -> mv.visitMethodInsn(INVOKEVIRTUAL, HPS, "inc", "(I)V", false);
      case DEC -> mv.visitMethodInsn(INVOKEVIRTUAL, HPS, "dec", "(I)V", false);
      case SET -> {
        if (op.fromRegister()) {
          engine(u, engine);
          mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "hps", "()L" + HPS + ";", false);
          u.pushInt((int) op.source());
          mv.visitMethodInsn(INVOKEVIRTUAL, HPS, "register", "(I)J", false);
        } else {
          mv.visitLdcInsn(op.source());
        }
        mv.visitMethodInsn(INVOKEVIRTUAL, HPS, "set", "(IJ)V", false);
      }
    }
  }

  /**
   * {@code call(sink, args...)}: the arguments into the call's own array (as {@link DiseEngine}
   * fills it), the sink's {@code record} invoked directly on its class where the unit can name it,
   * then the engine's accounts, in the interpreted engine's order.
   */
  void call(Unit u, Step.Call c) {
    SiteCounter site = engine.siteFor(c.sink, d);
    if (site != null) {
      SiteCall.emit(u, engine, d, c.sink, site);
      return;
    }
    MethodVisitor mv = u.mv();
    Sink sink = engine.sinkAt(c.sink);
    String owner = directOwner(sink);
    engine(u, engine);
    u.pushInt(c.sink);
    mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "sinkAt", "(I)L" + SINK + ";", false);
    if (owner != null) {
      mv.visitTypeInsn(CHECKCAST, owner);
    }
    u.loadCpu();
    u.loadInsn();
    engine(u, engine);
    u.pushInt(engine.argsIndex(c));
    mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "callArgs", "(I)[J", false);
    for (int a = 0; a < c.reg.length; a++) {
      mv.visitInsn(DUP);
      u.pushInt(a);
      int reg = c.reg[a];
      if (reg < 0) {
        mv.visitLdcInsn(c.constants[a]);
      } else if (reg == Step.Call.NEXT) {
        mv.visitLdcInsn(d.npc); // the prologue runs before T.INSN: next is the fall-through
      } else if (reg == Step.Call.TID) {
        threadId(u);
      } else if (reg >= Step.Call.FREG_BASE) {
        u.loadF(reg - Step.Call.FREG_BASE);
      } else {
        u.loadX(reg);
      }
      mv.visitInsn(LASTORE);
    }
    engine(u, engine);
    mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "callStart", "()J", false);
    if (owner != null) {
      mv.visitMethodInsn(INVOKEVIRTUAL, owner, "record", RECORD, false);
    } else {
      mv.visitMethodInsn(INVOKEINTERFACE, SINK, "record", RECORD, true);
    }
    engine(u, engine);
    u.pushInt(c.sink);
    mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "called", "(I)V", false);
  }

  /** Pushes {@code T.TID}, the running guest thread's id, as a long (read when the call runs). */
  static void threadId(PrologueEmitter.Unit u) {
    u.loadCpu();
    u.mv().visitMethodInsn(INVOKEVIRTUAL, "org/dise/runtime/cpu/Cpu", "threadId", "()I", false);
    u.mv().visitInsn(I2L);
  }

  /**
   * The internal name of the sink's class when translated code can invoke it directly (a public
   * class the emulator's class loader resolves to the same class), else null (an interface call).
   */
  static String directOwner(Sink sink) {
    Class<?> c = sink.getClass();
    for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
      if (!Modifier.isPublic(k.getModifiers()) || k.isHidden() || k.isAnonymousClass()) {
        return null;
      }
    }
    try {
      if (Class.forName(c.getName(), false, Cpu.class.getClassLoader()) != c) {
        return null;
      }
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
    return c.getName().replace('.', '/');
  }
}

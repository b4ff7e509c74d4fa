package org.dise.runtime.dise;

import static org.objectweb.asm.Opcodes.*;

import java.util.List;
import org.dise.runtime.cpu.ReplacementEmitter;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.Operand;
import org.dise.runtime.isa.SemanticsTable;
import org.dise.runtime.sink.ReturningSink;
import org.dise.runtime.sink.Sink;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * A tagged instruction's whole replacement ({@link DiseEngine#execute}) as bytecode inside the
 * translated unit, for the sequences that are more than a prologue of calls: inserted instructions
 * (integer computations, and branches and jumps to the sequence's own labels) run on the unit's
 * registers as its own code, {@code $drN = call(...)} invokes the returning sink and writes the
 * result, and calls and instructions after {@code T.INSN} follow the instruction run inline. Per
 * group of flag vectors sharing a plan, as {@link InlinePrologue}; the same accounts as the
 * interpreted engine, in its order (spec/emulator.md, "Replacements emitted as bytecode").
 */
final class InlineReplacement implements ReplacementEmitter {
  private static final String ENGINE = InlinePrologue.ENGINE;
  private static final String SINK = InlinePrologue.SINK;
  private static final String RETURNING = Type.getInternalName(ReturningSink.class);
  private static final String RECORD =
      InlinePrologue.descriptor(ReturningSink.class, "recordReturning");
  private static final String RECORD_VOID = InlinePrologue.RECORD;

  private final DiseEngine engine;
  private final DecodedInsn d;
  private final List<InlinePrologue.Group> groups;
  private final InlinePrologue calls;
  private final long read;
  private final long written;
  private final boolean after;

  private InlineReplacement(
      DiseEngine engine,
      DecodedInsn d,
      List<InlinePrologue.Group> groups,
      long read,
      long written,
      boolean after) {
    this.engine = engine;
    this.d = d;
    this.groups = groups;
    this.calls = new InlinePrologue(engine, d, groups);
    this.read = read;
    this.written = written;
    this.after = after;
  }

  /**
   * The emitter for {@code d} under {@code engine}, or null when one of its replacements has what
   * only the engine runs: a tag, no {@code T.INSN}, an inserted instruction that touches memory,
   * floating-point state or the system, or leaves the sequence (or jumps across {@code T.INSN}), or
   * more plans than {@link InlinePrologue#MAX_GROUPS}.
   */
  static InlineReplacement of(DiseEngine engine, DecodedInsn d, StaticMatch m) {
    if (m.tags) {
      return null;
    }
    List<InlinePrologue.Group> groups = InlinePrologue.groups(engine, d, m);
    if (groups == null) {
      return null;
    }
    long read = 0;
    long written = 0;
    boolean after = false;
    for (InlinePrologue.Group g : groups) {
      for (Step[] s : g.plan().sequences) {
        int o = original(s);
        if (o < 0) {
          return null;
        }
        for (int i = 0; i < s.length; i++) {
          after |= i > o;
          if (s[i] instanceof Step.Exec e) {
            if (!inline(e, i < o ? 0 : o + 1, i < o ? o : s.length)) {
              return null;
            }
            for (Operand src : SemanticsTable.of(e.insn.exec).sources()) {
              read |=
                  src == Operand.RS1 ? bit(e.insn.rs1) : src == Operand.RS2 ? bit(e.insn.rs2) : 0;
            }
            if (e.target < 0) {
              written |= bit(e.insn.rd);
            }
          } else if (s[i] instanceof Step.Call c) {
            for (int r : c.reg) {
              read |= r >= 0 && r < Step.Call.FREG_BASE ? bit(r) : 0;
            }
            written |= c.result >= 0 ? bit(c.result) : 0;
          }
        }
      }
    }
    return new InlineReplacement(engine, d, groups, read, written, after);
  }

  /** The index of T.INSN in {@code s}, or -1 when it has none or more than one. */
  private static int original(Step[] s) {
    int o = -1;
    for (int i = 0; i < s.length; i++) {
      if (s[i] instanceof Step.Original) {
        if (o >= 0) {
          return -1;
        }
        o = i;
      }
    }
    return o;
  }

  /**
   * Whether inserted instruction {@code e}, in the part of its sequence from step {@code from} to
   * {@code to} (T.INSN or the end), runs inline: an integer computation that cannot fault, or a
   * branch or plain jump to a label of the same part.
   */
  private static boolean inline(Step.Exec e, int from, int to) {
    SemanticsTable.Entry t;
    try {
      t = SemanticsTable.of(e.insn.exec);
    } catch (IllegalArgumentException x) {
      return false;
    }
    if (e.target < 0) {
      return t.kind() == SemanticsTable.Kind.VALUE
          && t.dest() == Operand.RD
          && !t.fpu()
          && !t.rm()
          && t.sources().stream()
              .noneMatch(s -> s == Operand.FRS1 || s == Operand.FRS2 || s == Operand.FRS3);
    }
    boolean jump =
        e.insn.exec.base() == Op.JAL && (e.insn.rd == 0 || e.insn.rd == DecodedInsn.X0_SINK);
    return (t.kind() == SemanticsTable.Kind.BRANCH || jump) && e.target >= from && e.target <= to;
  }

  private static long bit(int reg) {
    return reg > 0 && reg != DecodedInsn.X0_SINK && reg < 64 ? 1L << reg : 0;
  }

  @Override
  public long registersRead() {
    return read;
  }

  @Override
  public long registersWritten() {
    return written;
  }

  @Override
  public boolean runsAfterOriginal() {
    return after;
  }

  @Override
  public void emit(Unit u) {
    MethodVisitor mv = u.mv();
    Label end = new Label();
    for (InlinePrologue.Group g : groups) {
      Label next = new Label();
      if (groups.size() > 1 || g.vectors() != d.diseMask) {
        u.loadVector();
        mv.visitLdcInsn(g.vectors());
        mv.visitInsn(LAND);
        mv.visitInsn(LCONST_0);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFEQ, next);
      }
      for (MicroOp op : g.plan().ops) {
        InlinePrologue.microOp(u, engine, op);
      }
      Step[][] seqs = g.plan().sequences;
      if (seqs.length > 0) {
        InlinePrologue.engine(u, engine);
        mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "replaced", "()V", false);
      }
      // Several ACFs' sequences: the parts before T.INSN in ACF order, T.INSN once, the parts
      // after.
      for (Step[] s : seqs) {
        part(u, s, 0, original(s), false);
      }
      u.original();
      for (Step[] s : seqs) {
        part(u, s, original(s) + 1, s.length, true);
      }
      mv.visitJumpInsn(GOTO, end);
      mv.visitLabel(next);
    }
    u.original(); // a flag vector under which nothing matches with an effect
    mv.visitLabel(end);
  }

  /**
   * Steps {@code [from, to)} of {@code s}, after {@code T.INSN} or before it; a branch to step
   * {@code to} ends the part.
   */
  private void part(Unit u, Step[] s, int from, int to, boolean after) {
    MethodVisitor mv = u.mv();
    Label[] at = new Label[to - from + 1];
    for (int i = 0; i < at.length; i++) {
      at[i] = new Label();
    }
    for (int i = from; i < to; i++) {
      mv.visitLabel(at[i - from]);
      if (s[i] instanceof Step.Exec e) {
        if (e.target < 0) {
          u.value(e.insn);
          retire(u);
        } else if (SemanticsTable.of(e.insn.exec).kind() == SemanticsTable.Kind.BRANCH) {
          u.condition(e.insn);
          retire(u); // taken or not, it retired
          mv.visitJumpInsn(IFNE, at[e.target - from]);
        } else {
          retire(u);
          mv.visitJumpInsn(GOTO, at[e.target - from]);
        }
      } else if (s[i] instanceof Step.Call c) {
        Sink sink = engine.sinkAt(c.sink);
        u.store(sink.registersRead(d)); // what the sink reads of x[] itself
        if (c.result < 0 && !(after && next(c))) {
          calls.call(u, c); // as in a prologue: T.NEXT_PC, if passed, is the fall-through
        } else {
          direct(u, c, after);
        }
      }
    }
    mv.visitLabel(at[to - from]);
  }

  /** An inserted instruction retired: the unit's count, the cpu's and the engine's. */
  private void retire(Unit u) {
    u.retire();
    InlinePrologue.engine(u, engine);
    u.mv().visitMethodInsn(INVOKEVIRTUAL, ENGINE, "insertedOne", "()V", false);
  }

  /** Whether {@code c} passes {@code T.NEXT_PC}. */
  private static boolean next(Step.Call c) {
    for (int r : c.reg) {
      if (r == Step.Call.NEXT) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code $drN = call(sink, args...)}: the accounts first (as {@link EngineState#callReturning}),
   * then the sink's {@code recordReturning}, its result into the register; or a call after {@code
   * T.INSN} that passes {@code T.NEXT_PC} (read from the unit: a transfer's target), recorded and
   * charged as {@link EngineState#call} does.
   */
  private void direct(Unit u, Step.Call c, boolean after) {
    MethodVisitor mv = u.mv();
    boolean returns = c.result >= 0;
    String owner = InlinePrologue.directOwner(engine.sinkAt(c.sink));
    InlinePrologue.engine(u, engine);
    u.pushInt(c.sink);
    mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "sinkAt", "(I)L" + SINK + ";", false);
    mv.visitTypeInsn(CHECKCAST, owner != null ? owner : returns ? RETURNING : SINK);
    u.loadCpu();
    u.loadInsn();
    InlinePrologue.engine(u, engine);
    u.pushInt(engine.argsIndex(c));
    mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "callArgs", "(I)[J", false);
    for (int a = 0; a < c.reg.length; a++) {
      mv.visitInsn(DUP);
      u.pushInt(a);
      int reg = c.reg[a];
      if (reg < 0) {
        mv.visitLdcInsn(c.constants[a]);
      } else if (reg == Step.Call.NEXT && after) {
        u.loadNext();
      } else if (reg == Step.Call.NEXT) {
        mv.visitLdcInsn(d.npc); // before T.INSN: the fall-through
      } else if (reg == Step.Call.TID) {
        InlinePrologue.threadId(u);
      } else if (reg >= Step.Call.FREG_BASE) {
        u.loadF(reg - Step.Call.FREG_BASE);
      } else {
        u.loadX(reg);
      }
      mv.visitInsn(LASTORE);
    }
    InlinePrologue.engine(u, engine);
    if (!returns) {
      mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "callStart", "()J", false);
      if (owner != null) {
        mv.visitMethodInsn(INVOKEVIRTUAL, owner, "record", RECORD_VOID, false);
      } else {
        mv.visitMethodInsn(INVOKEINTERFACE, SINK, "record", RECORD_VOID, true);
      }
      InlinePrologue.engine(u, engine);
      u.pushInt(c.sink);
      mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "called", "(I)V", false);
      return;
    }
    u.pushInt(c.sink);
    mv.visitMethodInsn(INVOKEVIRTUAL, ENGINE, "callReturningStart", "(I)J", false);
    if (owner != null) {
      mv.visitMethodInsn(INVOKEVIRTUAL, owner, "recordReturning", RECORD, false);
    } else {
      mv.visitMethodInsn(INVOKEINTERFACE, RETURNING, "recordReturning", RECORD, true);
    }
    u.storeX(c.result);
  }
}

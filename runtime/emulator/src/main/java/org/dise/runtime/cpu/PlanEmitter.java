package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Optional;
import org.dise.runtime.cpu.plan.Accounts;
import org.dise.runtime.cpu.plan.Counters;
import org.dise.runtime.cpu.plan.Handler;
import org.dise.runtime.cpu.plan.Plan;
import org.dise.runtime.cpu.plan.PlanOp;
import org.dise.runtime.cpu.plan.ReturningHandler;
import org.dise.runtime.cpu.plan.SiteCounter;
import org.dise.runtime.cpu.plan.SiteSlot;
import org.dise.runtime.cpu.plan.Tally;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.Operand;
import org.dise.runtime.isa.SemanticsTable;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * A decode stage's {@link Plan} for one tagged instruction as bytecode inside the translated unit
 * that holds it (issue 14: counter micro-ops and sink calls inlined in the translation, as QEMU's
 * TCG plugins inline theirs): per case a mask test on the unit's flag vector, counter ops and
 * accounts as direct calls on the plan's handles, sink calls with their arguments read from the
 * unit's registers, per-site counters added to in place, inserted instructions as the unit's own
 * code and {@code T.INSN} where the plan puts it. The handles are constants of the unit; each is
 * called on its own class where the unit can name it (so that C1 binds the call statically), else
 * through its interface. The stage writes no bytecode (spec/emulator.md, "Plans").
 */
final class PlanEmitter {
  private static final String ACCOUNTS = Type.getInternalName(Accounts.class);
  private static final String COUNTERS = Type.getInternalName(Counters.class);
  private static final String HANDLER = Type.getInternalName(Handler.class);
  private static final String RETURNING = Type.getInternalName(ReturningHandler.class);
  private static final String SITE = Type.getInternalName(SiteCounter.class);
  private static final String SLOT = Type.getInternalName(SiteSlot.class);
  private static final String MARK = Type.getInternalName(SiteCounter.Mark.class);
  private static final String TALLY = Type.getInternalName(Tally.class);
  private static final String CPU = Type.getInternalName(Cpu.class);

  /** The unit as the emitted plan sees it, at its tagged instruction. */
  interface Unit {
    /** Pushes the {@link Cpu}. */
    void loadCpu();

    /** Pushes the tagged instruction's {@link DecodedInsn}. */
    void loadInsn();

    /** Pushes the flag vector as a one-bit mask (a long), as it was before the plan. */
    void loadVector();

    /**
     * The unit's registers, which the plan's code loads and stores as the unit's own code does (x
     * registers held in locals, DISE registers included; the written ones stored to {@code x[]} for
     * a handler).
     */
    UnitRegisters registers();

    /**
     * Pushes {@code value}, held by the unit for as long as it lives, as a constant cast to {@code
     * internalName} (resolved once, then as cheap as a literal).
     */
    void loadConstant(Object value, String internalName);

    /** Runs inserted integer computation {@code e} on the unit's registers. */
    void value(DecodedInsn e);

    /** Pushes whether conditional branch {@code e} is taken (an int), on the unit's registers. */
    void condition(DecodedInsn e);

    /**
     * Counts {@code k} inserted instructions as retired: in the unit's count, and in the cpu's
     * where the plan's code keeps it up to date ({@link #synced}).
     */
    void retire(int k);

    /**
     * Adds to the long on the operand stack the unit's instructions not yet in the cpu's count at
     * this point of the plan: none where the plan's code keeps that count up to date ({@link
     * #synced}), else the unit's count so far, {@code T.INSN} included {@code after} it (an
     * interval counter's retired count is the accounts' figure plus this).
     */
    void addUnsynced(boolean after);

    /** {@code T.INSN} as the unit's own code, the count and pc brought up to date around it. */
    void original();

    /** After {@link #original}: pushes where the application goes on ({@code T.NEXT_PC}). */
    void loadNext();
  }

  private final MethodVisitor mv;

  PlanEmitter(MethodVisitor mv) {
    this.mv = mv;
  }

  /**
   * Emits plan {@code p} of tagged instruction {@code d}. As a prologue ({@link Plan#isPrologue}):
   * each case's ops up to {@code T.INSN}, which the caller runs next as untagged code; otherwise
   * the whole replacement, {@code T.INSN} included (alone under a vector no case names). The code
   * leaves the operand stack as it found it.
   */
  void emit(Plan p, DecodedInsn d, Unit u, boolean prologue) {

    Label end = new Label();
    for (Plan.Case c : p.cases()) {
      Label next = new Label();
      if (p.cases().size() > 1 || c.vectors() != d.diseMask) {
        u.loadVector();
        mv.visitLdcInsn(c.vectors());
        mv.visitInsn(LAND);
        mv.visitInsn(LCONST_0);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFEQ, next);
      }
      u.registers().forwardWrites(true);
      ops(p, c.ops(), d, u, prologue);
      u.registers().forwardWrites(false);
      mv.visitJumpInsn(GOTO, end);
      mv.visitLabel(next);
    }
    if (!prologue) {
      u.original(); // a flag vector under which nothing matches with an effect
    }
    mv.visitLabel(end);
  }

  /**
   * One case's ops; an inserted branch's target is a label at an op index. A case that calls no
   * sink's record keeps its accounts per straight-line segment ({@link #segments}): at the
   * segment's start one addition to its shape's tally and its inserted instructions counted at
   * once, instead of calls per op (spec/emulator.md, "Per-site accounting").
   */
  private void ops(Plan p, List<PlanOp> ops, DecodedInsn d, Unit u, boolean prologue) {
    boolean branches = ops.stream().anyMatch(o -> o instanceof PlanOp.Insert);
    Label[] at = new Label[branches ? ops.size() + 1 : 0];
    boolean[] joins = new boolean[ops.size() + 1]; // the ops an inserted branch or jump goes to
    for (PlanOp op : ops) {
      if (op instanceof PlanOp.Insert e && e.target() >= 0) {
        joins[e.target()] = true;
      }
    }
    for (int i = 0; i < at.length; i++) {
      at[i] = new Label();
    }
    boolean after = false;
    Segment[] segments = segments(p.accounts(), ops);
    boolean tallied = segments != null;
    for (int i = 0; i < ops.size(); i++) {
      if (branches) {
        mv.visitLabel(at[i]);
      }
      if (joins[i]) {
        u.registers().forget();
      }
      if (tallied && segments[i] != null) {
        segment(u, p, segments[i]);
      }
      PlanOp op = ops.get(i);
      if (op instanceof PlanOp.Original) {
        if (prologue) {
          return; // the last op: the caller runs the instruction
        }
        u.original();
        after = true;
      } else if (op instanceof PlanOp.Count k) {
        count(u, k);
      } else if (op instanceof PlanOp.Replaced) {
        if (!tallied) {
          accounts(u, p, "replaced");
        }
      } else if (op instanceof PlanOp.Site s) {
        site(u, p.accounts(), d, s, after, tallied);
      } else if (op instanceof PlanOp.Slot k) {
        slot(u, p.accounts(), d, k, after, tallied);
      } else if (op instanceof PlanOp.Call k) {
        if (!prologue) {
          u.registers().storeWritten(k.reads()); // what the handler reads of x[] itself
        }
        u.registers().forget(); // the handler sees x[] (GuestState) and may write it
        call(u, p.accounts(), d, k, after);
      } else if (op instanceof PlanOp.Insert e) {
        insert(u, p, e, at, !tallied);
      }
    }
    if (branches) {
      mv.visitLabel(at[ops.size()]);
    }
  }

  /**
   * A straight-line run of a case's ops, entered only at its first and left only after its last:
   * its {@code tally} (null: no replacement or per-site call in it) and its inserted instructions.
   */
  record Segment(Tally tally, int inserted) {}

  /**
   * Per op of {@code ops}: the segment that starts there, or null. A segment ends before a branch
   * target, after an inserted branch or jump, and around {@code T.INSN} (which may fault, so what
   * follows it is not counted before it runs). Null for the whole case when it calls a sink's
   * record or tags (a record may read the accounts mid-run, through a clock) or when the accounts
   * hand out no tallies: then each op keeps its accounts call.
   */
  static Segment[] segments(Accounts accounts, List<PlanOp> ops) {
    boolean[] leader = new boolean[ops.size() + 1];
    leader[0] = true;
    leader[ops.size()] = true; // the end, where the last segment stops
    for (int i = 0; i < ops.size(); i++) {
      PlanOp op = ops.get(i);
      if (op instanceof PlanOp.Call || op instanceof PlanOp.Tag) {
        return null;
      }
      if (op instanceof PlanOp.Insert e && e.target() >= 0) {
        leader[e.target()] = true;
        leader[i + 1] = true;
      } else if (op instanceof PlanOp.Original) {
        leader[i] = true;
        leader[i + 1] = true;
      }
    }
    Segment[] segments = new Segment[ops.size()];
    for (int i = 0; i < ops.size(); i++) {
      if (!leader[i]) {
        continue;
      }
      int end = i + 1;
      while (!leader[end]) {
        end++;
      }
      List<PlanOp> part = ops.subList(i, end);
      int inserted = (int) part.stream().filter(op -> op instanceof PlanOp.Insert).count();
      Tally.Shape shape = Tally.Shape.of(part);
      Tally tally = shape == null ? null : accounts.tally(shape);
      if (shape != null && tally == null) {
        return null; // accounts that keep every call
      }
      segments[i] = tally == null && inserted == 0 ? null : new Segment(tally, inserted);
    }
    return segments;
  }

  /** A segment's accounts at its start: {@code tally.runs++}, its inserted instructions retired. */
  private void segment(Unit u, Plan p, Segment s) {
    if (s.tally() != null) {
      addOne(u, s.tally(), TALLY, "runs");
    }
    if (s.inserted() > 0) {
      u.retire(s.inserted());
      load(u, p.accounts(), ACCOUNTS);
      iconst(s.inserted());
      invoke(p.accounts(), ACCOUNTS, method(Accounts.class, "inserted"));
    }
  }

  /**
   * Whether the code of plan {@code p} needs the cpu's count and pc brought up to date around it
   * (and each inserted instruction counted in the cpu's count as it retires): when it calls a
   * sink's record, which may read them (or the accounts, through a clock). Counter ops, per-site
   * counters and slots read neither, so a plan of those alone skips that bookkeeping, and its
   * interval counters add the unit's own count ({@link Unit#addUnsynced}).
   */
  static boolean synced(Plan p) {
    return p.cases().stream()
        .flatMap(c -> c.ops().stream())
        .anyMatch(op -> op instanceof PlanOp.Call || op instanceof PlanOp.Tag);
  }

  /** Whether plan {@code p} has counter ops (which may change the flag vector). */
  static boolean counts(Plan p) {
    return p.cases().stream()
        .flatMap(c -> c.ops().stream())
        .anyMatch(op -> op instanceof PlanOp.Count);
  }

  /**
   * An inserted instruction: run, and unless its segment counted it ({@code retire} false), retired
   * (the unit's count, the cpu's and the accounts').
   */
  private void insert(Unit u, Plan p, PlanOp.Insert e, Label[] at, boolean retire) {
    if (e.target() < 0) {
      u.value(e.insn());
      retire(u, p, retire);
    } else if (SemanticsTable.of(e.insn().exec).kind() == SemanticsTable.Kind.BRANCH) {
      u.condition(e.insn());
      retire(u, p, retire); // taken or not, it retired
      mv.visitJumpInsn(IFNE, at[e.target()]);
    } else {
      retire(u, p, retire);
      mv.visitJumpInsn(GOTO, at[e.target()]);
    }
  }

  private void retire(Unit u, Plan p, boolean retire) {
    if (retire) {
      u.retire(1);
      accounts(u, p, "insertedOne");
    }
  }

  /** Calls no-argument method {@code name} of the plan's accounts. */
  private void accounts(Unit u, Plan p, String name) {
    load(u, p.accounts(), ACCOUNTS);
    invoke(p.accounts(), ACCOUNTS, method(Accounts.class, name));
  }

  /** An HPS counter micro-op on the plan's counters. */
  private void count(Unit u, PlanOp.Count k) {
    Counters counters = k.counters();
    load(u, counters, COUNTERS);
    iconst(k.counter());
    switch (k.kind()) {
      case INC -> invoke(counters, COUNTERS, method(Counters.class, "inc"));
      case DEC -> invoke(counters, COUNTERS, method(Counters.class, "dec"));
      case SET -> {
        if (k.register() >= 0) {
          load(u, counters, COUNTERS);
          iconst(k.register());
          invoke(counters, COUNTERS, method(Counters.class, "register"));
        } else {
          mv.visitLdcInsn(k.constant());
        }
        invoke(counters, COUNTERS, method(Counters.class, "set"));
      }
    }
  }

  /**
   * {@code call(sink, args...)}: the arguments into the call's own array, then the accounts and the
   * handler's {@code record} in the order the stage keeps them (or, with a result, its {@code
   * recordReturning} into the register). {@code T.NEXT_PC} before {@code T.INSN} is the
   * fall-through; after it, where the instruction went.
   */
  private void call(Unit u, Accounts accounts, DecodedInsn d, PlanOp.Call c, boolean after) {
    boolean returns = c.result() >= 0;
    String iface = returns ? RETURNING : HANDLER;
    load(u, c.handler(), iface);
    u.loadCpu();
    u.loadInsn();
    u.loadConstant(c.argArray(), "[J");
    for (int a = 0; a < c.args().size(); a++) {
      mv.visitInsn(DUP);
      iconst(a);
      arg(u, d, c.args().get(a), after);
      mv.visitInsn(LASTORE);
    }
    load(u, accounts, ACCOUNTS);
    if (!returns) {
      invoke(accounts, ACCOUNTS, method(Accounts.class, "callStart"));
      invoke(c.handler(), iface, method(Handler.class, "record"));
      called(u, accounts, c.sink());
      return;
    }
    iconst(c.sink());
    invoke(accounts, ACCOUNTS, method(Accounts.class, "callReturningStart"));
    invoke(c.handler(), iface, method(ReturningHandler.class, "recordReturning"));
    u.registers().storeX(c.result());
  }

  /** Pushes argument {@code arg} of a call at {@code d}, before or {@code after} T.INSN. */
  private void arg(Unit u, DecodedInsn d, PlanOp.Arg arg, boolean after) {
    if (arg instanceof PlanOp.Arg.Const k) {
      mv.visitLdcInsn(k.value());
    } else if (arg instanceof PlanOp.Arg.Next) {
      if (after) {
        u.loadNext();
      } else {
        mv.visitLdcInsn(d.npc);
      }
    } else if (arg instanceof PlanOp.Arg.ThreadId) {
      u.loadCpu();
      mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "threadId", "()I", false);
      mv.visitInsn(I2L);
    } else if (arg instanceof PlanOp.Arg.F f) {
      u.registers().fget(f.reg());
    } else {
      u.registers().loadX(((PlanOp.Arg.X) arg).reg());
    }
  }

  /**
   * A call applied to its per-site slot: the accounts, then {@code slot.update(value)} on the
   * slot's own class (a static binding C1 inlines; no argument array, no key lookup), its result
   * into the register or dropped (spec/emulator.md, "Per-site slots").
   */
  private void slot(
      Unit u, Accounts accounts, DecodedInsn d, PlanOp.Slot s, boolean after, boolean tallied) {
    if (!tallied) {
      load(u, accounts, ACCOUNTS);
      iconst(s.sink());
      invoke(accounts, ACCOUNTS, method(Accounts.class, "slotCalled"));
    }
    load(u, s.slot(), SLOT);
    arg(u, d, s.value(), after);
    invoke(s.slot(), SLOT, method(SiteSlot.class, "update"));
    if (s.result() >= 0) {
      u.registers().storeX(s.result());
    } else {
      mv.visitInsn(POP2);
    }
  }

  private void called(Unit u, Accounts accounts, int sink) {
    load(u, accounts, ACCOUNTS);
    iconst(sink);
    invoke(accounts, ACCOUNTS, method(Accounts.class, "called"));
  }

  /**
   * A call whose events go to a per-site counter: accounted as a call, with the counter's addition
   * in place of the record (spec/emulator.md, "Per-site counters"); in a {@code tallied} case the
   * tally holds the accounts.
   */
  private void site(
      Unit u, Accounts accounts, DecodedInsn d, PlanOp.Site s, boolean after, boolean tallied) {
    SiteCounter site = s.counter();
    if (site.since != null) {
      // instructions += now - since.at; since.at = now (now: retired so far, this one included).
      u.loadConstant(site.since, MARK);
      if (tallied) {
        load(u, accounts, ACCOUNTS);
        invoke(accounts, ACCOUNTS, method(Accounts.class, "retired"));
      } else {
        callStart(u, accounts);
      }
      u.addUnsynced(after);
      mv.visitInsn(LCONST_1);
      mv.visitInsn(LADD);
      mv.visitInsn(DUP2);
      u.loadConstant(site.since, MARK);
      mv.visitFieldInsn(GETFIELD, MARK, "at", "J");
      mv.visitInsn(LSUB);
      u.loadConstant(site, SITE);
      mv.visitInsn(DUP_X2);
      mv.visitFieldInsn(GETFIELD, SITE, "instructions", "J");
      mv.visitInsn(LADD);
      mv.visitFieldInsn(PUTFIELD, SITE, "instructions", "J");
      mv.visitFieldInsn(PUTFIELD, MARK, "at", "J");
      increment(u, site);
    } else {
      if (!tallied) {
        callStart(u, accounts);
        mv.visitInsn(POP2); // the instruction count: only intervals read it
      }
      Label skip = new Label();
      if (site.whenTaken) {
        notTaken(u, d, skip);
      }
      increment(u, site);
      mv.visitLabel(skip);
    }
    if (!tallied) {
      called(u, accounts, s.sink());
    }
  }

  /** Counts a handler call; pushes the application instructions retired so far. */
  private void callStart(Unit u, Accounts accounts) {
    load(u, accounts, ACCOUNTS);
    invoke(accounts, ACCOUNTS, method(Accounts.class, "callStart"));
  }

  /** {@code site.events++}. */
  private void increment(Unit u, SiteCounter site) {
    addOne(u, site, SITE, "events");
  }

  /** {@code handle.field++} on a constant of the unit of class {@code owner}, a long field. */
  private void addOne(Unit u, Object handle, String owner, String field) {
    u.loadConstant(handle, owner);
    addOne(mv, owner, field);
  }

  /**
   * {@code o.field++} on the object {@code o} of class {@code owner} on the stack, a long field.
   */
  static void addOne(MethodVisitor mv, String owner, String field) {
    mv.visitInsn(DUP);
    mv.visitFieldInsn(GETFIELD, owner, field, "J");
    mv.visitInsn(LCONST_1);
    mv.visitInsn(LADD);
    mv.visitFieldInsn(PUTFIELD, owner, field, "J");
  }

  /**
   * Jumps to {@code skip} unless conditional branch {@code d} is taken, comparing its operands as
   * the unit holds them before it executes.
   */
  private void notTaken(Unit u, DecodedInsn d, Label skip) {
    u.registers().loadX(d.rs1);
    u.registers().loadX(d.rs2);
    switch (d.exec) {
      case BEQ, BNE, BLT, BGE -> mv.visitInsn(LCMP);
      case BLTU, BGEU ->
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Long", "compareUnsigned", "(JJ)I", false);
      default -> throw new IllegalArgumentException("not a conditional branch: " + d);
    }
    int jump =
        switch (d.exec) {
          case BEQ -> IFNE;
          case BLT, BLTU -> IFGE;
          case BNE -> IFEQ;
          default -> IFLT; // BGE, BGEU
        };
    mv.visitJumpInsn(jump, skip);
  }

  /** Pushes handle {@code value} as a constant of the unit, cast to its own class if nameable. */
  private static void load(Unit u, Object value, String iface) {
    String owner = directOwner(value);
    u.loadConstant(value, owner != null ? owner : iface);
  }

  /** Invokes interface method {@code m} on handle {@code value}, on its own class if nameable. */
  private void invoke(Object value, String iface, Method m) {
    String owner = directOwner(value);
    String desc = Type.getMethodDescriptor(m);
    if (owner != null) {
      mv.visitMethodInsn(INVOKEVIRTUAL, owner, m.getName(), desc, false);
    } else {
      mv.visitMethodInsn(INVOKEINTERFACE, iface, m.getName(), desc, true);
    }
  }

  /** The one method {@code name} of plan interface {@code owner}. */
  private static Method method(Class<?> owner, String name) {
    for (Method m : owner.getMethods()) {
      if (m.getName().equals(name)) {
        return m;
      }
    }
    throw new IllegalStateException(owner.getName() + " has no method " + name);
  }

  /**
   * The internal name of {@code value}'s class when translated code can invoke it directly (a
   * public class the emulator's class loader resolves to the same class), else null.
   */
  static String directOwner(Object value) {
    return DIRECT_OWNER.get(value.getClass()).orElse(null);
  }

  /** {@link #directOwner} per class, worked out once (a class lookup per constant otherwise). */
  private static final ClassValue<Optional<String>> DIRECT_OWNER =
      new ClassValue<>() {
        @Override
        protected Optional<String> computeValue(Class<?> c) {
          for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!Modifier.isPublic(k.getModifiers()) || k.isHidden() || k.isAnonymousClass()) {
              return Optional.empty();
            }
          }
          try {
            if (Class.forName(c.getName(), false, Cpu.class.getClassLoader()) != c) {
              return Optional.empty();
            }
          } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
          }
          return Optional.of(Type.getInternalName(c));
        }
      };

  private void iconst(int v) {
    BytecodeTranslator.iconst(mv, v);
  }

  /**
   * Whether the translator can run every op of {@code p} inline: the plan {@link Plan#splits}, and
   * each inserted instruction is an integer computation that cannot fault, or a branch or plain
   * jump within its part.
   */
  static boolean emittable(Plan p) {
    if (!p.splits()) {
      return false; // T.INSN not exactly once, a branch across it, or a tag: the interpreter's
    }
    for (Plan.Case c : p.cases()) {
      for (PlanOp op : c.ops()) {
        if (op instanceof PlanOp.Insert e && !inline(e)) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean inline(PlanOp.Insert e) {
    SemanticsTable.Entry t;
    try {
      t = SemanticsTable.of(e.insn().exec);
    } catch (IllegalArgumentException x) {
      return false;
    }
    if (e.target() < 0) {
      return t.kind() == SemanticsTable.Kind.VALUE
          && t.dest() == Operand.RD
          && !t.fpu()
          && !t.rm()
          && t.sources().stream()
              .noneMatch(s -> s == Operand.FRS1 || s == Operand.FRS2 || s == Operand.FRS3);
    }
    int rd = e.insn().rd;
    boolean jump = e.insn().exec.base() == Op.JAL && (rd == 0 || rd == DecodedInsn.X0_SINK);
    return t.kind() == SemanticsTable.Kind.BRANCH || jump;
  }

  /** The integer registers the plan's code reads from the unit (bit r: x[r]). */
  static long reads(Plan p) {
    long read = 0;
    for (Plan.Case c : p.cases()) {
      for (PlanOp op : c.ops()) {
        if (op instanceof PlanOp.Insert e) {
          DecodedInsn d = e.insn();
          read |= (d.exec.readsRs1() ? bit(d.rs1) : 0) | (d.exec.readsRs2() ? bit(d.rs2) : 0);
        } else if (op instanceof PlanOp.Call k) {
          for (PlanOp.Arg a : k.args()) {
            read |= a instanceof PlanOp.Arg.X x ? bit(x.reg()) : 0;
          }
        } else if (op instanceof PlanOp.Slot k) {
          read |= k.value() instanceof PlanOp.Arg.X x ? bit(x.reg()) : 0;
        }
      }
    }
    return read;
  }

  /** The integer registers the plan's code writes (never the original instruction's). */
  static long writes(Plan p) {
    long written = 0;
    for (Plan.Case c : p.cases()) {
      for (PlanOp op : c.ops()) {
        if (op instanceof PlanOp.Insert e && e.target() < 0) {
          written |= bit(e.insn().rd);
        } else if (op instanceof PlanOp.Call k) {
          written |= bit(k.result());
        } else if (op instanceof PlanOp.Slot k) {
          written |= bit(k.result());
        }
      }
    }
    return written;
  }

  /**
   * What a prologue's handlers read of {@code x[]} themselves (their arguments come from locals).
   */
  static long handlerReads(Plan p) {
    long r = 0;
    for (Plan.Case c : p.cases()) {
      for (PlanOp op : c.ops()) {
        r |= op instanceof PlanOp.Call k ? k.reads() : 0;
      }
    }
    return r;
  }

  private static long bit(int reg) {
    return reg > 0 && reg != DecodedInsn.X0_SINK && reg < 64 ? 1L << reg : 0;
  }
}

package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.plan.Accounts;
import org.dise.runtime.cpu.plan.Counters;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.cpu.plan.Plan;
import org.dise.runtime.cpu.plan.PlanOp;
import org.dise.runtime.cpu.plan.ReturningHandler;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.junit.jupiter.api.Test;

/**
 * Plans run by translated code ({@link PlanEmitter}) against a decode stage that does the same by
 * hand in {@link DecodeStage#execute} and {@link DecodeStage#before}, with no engine: the emulator
 * side of the plan interface on its own.
 */
class PlanEmitterTest {
  private static final int DR0 = HartState.DISE_REG_BASE;
  private static final int DR1 = DR0 + 1;

  /**
   * At every procedure call: {@code inc_0}; a replacement; (whole form) {@code $dr0 += 1} inserted;
   * {@code call(h, $dr0 or a0, T.NEXT_PC, 7)}; {@code T.INSN}; (whole form) {@code $dr1 = call(h,
   * T.NEXT_PC)} after it, where T.NEXT_PC is the callee. Keeps its own counters and accounts.
   */
  static final class Stage implements DecodeStage, Accounts, Counters, ReturningHandler {
    final boolean whole;
    final boolean plans;
    long replaced;
    long inserted;
    long calls;
    long charged;
    long hash;
    final long[] counters = new long[2];
    Cpu cpu;

    Stage(boolean whole, boolean plans) {
      this.whole = whole;
      this.plans = plans;
    }

    @Override
    public Object attach(DecodedInsn d) {
      return d.opClass() == OpClass.PROC_CALL && d.op == Op.JAL ? Boolean.TRUE : null;
    }

    private DecodedInsn addi(DecodedInsn d) {
      DecodedInsn e = new DecodedInsn(d.pc, Op.ADDI, Op.ADDI.match(), DR0, DR0, 0, 0, 1, 0);
      e.inserted = true;
      return e;
    }

    @Override
    public long execute(DecodedInsn d, Cpu cpu) {
      counters[0]++;
      replaced++;
      if (whole) {
        cpu.executeOne(addi(d));
        inserted++;
      }
      long[] args = {cpu.x[whole ? DR0 : 10], d.npc, 7};
      record(cpu, d, args, callStart());
      called(0);
      long next = cpu.executeOne(d);
      if (whole) {
        long start = callReturningStart(1);
        cpu.x[DR1] = recordReturning(cpu, d, new long[] {next}, start);
      }
      return next;
    }

    @Override
    public boolean splitsOriginal(DecodedInsn d) {
      return !whole;
    }

    @Override
    public void before(DecodedInsn d, Cpu cpu) {
      counters[0]++;
      replaced++;
      long[] args = {cpu.x[10], d.npc, 7};
      record(cpu, d, args, callStart());
      called(0);
    }

    @Override
    public Plan plan(DecodedInsn d) {
      if (!plans) {
        return null;
      }
      List<PlanOp.Arg> args =
          List.of(
              new PlanOp.Arg.X(whole ? DR0 : 10), new PlanOp.Arg.Next(), new PlanOp.Arg.Const(7));
      PlanOp.Call call = new PlanOp.Call(0, this, args, new long[3], -1, 0);
      PlanOp inc = new PlanOp.Count(this, PlanOp.Kind.INC, 0, -1, 0);
      List<PlanOp> ops =
          whole
              ? List.of(
                  inc,
                  new PlanOp.Replaced(),
                  new PlanOp.Insert(addi(d), -1),
                  call,
                  new PlanOp.Original(),
                  new PlanOp.Call(1, this, List.of(new PlanOp.Arg.Next()), new long[1], DR1, 0))
              : List.of(inc, new PlanOp.Replaced(), call, new PlanOp.Original());
      return new Plan(this, List.of(new Plan.Case(-1L, ops)));
    }

    @Override
    public long registersWritten(DecodedInsn d) {
      return whole ? 1L << DR0 | 1L << DR1 : 0;
    }

    @Override
    public void record(
        GuestState guest, DecodedInsn original, long[] args, long applicationInstructions) {
      hash = hash * 31 + args[0];
      hash = hash * 31 + args[1];
      hash = hash * 31 + args[2];
      hash = hash * 31 + applicationInstructions;
    }

    @Override
    public long recordReturning(
        GuestState guest, DecodedInsn original, long[] args, long applicationInstructions) {
      hash = hash * 17 + args[0] + applicationInstructions;
      return args[0] ^ hash;
    }

    @Override
    public void slotCalled(int sink) {
      calls++;
      charged += sink + 1;
    }

    @Override
    public void replaced() {
      replaced++;
    }

    @Override
    public void insertedOne() {
      inserted++;
    }

    @Override
    public long callStart() {
      calls++;
      return cpu.instret() - inserted;
    }

    @Override
    public void called(int sink) {
      charged += sink + 1;
    }

    @Override
    public long callReturningStart(int sink) {
      calls++;
      charged += sink + 1;
      return cpu.instret() - inserted;
    }

    @Override
    public void inc(int c) {
      counters[c]++;
    }

    @Override
    public void dec(int c) {
      counters[c]--;
    }

    @Override
    public void set(int c, long v) {
      counters[c] = v;
    }

    @Override
    public long register(int i) {
      return 0;
    }
  }

  /** Runs the stage interpreted-only, or translated at threshold 1 with or without plans. */
  private static Stage run(boolean whole, boolean plans, int threshold, ByteArrayOutputStream out)
      throws Exception {
    return run(whole, plans, threshold, out, true);
  }

  /** As above; with {@code count}, the units count their plans' runs (as {@code bench -v}). */
  private static Stage run(
      boolean whole, boolean plans, int threshold, ByteArrayOutputStream out, boolean count)
      throws Exception {
    Machine m = DecodeStageTest.load("1", out, threshold);
    Stage s = new Stage(whole, plans);
    s.cpu = m.cpu();
    m.cpu().setDecodeStage(s);
    if (m.cpu().blockCompiler() != null) {
      m.cpu().blockCompiler().countPlanRuns(count);
    }
    Machine.Outcome o = m.run(-1);
    assertThat(o.exitStatus()).isEqualTo(0);
    s.counters[1] = m.cpu().instret(); // the run's count, compared with the rest
    if (plans && threshold == 1) {
      Cpu.Counters c = m.cpu().counters();
      long emitted = whole ? c.emittedReplacementRuns() : c.emittedPrologueRuns();
      if (count) {
        assertThat(emitted).isGreaterThan(100L);
      } else {
        assertThat(emitted).isEqualTo(0L);
      }
      assertThat(c.prologueCalls() + c.taggedCalls()).isEqualTo(0L); // all ran inline
    }
    return s;
  }

  /**
   * A unit counts its plans' runs only when asked (bench -v asks): by default the plans run inline
   * all the same, with the same effects, and nothing counts them.
   */
  @Test
  void plansRunInlineUncountedByDefault() throws Exception {
    for (boolean whole : new boolean[] {false, true}) {
      ByteArrayOutputStream o1 = new ByteArrayOutputStream();
      ByteArrayOutputStream o2 = new ByteArrayOutputStream();
      Stage counted = run(whole, true, 1, o1, true);
      assertThat(counted.replaced).isGreaterThan(100L);
      Stage uncounted = run(whole, true, 1, o2, false);
      assertSame(counted, uncounted);
      assertThat(o2.toString()).isEqualTo(o1.toString());
    }
  }

  private static void assertSame(Stage a, Stage b) {
    assertThat(b.counters).isEqualTo(a.counters);
    assertThat(b.replaced).isEqualTo(a.replaced);
    assertThat(b.inserted).isEqualTo(a.inserted);
    assertThat(b.calls).isEqualTo(a.calls);
    assertThat(b.charged).isEqualTo(a.charged);
    assertThat(b.hash).isEqualTo(a.hash);
  }

  /**
   * The stage's plans run translated against the stage itself, on the same program; the units
   * holding them are written with {@code acf.unitFrames=emitted}: a prologue's with the frames the
   * emitters wrote, which the verifier accepts without falling back to ASM's (a whole replacement's
   * unit may still fall back: then it must run all the same).
   */
  private static void assertPlanDoesWhatTheStageDoes(boolean whole) throws Exception {
    ByteArrayOutputStream o1 = new ByteArrayOutputStream();
    ByteArrayOutputStream o2 = new ByteArrayOutputStream();
    Stage reference = run(whole, false, 0, o1);
    UnitFrames.Mode mode = BytecodeTranslator.unitFrames;
    long fallbacks = UnitFrames.FALLBACKS.get();
    Stage planned;
    BytecodeTranslator.unitFrames = UnitFrames.Mode.EMITTED;
    try {
      planned = run(whole, true, 1, o2);
    } finally {
      BytecodeTranslator.unitFrames = mode;
    }
    if (!whole) {
      assertThat(UnitFrames.FALLBACKS.get()).isEqualTo(fallbacks);
    }
    assertThat(whole ? reference.inserted : reference.replaced).isGreaterThan(100L);
    assertSame(reference, planned);
    assertThat(o2.toString()).isEqualTo(o1.toString());
  }

  /** A translated unit of main's whose blocks hold a call (tagged when the stage is attached). */
  private static List<Block> unitWithACall(Machine m) {
    org.dise.runtime.elf.Symbol main = m.symbols().byName("main").orElseThrow();
    for (long pc = main.address(); pc < main.address() + main.size(); pc += 2) {
      Block b = m.cpu().blockAt(pc);
      if (b != null && b.unit != null) {
        for (Block u : b.unit) {
          for (DecodedInsn d : u.insns) {
            if (d.opClass() == OpClass.PROC_CALL && d.op == Op.JAL) {
              return List.of(b.unit);
            }
          }
        }
      }
    }
    throw new AssertionError("no translated unit of main holds a call");
  }

  /**
   * The unit limits count the application's code: an ACF's prologues out of line add to the
   * dispatch method but not to what acf.unitBytes and acf.joinBytes bound, so that profiling does
   * not cut units (or refuse joins) that a plain run keeps whole.
   */
  @Test
  void theUnitLimitsCountTheApplicationsCodeAndNotTheACFsCodeOutOfLine() throws Exception {
    Machine plain = DecodeStageTest.load("1", new ByteArrayOutputStream(), 1);
    assertThat(plain.run(-1).exitStatus()).isEqualTo(0);
    BytecodeTranslator.Defined p =
        BytecodeTranslator.define(
            unitWithACall(plain), false, null, BytecodeTranslator.HUGE_METHOD, false, false, false);
    assertThat(p.applicationBytes()).isEqualTo(p.methodBytes());

    Machine m = DecodeStageTest.load("1", new ByteArrayOutputStream(), 1);
    Stage s = new Stage(false, true);
    s.cpu = m.cpu();
    m.cpu().setDecodeStage(s);
    assertThat(m.run(-1).exitStatus()).isEqualTo(0);
    List<Block> unit = unitWithACall(m);
    BytecodeTranslator.Defined t =
        BytecodeTranslator.define(
            unit, false, s, BytecodeTranslator.HUGE_METHOD, false, false, false);
    assertThat(t.applicationBytes()).isLessThan(t.methodBytes());
    // Under a limit between the two sizes the unit still fits: only the application's code counts.
    int limit = t.applicationBytes() + 1;
    assertThat(limit).isLessThan(t.methodBytes());
    assertThat(
            BytecodeTranslator.define(unit, false, s, limit, false, false, false)
                .applicationBytes())
        .isEqualTo(t.applicationBytes());
    assertThrows(
        BytecodeTranslator.TooLarge.class,
        () -> BytecodeTranslator.define(unit, false, s, t.applicationBytes(), false, false, false));
  }

  @Test
  void prologuePlanDoesWhatTheStageDoes() throws Exception {
    assertPlanDoesWhatTheStageDoes(false);
  }

  @Test
  void wholeReplacementPlanDoesWhatTheStageDoes() throws Exception {
    assertPlanDoesWhatTheStageDoes(true);
  }

  @Test
  void onlyAPlanThatRunsTheInstructionOnceAndBranchesWithinItsPartSplits() {
    Accounts none = new Stage(false, false);
    DecodedInsn beq = new DecodedInsn(0, Op.BEQ, Op.BEQ.match(), 0, DR0, 0, 0, 0, 0);
    assertThrows(
        IllegalArgumentException.class,
        () -> new Plan.Case(1, List.of(new PlanOp.Insert(beq, 3), new PlanOp.Original())));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Plan.Case(1, List.of(new PlanOp.Original(), new PlanOp.Tag(1))));
    Plan noInsn = new Plan(none, List.of(new Plan.Case(1, List.of(new PlanOp.Replaced()))));
    assertThat(noInsn.splits()).isFalse();
    assertThat(noInsn.isPrologue()).isFalse();
    Plan across =
        new Plan(
            none,
            List.of(
                new Plan.Case(
                    1,
                    List.of(
                        new PlanOp.Insert(beq, 3), new PlanOp.Original(), new PlanOp.Replaced()))));
    assertThat(across.splits()).isFalse();
    Plan tagged =
        new Plan(
            none, List.of(new Plan.Case(1, List.of(new PlanOp.Tag(1), new PlanOp.Original()))));
    assertThat(tagged.splits()).isFalse();
    Plan prologue =
        new Plan(
            none, List.of(new Plan.Case(1, List.of(new PlanOp.Replaced(), new PlanOp.Original()))));
    assertThat(prologue.splits()).isTrue();
    assertThat(prologue.isPrologue()).isTrue();
    assertThat(prologue.runsAfterOriginal()).isFalse();
    Plan after =
        new Plan(
            none, List.of(new Plan.Case(1, List.of(new PlanOp.Original(), new PlanOp.Replaced()))));
    assertThat(after.isPrologue()).isFalse();
    assertThat(after.runsAfterOriginal()).isTrue();
  }
}

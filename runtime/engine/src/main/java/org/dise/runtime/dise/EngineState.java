package org.dise.runtime.dise;

import java.util.List;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.plan.Accounts;
import org.dise.runtime.cpu.plan.Retirement;
import org.dise.runtime.cpu.plan.Tally;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.Sink;
import org.dise.runtime.sink.SinkBinding;
import org.dise.runtime.sink.SinkProvider;
import org.dise.runtime.sink.TaggedSink;

/**
 * What every engine for a production set holds, whichever way it matches and replaces: the budget
 * check, the HPS counters, the sinks with their handler costs, and the cost accounts (first paper,
 * Sections 3.3 and 4). {@link DiseEngine} extends it.
 */
public abstract class EngineState implements ProfilingEngine, Accounts {
  protected final ProductionSet set;
  protected final HpsCounters hps;
  private final Sink[] sinks;

  /** Per sink: the events its {@code call}s recorded (a debugger's condition reads them). */
  private final long[] sinkCalls;

  /** Per sink: itself when productions may tag for it ({@code tag(sink)}), else null. */
  private final TaggedSink[] tagged;

  private final long[] handlerCost;
  private final long stall;

  /** The CT's inputs, for the current flag vector (both engines order them the same way). */
  protected final ConditionalsTable ct;

  private long vectorChanges = -1;
  private long vectorBit;
  private int vector;

  protected long inserted;
  protected long replacements;
  private long handlerCalls;
  private long handlerCycles;
  protected Cpu cpu;

  /**
   * Per-site accounting: one tally per shape of plan case, which translated code adds to instead of
   * calling the accounts; every figure read adds what they hold (spec/emulator.md, "Per-site
   * accounting").
   */
  private final java.util.Map<Tally.Shape, Tally> tallyOf = new java.util.HashMap<>();

  /** The tallies of {@link #tallyOf}, for reading them without an iterator. */
  private Tally[] tallies = new Tally[0];

  /**
   * The state for {@code set}.
   *
   * @throws IllegalArgumentException naming what does not fit the budget or is not implemented
   */
  protected EngineState(ProductionSet set) {
    // A pattern may still name a symbol of a library not loaded yet (DiseEngine binds it when the
    // library loads); the replacement code's and the sinks' symbols are fixed here.
    List<SymbolRef> fixed = new java.util.ArrayList<>(set.symbols());
    set.patternSymbols().forEach(fixed::remove);
    if (!fixed.isEmpty()) {
      throw new IllegalArgumentException(
          "the productions name program symbols ("
              + fixed.get(0)
              + (fixed.size() > 1 ? ", ..." : "")
              + "), which are resolved when the program is loaded: bind them first"
              + " (SymbolBinding.bind)");
    }
    List<String> problems = set.budget().violations(set);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "the production set does not fit the hardware budget: " + String.join("; ", problems));
    }
    this.set = set;
    int counters =
        Math.max(
            set.budget().counters(),
            set.counterIndices().isEmpty() ? 0 : set.counterIndices().last() + 1);
    this.hps = new HpsCounters(counters, set.counters(), set.hpsRegisters());
    this.sinks = new Sink[set.sinks().size()];
    this.handlerCost = new long[sinks.length];
    this.sinkCalls = new long[sinks.length];
    SinkProvider provider = SinkProvider.installed();
    for (int i = 0; i < sinks.length; i++) {
      SinkBinding b = set.sinks().get(i);
      sinks[i] = provider.create(b);
      handlerCost[i] = b.cost();
      if (sinks[i] instanceof org.dise.runtime.sink.ClockedSink c) {
        c.clock(new Clock());
      }
    }
    CallCheck.run(set, sinks);
    this.stall = set.stallCycles();
    this.ct = new ConditionalsTable(set.flagInputs());
    hps.onChange(this::pushVector);
    this.tagged = new TaggedSink[sinks.length];
    for (Production p : set.productions()) {
      if (p.tag() < 0) {
        continue;
      }
      Sink s = sinks[p.tag()];
      if (!(s instanceof TaggedSink t)) {
        throw new IllegalArgumentException(
            "production `"
                + p.name()
                + "` tags instructions for"
                + " sink `"
                + s.name()
                + "`, a "
                + set.sinks().get(p.tag()).component()
                + ", which takes no tagged instructions (the co-processor sinks do: "
                + String.join(", ", SinkProvider.installed().tagged())
                + ")");
      }
      if (p.tag() >= 64) {
        throw new IllegalArgumentException(
            "production `"
                + p.name()
                + "` tags for sink `"
                + s.name()
                + "`, but only the first 64 sinks can be tagged for");
      }
      tagged[p.tag()] = t;
    }
  }

  /**
   * Hot reload: takes over what {@code previous} (the engine a paused program ran under) holds,
   * where this engine's production set allows, and says what it could not keep. Counters are the
   * hardware's, kept by index; one whose declaration (width or initial value) changed restarts at
   * its new initial value. A sink keeps its contents when a sink of the same name is bound to the
   * same component with the same parameters and cost; others start empty. The cost accounts go on,
   * so that application instructions stay the cpu's minus inserted ones. spec/engine.md, "Changing
   * the productions of a paused program".
   *
   * @return one line per thing reset or dropped, in the order counters, sinks
   */
  public final List<String> carryOver(EngineState previous) {
    List<String> reset = new java.util.ArrayList<>();
    java.util.Map<Integer, CounterSpec> before = new java.util.HashMap<>();
    previous.set.counters().forEach(c -> before.put(c.index(), c));
    java.util.Map<Integer, CounterSpec> after = new java.util.HashMap<>();
    set.counters().forEach(c -> after.put(c.index(), c));
    for (int i = 0; i < hps.count(); i++) {
      boolean existed = i < previous.hps.count();
      boolean same =
          existed
              && previous.hps.width(i) == hps.width(i)
              && java.util.Objects.equals(before.get(i), after.get(i));
      if (same) {
        hps.restore(i, previous.hps.value(i), previous.hps.overflow(i));
      } else if (existed && (previous.hps.value(i) != hps.value(i) || previous.hps.overflow(i))) {
        reset.add(
            "counter "
                + i
                + " restarts at "
                + hps.value(i)
                + " (its declaration changed;"
                + " it was "
                + previous.hps.value(i)
                + ")");
      }
    }
    List<SinkBinding> old = previous.set.sinks();
    boolean[] kept = new boolean[old.size()];
    for (int i = 0; i < sinks.length; i++) {
      SinkBinding b = set.sinks().get(i);
      int match = old.indexOf(b);
      if (match >= 0) {
        sinks[i] = previous.sinks[match];
        sinkCalls[i] = previous.calls(match);
        kept[match] = true;
        if (tagged[i] != null) {
          tagged[i] = (TaggedSink) sinks[i];
        }
      } else if (old.stream().anyMatch(o -> o.name().equals(b.name()))) {
        reset.add(
            "sink " + b.name() + " starts empty (its component, parameters or cost" + " changed)");
      }
    }
    for (int j = 0; j < old.size(); j++) {
      String name = old.get(j).name();
      if (!kept[j] && set.sinks().stream().noneMatch(b -> b.name().equals(name))) {
        reset.add("sink " + name + " is gone with its profile (no production binds it now)");
      }
    }
    inserted = previous.inserted;
    CostReport was = previous.cost();
    replacements = was.replacements();
    handlerCalls = was.handlerCalls();
    handlerCycles = was.handlerCycles();
    codewords = previous.codewords;
    return reset;
  }

  /**
   * Hands the retired record of {@code d} to every sink of {@code sinkMask} (bit i: sink i), after
   * the instruction (or its replacement sequence) ran; {@code next} is where the application goes
   * on. Tagging costs the main pipeline nothing here; the sinks account their interrupts.
   */
  @Override
  public final void retireTagged(
      long sinkMask, DecodedInsn d, long next, long address, long stored) {
    if (cpu.halted()) {
      return;
    }
    long value = Retirement.value(d, cpu, next, stored);
    long now = retired();
    org.dise.runtime.cpu.RetireObserver o = cpu.retireObserver();
    for (long m = sinkMask; m != 0; m &= m - 1) {
      int i = Long.numberOfTrailingZeros(m);
      tagged[i].retire(d, value, address, now);
      if (o != null) {
        long c = tagged[i].takeInterruptCycles();
        if (c > 0) {
          o.interrupt(i, sinks[i].name(), c); // the co-processor interrupted the core here
        }
      }
    }
  }

  /** The current flag vector as one bit, recomputed only after a micro-op changed a counter. */
  @Override
  public final long vectorBit() {
    refreshVector();
    return vectorBit;
  }

  /** The current flag vector, recomputed only after a micro-op changed a counter. */
  protected final int vector() {
    refreshVector();
    return vector;
  }

  /** After a counter changed: the cpu's copy of the flag vector (translated code reads it). */
  private void pushVector() {
    if (cpu != null) {
      cpu.setVectorBit(vectorBit());
    }
  }

  private void refreshVector() {
    long c = hps.changes();
    if (c != vectorChanges) {
      vector = ct.vector(hps);
      vectorBit = 1L << vector;
      vectorChanges = c;
    }
  }

  /**
   * The x registers (bit r: {@code x[r]}) that production {@code k} can write when it matches
   * {@code d}: its replacement's destinations, or the original instruction's when it runs.
   * Translated code reloads only these after calling the decode stage.
   */
  protected final long registersWritten(int k, DecodedInsn d) {
    long w = originalWrites(d);
    int r = set.productions().get(k).replacement();
    if (r < 0) {
      return w;
    }
    for (ReplacementInsn e : set.replacements().get(r).body()) {
      if (e instanceof ReplacementInsn.Insn t) {
        if (t.op().operands().contains(org.dise.runtime.isa.Operand.RD) && t.rd() != Slot.NONE) {
          w |= bit(InstantiationLogic.register(t.rd(), d, true));
        }
      } else if (e instanceof ReplacementInsn.LoadImmediate li) {
        w |= bit(InstantiationLogic.register(li.rd(), d, true));
      } else if (e instanceof ReplacementInsn.Call c && c.returns()) {
        w |= bit(InstantiationLogic.register(c.result(), d, true));
      }
    }
    return w;
  }

  /** The x register the original instruction writes (T.INSN or a null match), as a bit. */
  private static long originalWrites(DecodedInsn d) {
    return d.exec.operands().contains(org.dise.runtime.isa.Operand.RD) ? bit(d.rd) : 0;
  }

  private static long bit(int reg) {
    return reg < 64 ? 1L << reg : -1L;
  }

  /** Records with {@code d} the flag vectors under which any of its productions match. */
  protected static void mask(DecodedInsn d, long[] truth) {
    long m = 0;
    for (long t : truth) {
      m |= t;
    }
    d.diseMask = m;
  }

  /** Installs the engine in {@code cpu}'s decode stage. */
  @Override
  public final void install(Cpu cpu) {
    this.cpu = cpu;
    installing(cpu);
    cpu.setDecodeStage(this);
  }

  /**
   * Ties the engine to {@code cpu}'s run for its reports (application instructions are the cpu's)
   * without entering its decode stage: for a production set that can never act ({@link Dormancy}),
   * whose run is then a plain one with reports of zero.
   */
  public final void watch(Cpu cpu) {
    this.cpu = cpu;
  }

  /** Called by {@link #install} before the engine enters {@code cpu}'s decode stage. */
  protected void installing(Cpu cpu) {}

  @Override
  public final ProductionSet productionSet() {
    return set;
  }

  @Override
  public final HpsCounters hps() {
    return hps;
  }

  @Override
  public final List<Sink> sinks() {
    return List.of(sinks);
  }

  /** Tells every sink that the core changed threads (per-thread state such as shadow stacks). */
  @Override
  public void threadSwitched(Cpu cpu, int from, int to) {
    long app = cpu.instret() - inserted;
    for (Sink s : sinks) {
      s.threadSwitched(from, to, app);
    }
  }

  /** The events sink {@code i} has recorded through {@code call} (kept across a hot reload). */
  public final long calls(int i) {
    long n = sinkCalls[i];
    for (Tally t : tallies) {
      for (int s : t.shape.sinks()) {
        n += s == i ? t.runs : 0;
      }
    }
    return n;
  }

  /** The cost figures so far (application instructions are the cpu's minus inserted ones). */
  @Override
  public final CostReport cost() {
    long app = cpu == null ? 0 : retired();
    long interrupts = 0;
    long interruptCycles = 0;
    for (TaggedSink t : tagged) {
      if (t != null) {
        interrupts += t.interrupts();
        interruptCycles += t.interruptCycles();
      }
    }
    long replaced = replacements;
    long calls = handlerCalls;
    long cycles = handlerCycles;
    for (Tally t : tallies) {
      replaced += t.runs * t.shape.replacements();
      calls += t.runs * t.shape.sinks().size();
      for (int s : t.shape.sinks()) {
        cycles += t.runs * handlerCost[s];
      }
    }
    return new CostReport(
        app, inserted, replaced, replaced * stall, calls, cycles, interrupts, interruptCycles);
  }

  /**
   * The runs of plan cases that translated code counted in tallies, folded or not (per-site
   * accounting at work; tests read it).
   */
  public final long talliedRuns() {
    long n = 0;
    for (Tally t : tallies) {
      n += t.runs;
    }
    return n;
  }

  /** The tally of plan cases of {@code shape} (one per shape, kept as long as the engine). */
  @Override
  public final Tally tally(Tally.Shape shape) {
    return tallyOf.computeIfAbsent(
        shape,
        k -> {
          Tally t = new Tally(k);
          tallies = java.util.Arrays.copyOf(tallies, tallies.length + 1);
          tallies[tallies.length - 1] = t;
          return t;
        });
  }

  @Override
  public final long retired() {
    return cpu.instret() - inserted;
  }

  /** The clocks a {@link org.dise.runtime.sink.ClockedSink} reads: this engine's cost so far. */
  private final class Clock implements org.dise.runtime.sink.ClockedSink.Clock {
    @Override
    public long applicationInstructions() {
      return cpu == null ? 0 : retired();
    }

    @Override
    public long cycles() {
      return cost().totalCycles();
    }
  }

  private long codewords;

  @Override
  public final boolean inject(org.dise.runtime.isa.Op codeword) {
    if (codeword.opClass() != org.dise.runtime.isa.OpClass.CODEWORD) {
      throw new IllegalArgumentException(codeword.mnemonic() + " is not a codeword");
    }
    long at = cpu.pc;
    DecodedInsn d = new DecodedInsn(at, codeword, codeword.match(), 0, 0, 0, 0, 0, 0);
    d.inserted = true;
    d.dise = attach(d);
    if (d.dise == null || (d.diseMask & vectorBit()) == 0) {
      return false;
    }
    codewords++;
    long retired = cpu.instret();
    long insertedBefore = inserted;
    long next;
    try {
      next = execute(d, cpu);
    } catch (Cpu.NestedFault e) {
      // An instruction of the codeword's replacement faulted: the nested run recorded the
      // fault (cpu.fault()), which the caller reports as the guest's; nothing retired after it.
      inserted += cpu.instret() - retired - (inserted - insertedBefore);
      return true;
    }
    // The codeword itself (when it ran, as T.INSN or a null match) counts as an inserted
    // instruction (one cycle); it has no address of its own, so the application goes on at
    // the instruction it was put before.
    inserted += cpu.instret() - retired - (inserted - insertedBefore);
    cpu.pc = next == d.npc ? at : next;
    return true;
  }

  @Override
  public final long injectedCodewords() {
    return codewords;
  }

  /** Sink {@code i} of the set (for calls emitted inline into translated code). */
  public final Sink sinkAt(int i) {
    return sinks[i];
  }

  /**
   * Counts a handler call about to record, and returns the application instructions retired so far,
   * as the sink's {@code record} is told them (for calls emitted inline; {@link #called} follows
   * the record). Split so that each half stays small enough for C1 to inline.
   */
  @Override
  public final long callStart() {
    handlerCalls++;
    return retired();
  }

  /**
   * Counts an inserted instruction that translated code ran inline (a plan's {@code Insert}): the
   * cpu counts it too, so that the application count sinks are told stays the same.
   */
  @Override
  public final void insertedOne() {
    inserted++;
  }

  /**
   * Charges a {@code $drN = call} of sink {@code sink} about to record, and returns the application
   * instructions retired so far.
   */
  @Override
  public final long callReturningStart(int sink) {
    handlerCalls++;
    sinkCalls[sink]++;
    handlerCycles += handlerCost[sink];
    return retired();
  }

  /** Counts and charges a call applied to a per-site slot (translated code and the interpreter). */
  @Override
  public final void slotCalled(int sink) {
    handlerCalls++;
    called(sink); // not written out: 36 bytes would be past what C1 inlines (35)
  }

  /** Counts a replacement (for prologues emitted inline into translated code). */
  @Override
  public final void replaced() {
    replacements++;
  }

  /** Charges a call of sink {@code sink}, after it recorded. */
  @Override
  public final void called(int sink) {
    sinkCalls[sink]++;
    handlerCycles += handlerCost[sink];
  }

  /** Tells a timing model (a retire observer, spec/timing.md) that handler {@code sink} ran. */
  @Override
  public final void timeHandler(int sink, long[] args, DecodedInsn d) {
    org.dise.runtime.cpu.RetireObserver o = cpu.retireObserver();
    if (o != null) {
      o.handler(sink, sinks[sink].name(), handlerCost[sink], args, d, cpu, retired());
    }
  }

  /**
   * Counts a replacement of {@code d} and tells a timing model of its decode stall (the plan
   * interpreter calls it under one; translated code, which never runs under a timing model, and the
   * interpreter without one count through {@link #replaced()}).
   */
  @Override
  public final void replacing(DecodedInsn d) {
    replacements++;
    org.dise.runtime.cpu.RetireObserver o = cpu.retireObserver();
    if (o != null) {
      o.replaced(d, stall);
    }
  }
}

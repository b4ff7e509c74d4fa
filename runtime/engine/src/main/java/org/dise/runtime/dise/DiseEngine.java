package org.dise.runtime.dise;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.PlanInterpreter;
import org.dise.runtime.cpu.plan.Plan;
import org.dise.runtime.cpu.plan.PlanOp;
import org.dise.runtime.cpu.plan.SiteCounter;
import org.dise.runtime.cpu.plan.SiteSlot;
import org.dise.runtime.elf.LinkMap;
import org.dise.runtime.elf.ProgramSymbols;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.Sink;

/**
 * The DISE/HPS engine in the decode stage, interpreting the tables (first paper, Sections 3.1-3.3).
 * For each tagged instruction: every condition reads the flags as they were before it, then the
 * micro-ops of every matching production run in production order, then each ACF's first matching
 * production with a replacement supplies its sequence; several sequences merge (the parts before
 * {@code T.INSN} in ACF order, {@code T.INSN} once, then the parts after). See spec/engine.md.
 */
public final class DiseEngine extends EngineState {
  /**
   * The pattern table, rebuilt (at decode time only, never per instance) when a library that
   * defines a symbol a pattern waits for loads ({@link #rebind}).
   */
  private PatternTable pt;

  /** The productions as bound so far: a pattern may still name a symbol no object defines yet. */
  private List<Production> bound;

  private final ReplacementTable rt;

  // Scratch for one dynamic instance (the engine is single-threaded, like the hart).
  private final int[] matched;
  private final Step[][] chosen;

  /** Per production: its micro-ops as an array (iterating the list allocated per instance). */
  private final MicroOp[][] control;

  /**
   * An engine for {@code set}.
   *
   * @throws IllegalArgumentException naming what does not fit the budget or is not implemented
   */
  public DiseEngine(ProductionSet set) {
    super(set);
    this.bound = set.productions();
    this.pt = table(bound);
    this.rt = new ReplacementTable(set.replacements());
    this.matched = new int[set.productions().size()];
    this.chosen = new Step[set.productions().size()][];
    this.control =
        set.productions().stream()
            .map(p -> p.control().toArray(new MicroOp[0]))
            .toArray(MicroOp[][]::new);
  }

  /** The table of {@code productions}; a pattern that still names a symbol matches nothing. */
  private static PatternTable table(List<Production> productions) {
    List<Production> out = new ArrayList<>();
    for (Production p : productions) {
      out.add(
          waitsFor(p).isEmpty()
              ? p
              : new Production(
                  p.name(),
                  p.acf(),
                  new PatternExpr.Const(0),
                  p.control(),
                  p.replacement(),
                  p.tag()));
    }
    return new PatternTable(out);
  }

  private static List<SymbolRef> waitsFor(Production p) {
    List<SymbolRef> refs = new ArrayList<>();
    ProductionSet.symbolsOf(p.pattern(), refs);
    return refs;
  }

  /**
   * The symbols the patterns name that no object of the process has defined yet, once per name in
   * production order: empty unless the productions were bound with {@link
   * SymbolBinding#bindDeferring} and a library that defines one has not loaded (yet). Those
   * productions match nothing until it does.
   */
  public List<SymbolRef> unbound() {
    java.util.LinkedHashMap<String, SymbolRef> out = new java.util.LinkedHashMap<>();
    for (Production p : bound) {
      waitsFor(p).forEach(r -> out.putIfAbsent(r.name(), r));
    }
    return List.copyOf(out.values());
  }

  /**
   * Binds each symbol a pattern waits for that {@code symbols} (every object the process has
   * mapped) defines now, in place: the holders of this engine keep it, its counters and sinks go
   * on. The instructions decoded and translated so far are dropped, so that they are matched again
   * under the new patterns. Returns whether any symbol bound.
   */
  public boolean rebind(ProgramSymbols symbols) {
    boolean changed = false;
    List<Production> next = new ArrayList<>(bound.size());
    for (Production p : bound) {
      if (waitsFor(p).isEmpty()) {
        next.add(p);
        continue;
      }
      PatternExpr e = SymbolBinding.bind(p.pattern(), symbols);
      changed |= !e.equals(p.pattern());
      next.add(new Production(p.name(), p.acf(), e, p.control(), p.replacement(), p.tag()));
    }
    if (!changed) {
      return false;
    }
    bound = List.copyOf(next);
    pt = table(bound);
    if (cpu != null) {
      cpu.flushDecodeCache();
    }
    return true;
  }

  /** Listens for the libraries the process maps while symbols are waiting (null: none). */
  private Consumer<LinkMap.LoadedObject> loads;

  private LinkMap listened;

  /**
   * Binds the waiting symbols against the objects {@code cpu}'s process has already mapped (a
   * forked child's, or a process's the engine is installed in late) and listens for the libraries
   * it maps from now on: the dynamic linker maps a library's code before running any of it.
   */
  @Override
  protected void installing(Cpu cpu) {
    if (listened != null) {
      listened.removeListener(loads);
      listened = null;
    }
    LinkMap map = cpu.linkMap();
    if (map == null || unbound().isEmpty()) {
      return;
    }
    rebind(map.programSymbols());
    if (unbound().isEmpty()) {
      return;
    }
    listened = map;
    loads =
        o -> {
          rebind(map.programSymbols());
          if (unbound().isEmpty()) {
            map.removeListener(loads);
          }
        };
    map.onLoad(loads);
  }

  @Override
  public Object attach(DecodedInsn d) {
    StaticMatch m = pt.match(d, ct, rt);
    if (m != null) {
      mask(d, m.truth);
    }
    return m;
  }

  @Override
  public long registersWritten(DecodedInsn d) {
    if (!(d.dise instanceof StaticMatch m)) {
      return -1L;
    }
    long w = 0;
    for (int k = 0; k < m.productions.length; k++) {
      if (m.truth[k] != 0) {
        w |= registersWritten(m.productions[k], d);
      }
    }
    return w;
  }

  /**
   * Whether production {@code production} (its index in the set) matches {@code d} under the flags
   * as they are now: what a debugger's "break when a production matches" asks before the
   * instruction runs. Costs nothing unless asked.
   */
  public boolean matchesNow(DecodedInsn d, int production) {
    if (!(d.dise instanceof StaticMatch m)) {
      return false;
    }
    int vector = ct.vector(hps);
    for (int k = 0; k < m.productions.length; k++) {
      if (m.productions[k] == production && (m.truth[k] >>> vector & 1) != 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * Runs tagged instruction {@code d}: its plan ({@link PlanBuilder}, made on first use) on the
   * emulator's {@link PlanInterpreter}, under the flags as they are now. The interpreter, the
   * REPL's debugger, a timing model's runs and translated code that calls the stage all come here.
   */
  @Override
  public long execute(DecodedInsn d, Cpu cpu) {
    return interpreter(d, cpu).run(d, cpu, vectorBit());
  }

  /**
   * The plan interpreter of {@code d}'s plan, made on first use and kept with the instruction. Its
   * sink calls go to per-site counters where they can, unless a timing model listens (it is told
   * each handler call with its arguments) or {@code d} is an injected codeword (it has no address
   * of its own for a site).
   */
  private PlanInterpreter interpreter(DecodedInsn d, Cpu cpu) {
    StaticMatch m = (StaticMatch) d.dise;
    PlanInterpreter p = m.interpreter;
    if (p == null) {
      boolean sites = !d.inserted && cpu.retireObserver() == null;
      p = new PlanInterpreter(PlanBuilder.build(this, d, m, sites));
      if (!d.inserted) {
        m.interpreter = p;
      }
    }
    return p;
  }

  /**
   * Whether every replacement {@code d} can get is a prologue of sink calls that write no register
   * followed by {@code T.INSN} (as in Fig. 6's {@code call(handler, T.INSN); T.INSN;}), and no
   * production tags it: then its translation runs {@link #before} and the instruction inline.
   */
  @Override
  public boolean splitsOriginal(DecodedInsn d) {
    if (!(d.dise instanceof StaticMatch m) || m.tags) {
      return false;
    }
    for (Step[] s : m.sequences) {
      if (s != null && !prologueThenOriginal(s)) {
        return false;
      }
    }
    return true;
  }

  /** Calls without a result, then T.INSN as the last step. */
  private static boolean prologueThenOriginal(Step[] s) {
    if (s.length == 0 || !(s[s.length - 1] instanceof Step.Original)) {
      return false;
    }
    for (int i = 0; i < s.length - 1; i++) {
      if (!(s[i] instanceof Step.Call c) || c.result >= 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * What {@link #execute} does for an instruction {@link #splitsOriginal} accepts, up to running
   * the instruction itself (the caller's part): the plan's micro-ops, the replacement count and the
   * sink calls, in the same order.
   */
  @Override
  public void before(DecodedInsn d, Cpu cpu) {
    interpreter(d, cpu).runPrologue(d, cpu, vectorBit());
  }

  /**
   * What a tagged instruction does under one flag vector: the micro-ops of its matching productions
   * in production order, and each ACF's chosen sequence in ACF order. Matching reads nothing but
   * the vector, so the plan is made once per instruction and vector instead of per instance.
   */
  static final class Chosen {
    final MicroOp[] ops;
    final Step[][] sequences;

    /** The co-processor sinks the matching productions tag for (bit i: sink i). */
    final long tags;

    Chosen(MicroOp[] ops, Step[][] sequences, long tags) {
      this.ops = ops;
      this.sequences = sequences;
      this.tags = tags;
    }
  }

  /**
   * What {@link #execute} (or {@link #before}) does for {@code d}, as a plan of micro-ops for
   * translated code to run inline ({@link PlanBuilder}), or null when translated code should call
   * the stage instead: a tag, {@code T.INSN} not exactly once or a branch across it ({@link
   * Plan#splits}), or more than {@link PlanBuilder#MAX_GROUPS} groups of flag vectors.
   */
  @Override
  public Plan plan(DecodedInsn d) {
    if (!inlinePrologues || !(d.dise instanceof StaticMatch m) || m.tags) {
      return null;
    }
    Plan p = PlanBuilder.build(this, d, m, true);
    if (!p.splits() || p.cases().size() > PlanBuilder.MAX_GROUPS) {
      return null;
    }
    for (Plan.Case c : p.cases()) {
      siteCalls +=
          c.ops().stream()
              .filter(o -> o instanceof PlanOp.Site || o instanceof PlanOp.Slot)
              .count();
    }
    return p;
  }

  private boolean inlinePrologues = true;

  /**
   * Whether translated code gets prologues and replacements as bytecode (the default) or calls
   * {@link #before} and {@link #execute} for them; both must give the same run
   * (TranslatedProductionsTest compares them). Takes effect for units translated afterwards: set it
   * before installing the engine.
   */
  public void setInlinePrologues(boolean on) {
    this.inlinePrologues = on;
  }

  private boolean perSiteCounters = true;

  private long siteCalls;

  /**
   * Whether plans add to a sink's per-site counter ({@link Sink#site}) instead of calling its
   * {@code record} (the default), in translated code and in the interpreter; both must give the
   * same run. Takes effect for instructions decoded afterwards: set it before installing the
   * engine.
   */
  public void setPerSiteCounters(boolean on) {
    this.perSiteCounters = on;
  }

  /**
   * How many sink calls were emitted into translated code as per-site counters or slots ({@link
   * org.dise.runtime.cpu.plan.PlanOp.Site}, {@link org.dise.runtime.cpu.plan.PlanOp.Slot}).
   */
  public long siteCallsEmitted() {
    return siteCalls;
  }

  /** The counter that call {@code sink} of {@code d} is emitted as, or null for a call. */
  SiteCounter siteFor(int sink, DecodedInsn d) {
    return perSiteCounters ? sinkAt(sink).site(d) : null;
  }

  /**
   * The slot that call {@code sink} of {@code d} with argument sources {@code args} is applied to
   * ({@link Sink#slot}), or null for a call; per-site slots go with per-site counters.
   */
  SiteSlot slotFor(int sink, DecodedInsn d, List<PlanOp.Arg> args) {
    return perSiteCounters ? sinkAt(sink).slot(d, args) : null;
  }

  Chosen chosen(StaticMatch m, int vector) {
    Chosen[] plans = m.plans;
    if (plans == null) {
      plans = m.plans = new Chosen[64]; // one per flag vector: at most 6 flags (ConditionalsTable)
    }
    Chosen p = plans[vector];
    if (p == null) {
      int n = match(m, vector);
      List<MicroOp> ops = new ArrayList<>();
      long tags = 0;
      for (int j = 0; j < n; j++) {
        ops.addAll(List.of(control[m.productions[matched[j]]]));
        int t = m.tag[matched[j]];
        tags |= t >= 0 ? 1L << t : 0;
      }
      int c = choose(m, n);
      p = new Chosen(ops.toArray(new MicroOp[0]), Arrays.copyOf(chosen, c), tags);
      plans[vector] = p;
    }
    return p;
  }

  /**
   * Fills {@code matched} with the productions whose truth table holds under {@code vector}, in
   * production order; returns how many.
   */
  private int match(StaticMatch m, int vector) {
    int n = 0;
    for (int k = 0; k < m.productions.length; k++) {
      if ((m.truth[k] >>> vector & 1) != 0) {
        matched[n++] = k;
      }
    }
    return n;
  }

  /**
   * Fills {@code chosen} with each ACF's first matched sequence, in ACF order; returns how many.
   */
  private int choose(StaticMatch m, int n) {
    int c = 0;
    int lastAcf = -1;
    for (int j = 0; j < n; j++) {
      int k = matched[j];
      if (m.sequences[k] != null && m.acf[k] != lastAcf) {
        chosen[c++] = m.sequences[k];
        lastAcf = m.acf[k];
      }
    }
    return c;
  }
}

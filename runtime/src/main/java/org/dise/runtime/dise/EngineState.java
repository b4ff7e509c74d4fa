package org.dise.runtime.dise;

import java.util.List;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.Sink;
import org.dise.runtime.sink.Sinks;

/**
 * What every engine for a production set holds, whichever way it matches and replaces: the
 * budget check, the HPS counters, the sinks with their handler costs, and the cost accounts
 * (first paper, Sections 3.3 and 4). {@link DiseEngine} and the generated engines extend it.
 */
public abstract class EngineState implements ProfilingEngine {
  protected final ProductionSet set;
  protected final HpsCounters hps;
  private final Sink[] sinks;
  private final long[] handlerCost;
  private final long stall;

  /** The CT's inputs, for the current flag vector (both engines order them the same way). */
  protected final ConditionalsTable ct;
  private long vectorChanges = -1;
  private long vectorBit;

  protected long inserted;
  protected long replacements;
  private long handlerCalls;
  private long handlerCycles;
  protected Cpu cpu;

  /**
   * The state for {@code set}.
   *
   * @throws IllegalArgumentException naming what does not fit the budget or is not implemented
   */
  protected EngineState(ProductionSet set) {
    List<String> problems = set.budget().violations(set);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("the production set does not fit the hardware budget: "
          + String.join("; ", problems));
    }
    this.set = set;
    int counters = Math.max(set.budget().counters(), set.counterIndices().isEmpty() ? 0
        : set.counterIndices().last() + 1);
    this.hps = new HpsCounters(counters, set.counters(), set.hpsRegisters());
    this.sinks = new Sink[set.sinks().size()];
    this.handlerCost = new long[sinks.length];
    for (int i = 0; i < sinks.length; i++) {
      SinkBinding b = set.sinks().get(i);
      sinks[i] = Sinks.create(b.component(), b.name(), b.params());
      handlerCost[i] = b.cost();
    }
    this.stall = set.stallCycles();
    this.ct = new ConditionalsTable(set.flagInputs());
  }

  /** The current flag vector as one bit, recomputed only after a micro-op changed a counter. */
  @Override
  public final long vectorBit() {
    long c = hps.changes();
    if (c != vectorChanges) {
      vectorBit = 1L << ct.vector(hps);
      vectorChanges = c;
    }
    return vectorBit;
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
    cpu.setDecodeStage(this);
  }

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

  /** The cost figures so far (application instructions are the cpu's minus inserted ones). */
  @Override
  public final CostReport cost() {
    long app = cpu == null ? 0 : cpu.instret() - inserted;
    return new CostReport(app, inserted, replacements, replacements * stall, handlerCalls,
        handlerCycles);
  }

  /** {@code call(sink, args...)} from replacement code: records it and charges the handler. */
  protected final void call(int sink, Cpu cpu, DecodedInsn d, long[] args) {
    sinks[sink].record(cpu, d, args, cpu.instret() - inserted);
    handlerCalls++;
    handlerCycles += handlerCost[sink];
  }
}

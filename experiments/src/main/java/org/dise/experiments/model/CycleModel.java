package org.dise.experiments.model;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dise.runtime.dise.CostReport;

/**
 * Cycles of a profiled run, from the counts the engine reports (first paper, Sections 3.1-3.3 and
 * 5.1; spec/cost-model.md). The paper measured a 4-way superscalar, 12-stage pipeline in
 * cycle-level simulation; we count events and charge each its paper-derived cycles:
 *
 * <ul>
 *   <li>a replacement stalls decode for {@code stall} cycles (Section 3.1: "DISE imposes a 1 cycle
 *       delay");
 *   <li>an inserted instruction costs {@code insertedCpi} cycles: replacement code is a short chain
 *       of dependent instructions, so it does not overlap with itself;
 *   <li>an inserted branch that mispredicts flushes the pipeline for {@code mispredictPenalty}
 *       cycles (Section 3.2: "and potentially a pipeline flush");
 *   <li>a handler call costs the sink's declared cycles, plus a miss to L2 (or to memory) when its
 *       profile table no longer fits the 32 KB L1 data cache (Section 5.1's machine);
 *   <li>the application runs at {@code baseCpi} cycles per instruction.
 * </ul>
 *
 * Overhead is the extra cycles over the application's own. It does not model the application's
 * cache misses caused by the handler's lines, out-of-order overlap of inserted code with
 * application code, instruction cache effects of the handler, or the branch predictor's pollution
 * by the handler's branches.
 */
public record CycleModel(
    double baseCpi,
    double stall,
    double insertedCpi,
    double mispredictPenalty,
    long l1Bytes,
    long l2Bytes,
    double l2Latency,
    double memoryLatency,
    long entryBytes) {

  /** The defaults of spec/cost-model.md: the paper's machine where it says, our choices else. */
  public static CycleModel paper() {
    return new CycleModel(1.0, 1, 1.0, 10, 32 << 10, 1 << 20, 12, 100, 32);
  }

  public CycleModel withBaseCpi(double cpi) {
    return new CycleModel(
        cpi,
        stall,
        insertedCpi,
        mispredictPenalty,
        l1Bytes,
        l2Bytes,
        l2Latency,
        memoryLatency,
        entryBytes);
  }

  /** The probability that one handler call misses, for a table of {@code entries} entries. */
  public double handlerMissRate(long entries) {
    double bytes = (double) entries * entryBytes;
    // Uniform access over the table: the part that does not fit misses (an upper bound for
    // skewed keys, whose hot entries stay cached).
    return bytes <= l1Bytes ? 0 : 1 - l1Bytes / bytes;
  }

  /** Cycles per handler miss: L2 while the table fits it, memory beyond. */
  public double missLatency(long entries) {
    return (double) entries * entryBytes <= l2Bytes ? l2Latency : memoryLatency;
  }

  /**
   * The cycles of one run: {@code mispredicts} inserted-branch mispredictions (the experiment knows
   * its replacement code) and {@code entries} profile table entries.
   */
  public Cycles cycles(CostReport c, long mispredicts, long entries) {
    double app = c.applicationInstructions() * baseCpi;
    double stalls = c.replacements() * stall;
    double inserted = c.insertedInstructions() * insertedCpi;
    double flushes = mispredicts * mispredictPenalty;
    double handlers = c.handlerCycles();
    double missCount = c.handlerCalls() * handlerMissRate(entries);
    return new Cycles(
        app,
        stalls,
        inserted,
        flushes,
        handlers,
        missCount * missLatency(entries),
        c.interruptCycles(),
        missCount);
  }

  /** A run's cycles by cause. */
  public record Cycles(
      double application,
      double stalls,
      double inserted,
      double flushes,
      double handlers,
      double handlerMisses,
      double interrupts,
      double missCount) {
    public double extra() {
      return stalls + inserted + flushes + handlers + handlerMisses + interrupts;
    }

    /** Extra cycles over the application's: 0.24 is the paper's "24% increase". */
    public double overhead() {
      return application == 0 ? 0 : extra() / application;
    }
  }

  /** The parameters by name, for the report. */
  public Map<String, String> describe() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("base CPI", fmt(baseCpi));
    m.put("stall per replacement (cycles)", fmt(stall));
    m.put("cycles per inserted instruction", fmt(insertedCpi));
    m.put("inserted-branch mispredict penalty (cycles)", fmt(mispredictPenalty));
    m.put("L1 data cache (bytes)", Long.toString(l1Bytes));
    m.put("L2 cache (bytes)", Long.toString(l2Bytes));
    m.put("L2 latency (cycles)", fmt(l2Latency));
    m.put("memory latency (cycles)", fmt(memoryLatency));
    m.put("profile table entry (bytes)", Long.toString(entryBytes));
    return m;
  }

  static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}

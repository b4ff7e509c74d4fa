package org.dise.runtime.dise;

import java.util.List;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.DecodeStage;
import org.dise.runtime.sink.Sink;

/**
 * A DISE/HPS engine in the decode stage, as reports and tests see it: the interpreted {@link
 * DiseEngine} (the one production back end; the engine once generated as Java source for one
 * production set was retired, docs/benchmarks.md).
 */
public interface ProfilingEngine extends DecodeStage {
  /** Installs the engine in {@code cpu}'s decode stage. */
  void install(Cpu cpu);

  ProductionSet productionSet();

  HpsCounters hps();

  List<Sink> sinks();

  /**
   * Injects a codeword ({@code on_trig_inst}, {@code off_trig_inst}) into the decode stream before
   * the instruction at the cpu's pc, as an external trigger does (first paper, Section 3.4): the
   * productions that match it run, the application continues where it was, and the codeword costs
   * one inserted instruction. Returns false when no production matches it now. When its replacement
   * faults, the fault is recorded in the cpu ({@code Cpu.fault()}) and the caller must stop the
   * guest as for any fault.
   */
  boolean inject(org.dise.runtime.isa.Op codeword);

  /** Codewords injected so far (each one also counts as an inserted instruction). */
  long injectedCodewords();

  /** The cost figures so far. */
  CostReport cost();
}

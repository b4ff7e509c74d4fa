package org.dise.runtime.dise;

import java.util.List;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.DecodeStage;
import org.dise.runtime.sink.Sink;

/**
 * A DISE/HPS engine in the decode stage, as reports and tests see it: the interpreted {@link
 * DiseEngine}, or a class generated for one production set (extending {@link SpecializedEngine}).
 * Both must behave identically: same profiles, same cost figures.
 */
public interface ProfilingEngine extends DecodeStage {
  /** Installs the engine in {@code cpu}'s decode stage. */
  void install(Cpu cpu);

  ProductionSet productionSet();

  HpsCounters hps();

  List<Sink> sinks();

  /** The cost figures so far. */
  CostReport cost();
}

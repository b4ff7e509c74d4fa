package org.dise.compiler.sem;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.dise.HardwareBudget;

/**
 * The checked program: what lowering to the PT, CT and RT needs, every name resolved, every node
 * with its span. ACFs are in composition order; productions within each in source order.
 */
public record CheckedProgram(
    HardwareBudget budget,
    List<Counter> counters,
    List<HpsRegister> registers,
    List<Component> sinks,
    List<Component> triggers,
    List<CheckedAcf> acfs) {

  public CheckedProgram {
    counters = List.copyOf(counters);
    registers = List.copyOf(registers);
    sinks = List.copyOf(sinks);
    triggers = List.copyOf(triggers);
    acfs = List.copyOf(acfs);
  }

  /** Every production of every ACF, in composition order then source order. */
  public List<CheckedProduction> productions() {
    List<CheckedProduction> all = new ArrayList<>();
    for (CheckedAcf a : acfs) {
      all.addAll(a.productions());
    }
    return all;
  }
}

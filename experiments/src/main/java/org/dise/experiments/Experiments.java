package org.dise.experiments;

import java.util.List;
import java.util.Optional;

/** Every experiment {@code acf experiment} knows, in the order the report shows them. */
public final class Experiments {
  private Experiments() {}

  public static List<Experiment> all() {
    return List.of(
        new OverheadExperiment(),
        new EnergyExperiment(),
        new SamplingExperiment(),
        new IntervalsExperiment(),
        new BurstyExperiment(),
        new CoprocExperiment(),
        new RapExperiment(),
        new RemoteExperiment());
  }

  public static Optional<Experiment> named(String name) {
    return all().stream().filter(e -> e.name().equals(name)).findFirst();
  }
}

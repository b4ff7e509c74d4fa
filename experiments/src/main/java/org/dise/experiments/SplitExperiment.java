package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * An experiment split into runs (one per program and setting): what it is and reproduces, and the
 * whole experiment in this process as {@link Plans#inProcess} computes it from the plan, each run
 * and the collection, which a subclass writes.
 */
public abstract class SplitExperiment implements Experiment {
  /**
   * What an experiment is: the name {@code acf experiment NAME} takes, the paper and figure it
   * reproduces, one sentence on what it measures, and the programs it runs when {@code --programs}
   * is not given (under {@code --quick} and without).
   */
  protected record About(
      String name, String reproduces, String summary, String quickPrograms, String programs) {}

  private final About about;

  protected SplitExperiment(About about) {
    this.about = about;
  }

  @Override
  public final String name() {
    return about.name();
  }

  @Override
  public final String reproduces() {
    return about.reproduces();
  }

  @Override
  public final String summary() {
    return about.summary();
  }

  @Override
  public final String defaultPrograms(boolean quick) {
    return quick ? about.quickPrograms() : about.programs();
  }

  @Override
  public final Outcome run(Lab lab) {
    return Plans.inProcess(this, lab);
  }

  @Override
  public abstract List<RunSpec> plan(Lab lab);

  @Override
  public abstract JsonNode execute(Lab lab, RunSpec spec);

  @Override
  public abstract Outcome collect(Lab lab, List<JsonNode> results);
}

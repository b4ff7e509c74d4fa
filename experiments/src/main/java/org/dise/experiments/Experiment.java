package org.dise.experiments;

/** One reproducible experiment: a paper's figure or table, run on our workloads. */
public interface Experiment {
  /** The name {@code acf experiment NAME} takes. */
  String name();

  /** The paper and figure or table it reproduces. */
  String reproduces();

  /** One sentence: what it measures. */
  String summary();

  /** The programs it runs when {@code --programs} is not given. */
  String defaultPrograms(boolean quick);

  /**
   * The whole experiment in this process. An experiment split into runs computes it as {@link
   * Plans#inProcess} does (its plan, each run, its collection); one that is not yet split is one
   * run of its plan, and this is that run.
   */
  Outcome run(Lab lab);

  /**
   * The runs it makes, in order, each a pure function of its {@link RunSpec}. By default the whole
   * experiment is one run (its result the {@link Outcome}); experiments split into many runs (one
   * per program and setting) override this, {@link #execute} and {@link #collect}.
   */
  default java.util.List<RunSpec> plan(Lab lab) {
    return java.util.List.of(lab.wholeSpec(this));
  }

  /** One run of the plan: its result, as JSON that {@link #collect} reads. */
  default com.fasterxml.jackson.databind.JsonNode execute(Lab lab, RunSpec spec) {
    return OutcomeJson.encode(run(lab));
  }

  /** The outcome from the results of {@link #plan}'s runs, in the plan's order. */
  default Outcome collect(
      Lab lab, java.util.List<com.fasterxml.jackson.databind.JsonNode> results) {
    return OutcomeJson.decode(results.get(0));
  }

  /**
   * A setting a user may change with {@code acf experiment NAME --set NAME=VALUE}: its default
   * under {@code --quick} and without, and what it means (shown by {@code acf experiment list}).
   */
  record Option(String name, String quickDefault, String fullDefault, String doc) {}

  /** The settings {@code --set} may change; the defaults are what the data otherwise use. */
  default java.util.List<Option> options() {
    return java.util.List.of();
  }
}

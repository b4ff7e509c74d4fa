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

  Outcome run(Lab lab);

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

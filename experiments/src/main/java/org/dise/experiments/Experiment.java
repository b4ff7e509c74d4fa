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
}

package org.dise.runtime.trigger;

/**
 * What every trigger policy keeps: the component name its binding uses and its interval length,
 * checked to be positive. The policies differ only in which intervals they sample and what a sample
 * stands for.
 */
abstract class IntervalTrigger implements Trigger {
  private final String component;
  private final long interval;

  IntervalTrigger(String component, long interval) {
    this.component = component;
    this.interval = Triggers.positive("interval", interval);
  }

  @Override
  public final String component() {
    return component;
  }

  @Override
  public final long interval() {
    return interval;
  }
}

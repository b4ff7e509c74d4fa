package org.dise.runtime.sink;

/**
 * A sink that weighs its events by time: the engine hands it, once, the clocks it keeps, so that a
 * profile can charge application instructions and modelled cycles (first paper, Section 4's cost
 * model) to what ran between two events, not only count the events.
 */
public interface ClockedSink extends Sink {
  /** The engine's clocks, read when an event is recorded. */
  interface Clock {
    /** Application instructions retired so far (inserted ones not counted). */
    long applicationInstructions();

    /**
     * Modelled cycles so far: application and inserted instructions, replacement stalls, handler
     * and interrupt cycles ({@code CostReport.totalCycles}).
     */
    long cycles();
  }

  /** Called once, when the engine that feeds this sink is built. */
  void clock(Clock clock);
}

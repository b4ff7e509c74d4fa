package org.dise.runtime.dise;

/**
 * The cost of a run under productions, as the papers account it (first paper, Sections 3.1 and
 * 3.5): one cycle per application instruction, a stall per replacement, one cycle per inserted
 * instruction, and each handler's declared cycles; plus the main-processor cycles that a profiling
 * co-processor's interrupts take (Zilles and Sohi, Section 3.4). Instructions that are not replaced
 * cost nothing extra, so {@link #overhead} is total cycles over application instructions.
 */
public record CostReport(
    long applicationInstructions,
    long insertedInstructions,
    long replacements,
    long stallCycles,
    long handlerCalls,
    long handlerCycles,
    long interrupts,
    long interruptCycles) {

  /** A report without co-processor interrupts. */
  public CostReport(
      long applicationInstructions,
      long insertedInstructions,
      long replacements,
      long stallCycles,
      long handlerCalls,
      long handlerCycles) {
    this(
        applicationInstructions,
        insertedInstructions,
        replacements,
        stallCycles,
        handlerCalls,
        handlerCycles,
        0,
        0);
  }

  /**
   * This report with the application instructions counted from {@code start} on: a run measured
   * after a fast-forward, whose engine counted the other figures only from its own start.
   */
  public CostReport fromInstruction(long start) {
    return new CostReport(
        applicationInstructions - start,
        insertedInstructions,
        replacements,
        stallCycles,
        handlerCalls,
        handlerCycles,
        interrupts,
        interruptCycles);
  }

  public long totalCycles() {
    return applicationInstructions
        + insertedInstructions
        + stallCycles
        + handlerCycles
        + interruptCycles;
  }

  /** Total cycles relative to the same run without productions (1.0: no overhead). */
  public double overhead() {
    return applicationInstructions == 0 ? 1.0 : (double) totalCycles() / applicationInstructions;
  }

  /** One counted figure: its label in {@link #describe}, its key in {@link #toJson}. */
  private record Figure(String label, String key, long value) {}

  /** The counted figures in report order; interrupts only where a co-processor has any. */
  private java.util.List<Figure> figures(boolean withInterrupts) {
    java.util.List<Figure> f = new java.util.ArrayList<>();
    f.add(
        new Figure(
            "application instructions", "application_instructions", applicationInstructions));
    f.add(new Figure("inserted instructions", "inserted_instructions", insertedInstructions));
    f.add(new Figure("replacements", "replacements", replacements));
    f.add(new Figure("stall cycles", "stall_cycles", stallCycles));
    f.add(new Figure("handler calls", "handler_calls", handlerCalls));
    f.add(new Figure("handler cycles", "handler_cycles", handlerCycles));
    if (withInterrupts) {
      f.add(new Figure("interrupts", "interrupts", interrupts));
      f.add(new Figure("interrupt cycles", "interrupt_cycles", interruptCycles));
    }
    f.add(new Figure("total cycles", "total_cycles", totalCycles()));
    return f;
  }

  /** A few readable lines. */
  public String describe() {
    StringBuilder b = new StringBuilder();
    for (Figure f : figures(interrupts != 0)) {
      b.append(String.format("%-25s%,d%n", f.label(), f.value()));
    }
    return b.append(String.format("%-25s%.4fx%n", "overhead", overhead())).toString();
  }

  /** The figures as a JSON object. */
  public String toJson() {
    java.util.StringJoiner j = new java.util.StringJoiner(", ", "{", "}");
    for (Figure f : figures(true)) {
      j.add("\"" + f.key() + "\": " + f.value());
    }
    return j.add(String.format(java.util.Locale.ROOT, "\"overhead\": %.6f", overhead())).toString();
  }
}

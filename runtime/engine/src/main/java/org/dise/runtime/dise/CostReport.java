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

  /** A few readable lines. */
  public String describe() {
    return String.format(
        "application instructions %,d%ninserted instructions    %,d%nreplacements             %,d"
            + "%nstall cycles             %,d%nhandler calls            %,d%nhandler cycles"
            + "           %,d%n%stotal cycles             %,d%noverhead                 %.4fx%n",
        applicationInstructions,
        insertedInstructions,
        replacements,
        stallCycles,
        handlerCalls,
        handlerCycles,
        interrupts == 0
            ? ""
            : String.format(
                "interrupts               %,d%n" + "interrupt cycles         %,d%n",
                interrupts, interruptCycles),
        totalCycles(),
        overhead());
  }

  /** The figures as a JSON object. */
  public String toJson() {
    return String.format(
        java.util.Locale.ROOT,
        "{\"application_instructions\": %d, \"inserted_instructions\": %d, \"replacements\": %d,"
            + " \"stall_cycles\": %d, \"handler_calls\": %d, \"handler_cycles\": %d,"
            + " \"interrupts\": %d, \"interrupt_cycles\": %d,"
            + " \"total_cycles\": %d, \"overhead\": %.6f}",
        applicationInstructions,
        insertedInstructions,
        replacements,
        stallCycles,
        handlerCalls,
        handlerCycles,
        interrupts,
        interruptCycles,
        totalCycles(),
        overhead());
  }
}

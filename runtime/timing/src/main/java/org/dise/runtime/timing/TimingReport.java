package org.dise.runtime.timing;

import java.util.Locale;

/**
 * What one core model measured: cycles (and their attribution to application, inserted, handler and
 * stall), instructions, cache accesses and misses at each level, branches and mispredictions.
 */
public record TimingReport(
    String model,
    long cycles,
    long[] attributed,
    long applicationInstructions,
    long insertedInstructions,
    long handlerCalls,
    long l1iAccesses,
    long l1iMisses,
    long l1dAccesses,
    long l1dMisses,
    long l2Accesses,
    long l2Misses,
    long branches,
    long mispredictions,
    long loads,
    long stores,
    long fp,
    long l1dReadMisses,
    long l1dWriteMisses,
    long bubbleCycles,
    long handlerInstructions) {

  /** Every instruction the core ran: the application's, the inserted ones and handlers' code. */
  public long instructions() {
    return applicationInstructions + insertedInstructions + handlerInstructions;
  }

  /** Cycles per application instruction. */
  public double cpi() {
    return applicationInstructions == 0 ? 0 : (double) cycles / applicationInstructions;
  }

  /** Events per thousand application instructions. */
  public double perKilo(long events) {
    return applicationInstructions == 0 ? 0 : events * 1000.0 / applicationInstructions;
  }

  public long applicationCycles() {
    return attributed[Core.APPLICATION];
  }

  public long insertedCycles() {
    return attributed[Core.INSERTED];
  }

  public long handlerCycles() {
    return attributed[Core.HANDLER];
  }

  public long stallCycles() {
    return attributed[Core.STALL];
  }

  /** The figures as a JSON object's members (no braces). */
  public String jsonMembers() {
    return String.format(
        Locale.ROOT,
        "\"model\": \"%s\", \"cycles\": %d, \"cpi\": %.4f, \"application_instructions\": %d,"
            + " \"inserted_instructions\": %d, \"cycles_application\": %d,"
            + " \"cycles_inserted\": %d, \"cycles_handler\": %d, \"cycles_stall\": %d,"
            + " \"handler_calls\": %d, \"l1i_misses\": %d, \"l1d_accesses\": %d,"
            + " \"l1d_misses\": %d, \"l2_accesses\": %d, \"l2_misses\": %d, \"branches\": %d,"
            + " \"mispredictions\": %d, \"l1i_mpki\": %.4f, \"l1d_mpki\": %.4f,"
            + " \"l2_mpki\": %.4f, \"branch_mpki\": %.4f, \"l1i_accesses\": %d,"
            + " \"loads\": %d, \"stores\": %d, \"fp\": %d, \"l1d_read_misses\": %d,"
            + " \"l1d_write_misses\": %d, \"bubble_cycles\": %d,"
            + " \"handler_code_instructions\": %d",
        model,
        cycles,
        cpi(),
        applicationInstructions,
        insertedInstructions,
        applicationCycles(),
        insertedCycles(),
        handlerCycles(),
        stallCycles(),
        handlerCalls,
        l1iMisses,
        l1dAccesses,
        l1dMisses,
        l2Accesses,
        l2Misses,
        branches,
        mispredictions,
        perKilo(l1iMisses),
        perKilo(l1dMisses),
        perKilo(l2Misses),
        perKilo(mispredictions),
        l1iAccesses,
        loads,
        stores,
        fp,
        l1dReadMisses,
        l1dWriteMisses,
        bubbleCycles,
        handlerInstructions);
  }
}

package org.dise.runtime.sink;

import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;

/**
 * A profile sink: the runtime side of {@code call(handler, args...)} (first paper, Section 3.5).
 * Called while the replacement sequence executes, so registers hold their dynamic values.
 */
public interface Sink {
  /** The name the productions bind ({@code CallPair_handler}). */
  String name();

  /**
   * Records one event. {@code original} is the matched instruction, {@code args} the call's
   * arguments, {@code applicationInstructions} the application instructions retired so far.
   */
  void record(Cpu cpu, DecodedInsn original, long[] args, long applicationInstructions);

  /** The profile, hottest first, with addresses named from the program's symbols. */
  ProfileTable table(SymbolTable symbols);

  /**
   * Further renderings of the profile beside the CSV of {@link #table}, by file suffix (a RAP
   * tree as {@code json} and {@code txt}); {@code acf run --out DIR} writes each as {@code
   * DIR/NAME.SUFFIX}.
   */
  default Map<String, String> documents(SymbolTable symbols) {
    return Map.of();
  }

  /** A few lines of figures the summary prints after the top entries (memory, accuracy). */
  default List<String> summary() {
    return List.of();
  }
}

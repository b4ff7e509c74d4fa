package org.dise.runtime.dise;

import java.util.List;
import org.dise.runtime.isa.DecodedInsn;

/** The replacement table (first paper, Section 3.1): the sequences productions name. */
public record ReplacementTable(List<ReplacementSequence> sequences) {
  public ReplacementTable {
    sequences = List.copyOf(sequences);
  }

  public ReplacementSequence get(int index) {
    return sequences.get(index);
  }

  /** Sequence {@code index} with its directives filled in for {@code d}. */
  Step[] instantiate(int index, DecodedInsn d) {
    return InstantiationLogic.instantiate(sequences.get(index), d);
  }
}

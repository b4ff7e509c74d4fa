package org.dise.runtime.dise;

import java.util.List;

/** A replacement sequence as the replacement table holds it, before instantiation. */
public record ReplacementSequence(String name, List<ReplacementInsn> body) {
  public ReplacementSequence {
    body = List.copyOf(body);
  }

  /** Index of {@code T.INSN} in the body, or -1 when the sequence drops the instruction. */
  public int originalIndex() {
    for (int i = 0; i < body.size(); i++) {
      if (body.get(i) instanceof ReplacementInsn.Original) {
        return i;
      }
    }
    return -1;
  }
}

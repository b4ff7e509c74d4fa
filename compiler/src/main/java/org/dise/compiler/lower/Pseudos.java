package org.dise.compiler.lower;

import java.util.ArrayList;
import java.util.List;
import org.dise.compiler.diag.Span;
import org.dise.compiler.sem.CheckedReplacement.Arg;

/**
 * Expands a pseudo-instruction's operands into its base instruction's, after the runtime's one
 * table of pseudo-instructions ({@link org.dise.runtime.isa.PseudoInstruction}): {@code $n} is the
 * pseudo's n-th operand.
 */
final class Pseudos {
  private Pseudos() {}

  /** The base instruction's operands for a pseudo's operand template. */
  static List<Arg> operands(List<String> templates, List<Arg> ops, Span span) {
    List<Arg> out = new ArrayList<>();
    for (String t : templates) {
      out.add(operand(t, ops, span));
    }
    return out;
  }

  private static Arg operand(String t, List<Arg> ops, Span span) {
    if (t.startsWith("$")) {
      return ops.get(Integer.parseInt(t.substring(1)));
    }
    if (t.endsWith(")")) {
      int open = t.indexOf('(');
      return new Arg.Mem(
          operand(t.substring(0, open), ops, span),
          operand(t.substring(open + 1, t.length() - 1), ops, span),
          span);
    }
    if (t.matches("x\\d+")) {
      return new Arg.XReg(Integer.parseInt(t.substring(1)), span);
    }
    if (t.matches("-?\\d+")) {
      return new Arg.Imm(Long.parseLong(t), span);
    }
    return new Arg.Symbol(t, span);
  }
}

package org.dise.compiler.ast;

import java.util.List;
import org.dise.compiler.diag.Span;

/** One element of a replacement sequence (Section 3.1: a parameterised replacement). */
public sealed interface ReplStmt extends Node {
  /** {@code .loop:}, a label local to the sequence. */
  record LabelDef(String name, Span span) implements ReplStmt {}

  /** {@code T.INSN}: the original matched instruction. */
  record OriginalInsn(Span span) implements ReplStmt {}

  /**
   * {@code delete}: the sequence drops the original instruction on purpose. It emits nothing; it
   * tells the lost-instructions lint that leaving {@code T.INSN} out is meant.
   */
  record Delete(Span span) implements ReplStmt {}

  /** {@code call(handler, args...)}: a call into a profile sink. */
  record SinkCall(Name sink, List<Operand> args, java.util.Optional<Operand> result, Span span)
      implements ReplStmt {
    public SinkCall {
      args = List.copyOf(args);
    }
  }

  /** A RISC-V instruction; the mnemonic is lower case. */
  record Instruction(Name mnemonic, List<Operand> operands, Span span) implements ReplStmt {
    public Instruction {
      operands = List.copyOf(operands);
    }
  }
}

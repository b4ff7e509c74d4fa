package org.dise.compiler.ast;

import java.util.Optional;
import org.dise.compiler.diag.Span;

/** An operand of a replacement instruction or a sink call. */
public sealed interface Operand extends Node {
  record Imm(long value, String text, Span span) implements Operand {}

  /** An instantiation directive {@code T.RS1}, {@code T.IMM}... (upper case). */
  record Field(String name, Span span) implements Operand {}

  /** {@code T.INSN} as a call argument. */
  record Insn(Span span) implements Operand {}

  record DiseReg(String name, Span span) implements Operand {}

  /**
   * {@code symbol(NAME)} or {@code symbol_end(NAME)} as an immediate (see {@link Expr.SymbolAddr}).
   */
  record SymbolAddr(String symbol, boolean end, Span span) implements Operand {}

  record LabelRef(String name, Span span) implements Operand {}

  /** A register, constant, parameter, CSR or rounding-mode name. */
  record NameOp(Name name) implements Operand {
    @Override
    public Span span() {
      return name.span();
    }
  }

  /** {@code offset(base)}. */
  record Mem(Optional<Operand> offset, Operand base, Span span) implements Operand {}
}

package org.dise.compiler.sem;

import org.dise.compiler.ast.Expr;
import org.dise.compiler.diag.Span;

/**
 * A resolved pattern expression. Static parts ({@link Field}, constants, names) can be folded once
 * per static instruction; {@link Flag} reads a counter flag per dynamic instance. The two {@code
 * Dynamic*} nodes are kept only so that the static-pattern pass can report them.
 */
public sealed interface Pattern {
  Span span();

  record Const(long value, Span span) implements Pattern {}

  record Bool(boolean value, Span span) implements Pattern {}

  /** A static instruction field, {@code T.OP}, {@code T.PC}... */
  record Field(InstructionField field, Span span) implements Pattern {}

  /**
   * {@code symbol(NAME)} or {@code symbol_end(NAME)}: an address of the program, a constant once it
   * is loaded.
   */
  record SymbolAddr(String symbol, boolean end, Span span) implements Pattern {}

  /** A mnemonic or codeword, the value of {@code T.OP}. */
  record OpName(String mnemonic, Span span) implements Pattern {}

  /** An opcode class, the value of {@code T.OPCLASS}. */
  record OpClassName(String opClass, Span span) implements Pattern {}

  record Flag(Expr.Flag flag, int counter, Span span) implements Pattern {}

  record Unary(Expr.UnaryOp op, Pattern operand, Span span) implements Pattern {}

  record Binary(Expr.BinaryOp op, Pattern left, Pattern right, Span span) implements Pattern {}

  /** A value that exists only when code executes: a register's contents, a dynamic field. */
  record Dynamic(String what, Span span) implements Pattern {}
}

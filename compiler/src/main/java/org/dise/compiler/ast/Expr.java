package org.dise.compiler.ast;

import org.dise.compiler.diag.Span;

/** An expression: patterns, constants, argument values. */
public sealed interface Expr extends Node {
  /** An integer as written ({@code 0x10}, {@code 10K}); {@code text} keeps the spelling. */
  record NumberLit(long value, String text, Span span) implements Expr {}

  record BoolLit(boolean value, Span span) implements Expr {}

  /** A string, only meaningful as an argument value; {@code value} is unescaped. */
  record StringLit(String value, Span span) implements Expr {}

  /** A counter status flag: {@code zero_0}, {@code overflow(c)} (Section 3.3). */
  record FlagRef(Flag flag, CounterRef counter, Span span) implements Expr {}

  /** An instruction field {@code T.NAME}; {@code name} is upper case ({@code T.Target}). */
  record FieldRef(String name, Span span) implements Expr {}

  /** {@code T.INSN}, the whole original instruction (not a value a pattern can compare). */
  record InsnRef(Span span) implements Expr {}

  /** A DISE-private register {@code $dr0}. */
  record DiseRegRef(String name, Span span) implements Expr {}

  /**
   * {@code symbol(NAME)} or {@code symbol_end(NAME)}: the start or end address of a symbol of the
   * program the productions run on, known only when it is loaded.
   */
  record SymbolAddr(String symbol, boolean end, Span span) implements Expr {}

  /** A name: a constant, parameter, opcode class, mnemonic, register... resolved later. */
  record NameRef(Name name) implements Expr {
    @Override
    public Span span() {
      return name.span();
    }
  }

  /** Parentheses as written, kept so that lints see them and the formatter prints them. */
  record Paren(Expr inner, Span span) implements Expr {}

  record Unary(UnaryOp op, Expr operand, Span span) implements Expr {}

  record Binary(BinaryOp op, Expr left, Expr right, Span span) implements Expr {}

  enum Flag {
    ZERO,
    OVERFLOW;

    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  enum UnaryOp {
    NOT("!"),
    NEG("-"),
    COMPLEMENT("~");

    public final String symbol;

    UnaryOp(String symbol) {
      this.symbol = symbol;
    }
  }

  /** Binary operators with their precedence (higher binds tighter), as in the grammar. */
  enum BinaryOp {
    MUL("*", 10),
    DIV("/", 10),
    REM("%", 10),
    ADD("+", 9),
    SUB("-", 9),
    SHL("<<", 8),
    SHR(">>", 8),
    BIT_AND("&", 7),
    BIT_XOR("^", 6),
    BIT_OR("|", 5),
    LT("<", 4),
    LE("<=", 4),
    GT(">", 4),
    GE(">=", 4),
    EQ("==", 3),
    NE("!=", 3),
    AND("&&", 2),
    OR("||", 1);

    public final String symbol;
    public final int precedence;

    BinaryOp(String symbol, int precedence) {
      this.symbol = symbol;
      this.precedence = precedence;
    }

    public boolean isComparison() {
      return precedence == 3 || precedence == 4;
    }

    public boolean isLogical() {
      return this == AND || this == OR;
    }

    public static BinaryOp bySymbol(String s) {
      for (BinaryOp op : values()) {
        if (op.symbol.equals(s)) {
          return op;
        }
      }
      throw new IllegalArgumentException(s);
    }
  }
}

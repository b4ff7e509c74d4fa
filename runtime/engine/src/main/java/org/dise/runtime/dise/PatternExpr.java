package org.dise.runtime.dise;

import java.util.Locale;
import java.util.function.Predicate;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.OpClass;

/**
 * A pattern of the pattern table (first paper, Section 3.1): a function of the decoded
 * instruction's static fields and the HPS counter flags. {@link #fold} evaluates the static part
 * once per static instruction; what remains reads flags only.
 */
public sealed interface PatternExpr {
  /** An integer; conditions are 0 or 1. */
  record Const(long value) implements PatternExpr {}

  record Field(InsnField field) implements PatternExpr {}

  /**
   * {@code symbol(NAME)} or {@code symbol_end(NAME)}: a constant once the program is loaded ({@link
   * SymbolBinding} replaces it by a {@link Const}); an engine never folds one.
   */
  record SymbolAddr(SymbolRef ref) implements PatternExpr {}

  /**
   * {@code T.OP == mnemonic}: true for the instruction as encoded and for the base instruction a
   * compressed form expands to, so {@code addi} also matches {@code c.addi} (our choice).
   */
  record OpIs(String mnemonic) implements PatternExpr {
    public OpIs {
      mnemonic = mnemonic.toLowerCase(Locale.ROOT);
    }
  }

  /**
   * {@code T.OPCLASS == class}, with calls and returns told apart ({@link DecodedInsn#opClass}).
   */
  record ClassIs(OpClass opClass) implements PatternExpr {}

  /**
   * A counter's {@code zero_N} or {@code overflow_N} flag (Section 3.3). Its equality is written
   * out: a record's own is bootstrapped through method handles on first use, 15-20 ms of a run's
   * start (the conditionals table compares flags as every ACF with a trigger starts).
   */
  record Flag(boolean overflow, int counter) implements PatternExpr {
    @Override
    public boolean equals(Object o) {
      return o instanceof Flag f && f.overflow == overflow && f.counter == counter;
    }

    @Override
    public int hashCode() {
      return Boolean.hashCode(overflow) * 31 + counter;
    }

    @Override
    public String toString() {
      return (overflow ? "overflow_" : "zero_") + counter;
    }
  }

  record Unary(UnaryOp op, PatternExpr operand) implements PatternExpr {}

  record Binary(BinaryOp op, PatternExpr left, PatternExpr right) implements PatternExpr {}

  /** Unary operators. */
  enum UnaryOp {
    NOT,
    NEG,
    COMPLEMENT
  }

  /** Binary operators (the language's, with the same names). */
  enum BinaryOp {
    MUL,
    DIV,
    REM,
    ADD,
    SUB,
    SHL,
    SHR,
    BIT_AND,
    BIT_XOR,
    BIT_OR,
    LT,
    LE,
    GT,
    GE,
    EQ,
    NE,
    AND,
    OR
  }

  PatternExpr TRUE = new Const(1);
  PatternExpr FALSE = new Const(0);

  /**
   * The pattern with every static part evaluated for {@code d}: a {@link Const}, or an expression
   * over flags only (the part the conditionals table evaluates per dynamic instance).
   */
  static PatternExpr fold(PatternExpr e, DecodedInsn d) {
    if (e instanceof Field f) {
      return new Const(f.field().value(d));
    }
    if (e instanceof OpIs o) {
      return bool(d.op.mnemonic().equals(o.mnemonic()) || d.exec.mnemonic().equals(o.mnemonic()));
    }
    if (e instanceof ClassIs c) {
      return bool(d.opClass() == c.opClass());
    }
    if (e instanceof Unary u) {
      PatternExpr x = fold(u.operand(), d);
      return x instanceof Const c ? new Const(apply(u.op(), c.value())) : new Unary(u.op(), x);
    }
    if (e instanceof Binary b) {
      return foldBinary(b, d);
    }
    if (e instanceof SymbolAddr s) {
      throw new IllegalStateException(s.ref() + " is not bound to a program");
    }
    return e; // Const, Flag
  }

  private static PatternExpr foldBinary(Binary b, DecodedInsn d) {
    PatternExpr l = fold(b.left(), d);
    PatternExpr r = fold(b.right(), d);
    if (l instanceof Const lc && r instanceof Const rc) {
      return new Const(apply(b.op(), lc.value(), rc.value()));
    }
    if (b.op() == BinaryOp.AND || b.op() == BinaryOp.OR) {
      boolean and = b.op() == BinaryOp.AND;
      // A known side decides the result or leaves the other side's condition.
      for (int side = 0; side < 2; side++) {
        PatternExpr known = side == 0 ? l : r;
        PatternExpr other = side == 0 ? r : l;
        if (known instanceof Const c) {
          boolean v = c.value() != 0;
          return and ? (v ? other : FALSE) : (v ? TRUE : other);
        }
      }
    }
    return new Binary(b.op(), l, r);
  }

  /** Evaluates a flags-only expression with the given flag values. */
  static long eval(PatternExpr e, Predicate<Flag> flags) {
    if (e instanceof Const c) {
      return c.value();
    }
    if (e instanceof Flag f) {
      return flags.test(f) ? 1 : 0;
    }
    if (e instanceof Unary u) {
      return apply(u.op(), eval(u.operand(), flags));
    }
    if (e instanceof Binary b) {
      if (b.op() == BinaryOp.AND) {
        return eval(b.left(), flags) != 0 && eval(b.right(), flags) != 0 ? 1 : 0;
      }
      if (b.op() == BinaryOp.OR) {
        return eval(b.left(), flags) != 0 || eval(b.right(), flags) != 0 ? 1 : 0;
      }
      return apply(b.op(), eval(b.left(), flags), eval(b.right(), flags));
    }
    throw new IllegalStateException("static part not folded: " + e);
  }

  /**
   * The value of {@code e} for every instruction, with each flag's value from {@code flags} (null:
   * not known), or null when it depends on the instruction or on a flag not known. A known side of
   * {@code &&} or {@code ||} decides as it does at run time ({@link Dormancy}).
   */
  static Long constant(PatternExpr e, java.util.function.Function<Flag, Long> flags) {
    if (e instanceof Const c) {
      return c.value();
    }
    if (e instanceof Flag f) {
      return flags.apply(f);
    }
    if (e instanceof Unary u) {
      Long x = constant(u.operand(), flags);
      return x == null ? null : apply(u.op(), x);
    }
    if (e instanceof Binary b) {
      Long l = constant(b.left(), flags);
      Long r = constant(b.right(), flags);
      if (b.op() == BinaryOp.AND && (Long.valueOf(0).equals(l) || Long.valueOf(0).equals(r))) {
        return 0L;
      }
      if (b.op() == BinaryOp.OR && (l != null && l != 0 || r != null && r != 0)) {
        return 1L;
      }
      return l == null || r == null ? null : apply(b.op(), l, r);
    }
    return null; // a field, an opcode or class test, a symbol: the instruction's
  }

  /** The flags an expression reads, in first-use order. */
  static void flagsOf(PatternExpr e, java.util.Collection<Flag> out) {
    if (e instanceof Flag f) {
      if (!out.contains(f)) {
        out.add(f);
      }
    } else if (e instanceof Unary u) {
      flagsOf(u.operand(), out);
    } else if (e instanceof Binary b) {
      flagsOf(b.left(), out);
      flagsOf(b.right(), out);
    }
  }

  private static Const bool(boolean b) {
    return b ? (Const) TRUE : (Const) FALSE;
  }

  /**
   * What {@code op} makes of {@code v}: the one definition of the operators, for the decode stage
   * and for the compiler's constant folding.
   */
  static long apply(UnaryOp op, long v) {
    return switch (op) {
      case NOT -> v == 0 ? 1 : 0;
      case NEG -> -v;
      case COMPLEMENT -> ~v;
    };
  }

  /** What {@code op} makes of {@code a} and {@code b} (see {@link #apply(UnaryOp, long)}). */
  static long apply(BinaryOp op, long a, long b) {
    return switch (op) {
      case MUL -> a * b;
      // Division by zero gives 0 rather than stopping the decode stage (our choice).
      case DIV -> b == 0 ? 0 : a / b;
      case REM -> b == 0 ? 0 : a % b;
      case ADD -> a + b;
      case SUB -> a - b;
      case SHL -> a << b;
      case SHR -> a >> b;
      case BIT_AND -> a & b;
      case BIT_XOR -> a ^ b;
      case BIT_OR -> a | b;
      case LT -> a < b ? 1 : 0;
      case LE -> a <= b ? 1 : 0;
      case GT -> a > b ? 1 : 0;
      case GE -> a >= b ? 1 : 0;
      case EQ -> a == b ? 1 : 0;
      case NE -> a != b ? 1 : 0;
      case AND -> a != 0 && b != 0 ? 1 : 0;
      case OR -> a != 0 || b != 0 ? 1 : 0;
    };
  }
}

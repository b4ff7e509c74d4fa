package org.dise.runtime.dise;

/**
 * An operand of a replacement-table instruction before instantiation: a constant, a register, a
 * DISE-private register, or a directive the instantiation logic fills in from the matched
 * instruction (Section 3.1).
 */
public record Slot(Kind kind, long value, SymbolRef symbol) {
  /** What {@link #value} means. */
  public enum Kind {
    /** An immediate, or unused. */
    CONST,
    /** An integer register number. */
    XREG,
    /** A floating-point register number. */
    FREG,
    /** A DISE-private register {@code $drN}. */
    DISE,
    /** A directive: {@code value} is an {@link InsnField} ordinal. */
    FIELD,
    /**
     * A program symbol's address, {@link #symbol}: {@link SymbolBinding} makes it a {@link #CONST}
     * when the program is loaded.
     */
    SYMBOL
  }

  public Slot {
    if (kind == Kind.SYMBOL && symbol == null
        || symbol != null && kind != Kind.SYMBOL && kind != Kind.CONST) {
      throw new IllegalArgumentException(
          "a SYMBOL slot names a symbol; a CONST slot may name the one it was bound from");
    }
  }

  /**
   * A constant that {@link SymbolBinding} bound from {@code ref}: the address, remembering which
   * symbol it is so that a report can print the name (a map keyed by {@code symbol(hot)} shows
   * {@code hot}, not 67338).
   */
  public static Slot bound(long address, SymbolRef ref) {
    return new Slot(Kind.CONST, address, ref);
  }

  public Slot(Kind kind, long value) {
    this(kind, value, null);
  }

  public static Slot symbol(SymbolRef ref) {
    return new Slot(Kind.SYMBOL, 0, ref);
  }

  public static final Slot NONE = new Slot(Kind.CONST, 0);

  public static Slot constant(long v) {
    return new Slot(Kind.CONST, v);
  }

  public static Slot x(int n) {
    return new Slot(Kind.XREG, n);
  }

  public static Slot f(int n) {
    return new Slot(Kind.FREG, n);
  }

  public static Slot dise(int n) {
    return new Slot(Kind.DISE, n);
  }

  public static Slot field(InsnField field) {
    return new Slot(Kind.FIELD, field.ordinal());
  }

  @Override
  public String toString() {
    return switch (kind) {
      case CONST -> Long.toString(value);
      case XREG -> "x" + value;
      case FREG -> "f" + value;
      case DISE -> "$dr" + value;
      case FIELD -> "T." + InsnField.values()[(int) value];
      case SYMBOL -> symbol.spelling();
    };
  }
}

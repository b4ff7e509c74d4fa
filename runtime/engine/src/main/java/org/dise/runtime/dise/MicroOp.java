package org.dise.runtime.dise;

/**
 * An HPS conditional-control micro-op (first paper, Section 3.3): {@code inc_N}, {@code dec_N}, or
 * {@code set_N(src)} where the source is an HPS register or a constant.
 */
public record MicroOp(Kind kind, int counter, boolean fromRegister, long source) {
  /** What the micro-op does to its counter. */
  public enum Kind {
    INC,
    DEC,
    SET
  }

  public static MicroOp inc(int counter) {
    return new MicroOp(Kind.INC, counter, false, 0);
  }

  public static MicroOp dec(int counter) {
    return new MicroOp(Kind.DEC, counter, false, 0);
  }

  public static MicroOp setFromRegister(int counter, int register) {
    return new MicroOp(Kind.SET, counter, true, register);
  }

  public static MicroOp setConstant(int counter, long value) {
    return new MicroOp(Kind.SET, counter, false, value);
  }

  @Override
  public String toString() {
    return switch (kind) {
      case INC -> "inc_" + counter;
      case DEC -> "dec_" + counter;
      case SET -> "set_" + counter + "(" + (fromRegister ? "HPS_R" + source : source) + ")";
    };
  }
}

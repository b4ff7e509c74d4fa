package org.dise.compiler.sem;

import java.util.Locale;

/**
 * The fields of the decoded instruction {@code T} (Sections 3.4, 3.5). Static fields are known at
 * decode time and may appear in patterns and as instantiation directives; dynamic ones exist only
 * while the instruction executes, so the language rejects them (our choice: the papers' patterns
 * use static fields only).
 */
public enum InstructionField {
  OP(true, Kind.OP),
  OPCLASS(true, Kind.OPCLASS),
  PC(true, Kind.INT),
  TARGET(true, Kind.INT),
  RS1(true, Kind.REG),
  RS2(true, Kind.REG),
  RS3(true, Kind.REG),
  RD(true, Kind.REG),
  IMM(true, Kind.INT),
  SIZE(true, Kind.INT),
  CSR(true, Kind.INT),
  ADDR(false, Kind.INT),
  VALUE(false, Kind.INT),
  RS1_VALUE(false, Kind.INT),
  RS2_VALUE(false, Kind.INT),
  NEXT_PC(false, Kind.INT),
  /**
   * The id of the guest thread that runs the instruction (its Linux tid; the pid for the first
   * thread): a call argument, so that map keys and sinks tell threads apart.
   */
  TID(false, Kind.INT);

  /** What a field's value is: compared to names (OP, OPCLASS), a register number, an integer. */
  public enum Kind {
    OP,
    OPCLASS,
    REG,
    INT
  }

  private final boolean isStatic;
  private final Kind kind;

  InstructionField(boolean isStatic, Kind kind) {
    this.isStatic = isStatic;
    this.kind = kind;
  }

  public boolean isStatic() {
    return isStatic;
  }

  public Kind kind() {
    return kind;
  }

  public String spelling() {
    return "T." + name();
  }

  public static InstructionField byName(String upper) {
    for (InstructionField f : values()) {
      if (f.name().equals(upper.toUpperCase(Locale.ROOT))) {
        return f;
      }
    }
    return null;
  }
}

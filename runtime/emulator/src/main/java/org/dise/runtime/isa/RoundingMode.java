package org.dise.runtime.isa;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The rounding modes of the F and D extensions by their 3-bit encoding in an instruction's rm field
 * (5 and 6 are reserved; 7, {@code dyn}, takes the mode from the frm CSR). One table, read by the
 * disassembler, the compiler's operand checks and lowering, and the FPU's callers.
 */
public enum RoundingMode {
  RNE(0),
  RTZ(1),
  RDN(2),
  RUP(3),
  RMM(4),
  DYN(7);

  private final int encoding;

  RoundingMode(int encoding) {
    this.encoding = encoding;
  }

  public int encoding() {
    return encoding;
  }

  /** The assembly name ({@code rne}, ..., {@code dyn}). */
  public String asmName() {
    return name().toLowerCase(Locale.ROOT);
  }

  private static final RoundingMode[] ALL = values();

  public static Optional<RoundingMode> byEncoding(int rm) {
    return Arrays.stream(ALL).filter(m -> m.encoding == rm).findFirst();
  }

  /** By assembly name, case-insensitively. */
  public static Optional<RoundingMode> byName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return Arrays.stream(ALL).filter(m -> m.asmName().equals(n)).findFirst();
  }

  /** How objdump shows an rm field: the mode's name, {@code rm5}/{@code rm6} when reserved. */
  public static String display(int rm) {
    return byEncoding(rm).map(RoundingMode::asmName).orElse("rm" + rm);
  }

  /** Every name, in encoding order. */
  public static List<String> names() {
    return Arrays.stream(ALL).map(RoundingMode::asmName).toList();
  }
}

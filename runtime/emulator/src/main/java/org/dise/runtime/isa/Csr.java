package org.dise.runtime.isa;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The control and status registers the emulator implements (user mode: the F/D status and the
 * read-only counters), with their numbers, assembly names and access. One table, read by the cpu,
 * the disassembler and the compiler's lowering of replacement sequences.
 */
public enum Csr {
  FFLAGS(0x001, "fflags", true, "frflags", "fsflags", "fsflagsi"),
  FRM(0x002, "frm", true, "frrm", "fsrm", "fsrmi"),
  FCSR(0x003, "fcsr", true, "frcsr", "fscsr", null),
  CYCLE(0xc00, "cycle", false, "rdcycle", null, null),
  TIME(0xc01, "time", false, "rdtime", null, null),
  INSTRET(0xc02, "instret", false, "rdinstret", null, null);

  private final int number;
  private final String asmName;
  private final boolean writable;
  private final String readPseudo;
  private final String writePseudo;
  private final String writeImmPseudo;

  Csr(
      int number,
      String asmName,
      boolean writable,
      String readPseudo,
      String writePseudo,
      String writeImmPseudo) {
    this.number = number;
    this.asmName = asmName;
    this.writable = writable;
    this.readPseudo = readPseudo;
    this.writePseudo = writePseudo;
    this.writeImmPseudo = writeImmPseudo;
  }

  /** The pseudo-instruction for {@code csrrs rd, csr, x0} ({@code frflags}), or null. */
  public String readPseudo() {
    return readPseudo;
  }

  /** The pseudo-instruction for {@code csrrw rd, csr, rs} ({@code fsflags}), or null. */
  public String writePseudo() {
    return writePseudo;
  }

  /** The pseudo-instruction for {@code csrrwi rd, csr, zimm} ({@code fsflagsi}), or null. */
  public String writeImmPseudo() {
    return writeImmPseudo;
  }

  /** The 12-bit CSR address. */
  public int number() {
    return number;
  }

  /** The name assembly and objdump use ({@code fflags}, {@code instret}). */
  public String asmName() {
    return asmName;
  }

  /** False for the counters, which a write makes an illegal instruction. */
  public boolean writable() {
    return writable;
  }

  private static final Csr[] ALL = values();

  public static Optional<Csr> byNumber(int number) {
    return Optional.ofNullable(numbered(number));
  }

  /**
   * The CSR numbered {@code number}, or null: byNumber without an Optional, for the interpreter.
   */
  public static Csr numbered(int number) {
    for (Csr c : ALL) {
      if (c.number == number) {
        return c;
      }
    }
    return null;
  }

  /** Whether the CSR is one of the F extension's (fflags, frm, fcsr): the {@code Fpu}'s state. */
  public boolean floatingPoint() {
    return this == FFLAGS || this == FRM || this == FCSR;
  }

  /** By assembly name, case-insensitively. */
  public static Optional<Csr> byName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return Arrays.stream(ALL).filter(c -> c.asmName.equals(n)).findFirst();
  }

  /** Every name, in table order (for messages: "the emulator has fflags, frm, ..."). */
  public static List<String> names() {
    return Arrays.stream(ALL).map(Csr::asmName).toList();
  }
}

package org.dise.runtime.isa;

import java.util.Locale;

/**
 * The operation class of an instruction, as patterns see it in {@code T.OPCLASS}.
 *
 * <p>The table gives each opcode a base class; the decoder's {@code DecodedInsn.opClass()} (in the
 * emulator) refines {@code JUMP} into {@code PROC_CALL} (jal/jalr writing ra or t0) and {@code
 * RETURN} (jalr x0 through ra or t0), following the RISC-V calling-convention hints.
 */
public enum OpClass {
  BRANCH,
  JUMP,
  PROC_CALL,
  RETURN,
  LOAD,
  STORE,
  ALU,
  MULDIV,
  FP,
  ATOMIC,
  SYSTEM,
  FENCE,
  CODEWORD;

  /** The name used in the ACF language, e.g. {@code proc_call}. */
  public String acfName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static OpClass byAcfName(String name) {
    for (OpClass c : values()) {
      if (c.acfName().equalsIgnoreCase(name)) {
        return c;
      }
    }
    return null;
  }
}

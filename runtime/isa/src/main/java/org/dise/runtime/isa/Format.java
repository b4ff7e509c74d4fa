package org.dise.runtime.isa;

/**
 * Instruction encoding formats: how the decoder extracts register numbers and the immediate.
 * Compressed formats follow the RVC chapter of the unprivileged specification.
 */
public enum Format {
  R,
  R4,
  I,
  I_SHIFT64,
  I_SHIFT32,
  S,
  B,
  U,
  J,
  CSR,
  CSR_I,
  AMO,
  FENCE,
  NONE,
  // compressed formats
  CR,
  CI,
  CSS,
  CIW,
  CL,
  CS,
  CA,
  CB,
  CJ;

  public boolean compressed() {
    return ordinal() >= CR.ordinal();
  }
}

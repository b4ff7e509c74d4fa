package org.dise.compiler.isa;

/** The kind of one operand position of an instruction, as the front end checks it. */
public enum OperandKind {
  /** An integer register ({@code a0}, {@code x5}, {@code T.RS1}, ...). */
  XREG,
  /** A floating-point register. */
  FREG,
  /** A signed immediate. */
  IMM,
  /** A 20-bit upper immediate. */
  UIMM,
  /** A shift amount. */
  SHAMT,
  /** {@code offset(base)}. */
  MEM,
  /** {@code (base)}, an atomic's address. */
  AMO_ADDR,
  /** A branch target: a label of the sequence. */
  BRANCH_TARGET,
  /** A jump target: a label of the sequence. */
  JUMP_TARGET,
  /** A CSR name or number. */
  CSR,
  /** A 5-bit unsigned immediate. */
  ZIMM,
  /** A rounding mode; optional, always last. */
  RM,
  /** A fence set ({@code rw}, {@code iorw}); optional. */
  FENCE_SET
}

package org.dise.runtime.isa;

/**
 * One operand position in the assembly syntax of an instruction, as objdump prints it and the
 * assembler of replacement sequences reads it.
 */
public enum Operand {
  /** Integer destination register. */
  RD,
  RS1,
  RS2,
  /** Floating-point registers. */
  FRD,
  FRS1,
  FRS2,
  FRS3,
  /** A signed 12-bit immediate (decimal). */
  IMM,
  /** A 20-bit upper immediate (hex), lui/auipc. */
  UIMM,
  /** A shift amount (hex in objdump syntax). */
  SHAMT,
  /** {@code offset(rs1)}: a load or store address. */
  MEM,
  /** {@code (rs1)}: an atomic's address. */
  AMO_ADDR,
  /** A conditional branch target (PC-relative). */
  BRANCH_TARGET,
  /** A jal target (PC-relative). */
  JUMP_TARGET,
  /** A CSR name or number. */
  CSR,
  /** A 5-bit zero-extended immediate of the csr*i forms. */
  ZIMM,
  /** An optional rounding mode ({@code rne}, {@code rtz}, ..., default {@code dyn}). */
  RM,
  /** Fence predecessor and successor sets. */
  PRED,
  SUCC;

  static Operand parse(String s) {
    return switch (s) {
      case "rd" -> RD;
      case "rs1" -> RS1;
      case "rs2" -> RS2;
      case "frd" -> FRD;
      case "frs1" -> FRS1;
      case "frs2" -> FRS2;
      case "frs3" -> FRS3;
      case "imm" -> IMM;
      case "uimm" -> UIMM;
      case "shamt" -> SHAMT;
      case "mem" -> MEM;
      case "(rs1)" -> AMO_ADDR;
      case "btarget" -> BRANCH_TARGET;
      case "jtarget" -> JUMP_TARGET;
      case "csr" -> CSR;
      case "zimm" -> ZIMM;
      case "rm" -> RM;
      case "pred" -> PRED;
      case "succ" -> SUCC;
      default -> throw new IllegalArgumentException("unknown operand kind " + s);
    };
  }
}

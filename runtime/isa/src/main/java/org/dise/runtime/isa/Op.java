package org.dise.runtime.isa;

import static org.dise.runtime.isa.Extension.*;
import static org.dise.runtime.isa.Format.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The RV64GC instruction set as data: one row per mnemonic with its match and mask bits, encoding
 * format, extension, operation class and assembly operands. This single table drives the decoder,
 * the disassembler, the assembler of replacement sequences and the ISA tests (after Spike's
 * generated opcode table).
 *
 * <p>Compressed rows name the base instruction they expand to; the interpreter only ever executes
 * base instructions.
 */
public enum Op {
  // ---- RV64I
  LUI("lui", 0x00000037, 0x0000007f, U, Extension.I, OpClass.ALU, "rd,uimm"),
  AUIPC("auipc", 0x00000017, 0x0000007f, U, Extension.I, OpClass.ALU, "rd,uimm"),
  JAL("jal", 0x0000006f, 0x0000007f, J, Extension.I, OpClass.JUMP, "rd,jtarget"),
  JALR("jalr", 0x00000067, 0x0000707f, Format.I, Extension.I, OpClass.JUMP, "rd,mem"),
  BEQ("beq", 0x00000063, 0x0000707f, B, Extension.I, OpClass.BRANCH, "rs1,rs2,btarget"),
  BNE("bne", 0x00001063, 0x0000707f, B, Extension.I, OpClass.BRANCH, "rs1,rs2,btarget"),
  BLT("blt", 0x00004063, 0x0000707f, B, Extension.I, OpClass.BRANCH, "rs1,rs2,btarget"),
  BGE("bge", 0x00005063, 0x0000707f, B, Extension.I, OpClass.BRANCH, "rs1,rs2,btarget"),
  BLTU("bltu", 0x00006063, 0x0000707f, B, Extension.I, OpClass.BRANCH, "rs1,rs2,btarget"),
  BGEU("bgeu", 0x00007063, 0x0000707f, B, Extension.I, OpClass.BRANCH, "rs1,rs2,btarget"),
  LB("lb", 0x00000003, 0x0000707f, Format.I, Extension.I, OpClass.LOAD, "rd,mem"),
  LH("lh", 0x00001003, 0x0000707f, Format.I, Extension.I, OpClass.LOAD, "rd,mem"),
  LW("lw", 0x00002003, 0x0000707f, Format.I, Extension.I, OpClass.LOAD, "rd,mem"),
  LD("ld", 0x00003003, 0x0000707f, Format.I, Extension.I, OpClass.LOAD, "rd,mem"),
  LBU("lbu", 0x00004003, 0x0000707f, Format.I, Extension.I, OpClass.LOAD, "rd,mem"),
  LHU("lhu", 0x00005003, 0x0000707f, Format.I, Extension.I, OpClass.LOAD, "rd,mem"),
  LWU("lwu", 0x00006003, 0x0000707f, Format.I, Extension.I, OpClass.LOAD, "rd,mem"),
  SB("sb", 0x00000023, 0x0000707f, S, Extension.I, OpClass.STORE, "rs2,mem"),
  SH("sh", 0x00001023, 0x0000707f, S, Extension.I, OpClass.STORE, "rs2,mem"),
  SW("sw", 0x00002023, 0x0000707f, S, Extension.I, OpClass.STORE, "rs2,mem"),
  SD("sd", 0x00003023, 0x0000707f, S, Extension.I, OpClass.STORE, "rs2,mem"),
  ADDI("addi", 0x00000013, 0x0000707f, Format.I, Extension.I, OpClass.ALU, "rd,rs1,imm"),
  SLTI("slti", 0x00002013, 0x0000707f, Format.I, Extension.I, OpClass.ALU, "rd,rs1,imm"),
  SLTIU("sltiu", 0x00003013, 0x0000707f, Format.I, Extension.I, OpClass.ALU, "rd,rs1,imm"),
  XORI("xori", 0x00004013, 0x0000707f, Format.I, Extension.I, OpClass.ALU, "rd,rs1,imm"),
  ORI("ori", 0x00006013, 0x0000707f, Format.I, Extension.I, OpClass.ALU, "rd,rs1,imm"),
  ANDI("andi", 0x00007013, 0x0000707f, Format.I, Extension.I, OpClass.ALU, "rd,rs1,imm"),
  SLLI("slli", 0x00001013, 0xfc00707f, I_SHIFT64, Extension.I, OpClass.ALU, "rd,rs1,shamt"),
  SRLI("srli", 0x00005013, 0xfc00707f, I_SHIFT64, Extension.I, OpClass.ALU, "rd,rs1,shamt"),
  SRAI("srai", 0x40005013, 0xfc00707f, I_SHIFT64, Extension.I, OpClass.ALU, "rd,rs1,shamt"),
  ADD("add", 0x00000033, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  SUB("sub", 0x40000033, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  SLL("sll", 0x00001033, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  SLT("slt", 0x00002033, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  SLTU("sltu", 0x00003033, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  XOR("xor", 0x00004033, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  SRL("srl", 0x00005033, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  SRA("sra", 0x40005033, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  OR("or", 0x00006033, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  AND("and", 0x00007033, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  ADDIW("addiw", 0x0000001b, 0x0000707f, Format.I, Extension.I, OpClass.ALU, "rd,rs1,imm"),
  SLLIW("slliw", 0x0000101b, 0xfe00707f, I_SHIFT32, Extension.I, OpClass.ALU, "rd,rs1,shamt"),
  SRLIW("srliw", 0x0000501b, 0xfe00707f, I_SHIFT32, Extension.I, OpClass.ALU, "rd,rs1,shamt"),
  SRAIW("sraiw", 0x4000501b, 0xfe00707f, I_SHIFT32, Extension.I, OpClass.ALU, "rd,rs1,shamt"),
  ADDW("addw", 0x0000003b, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  SUBW("subw", 0x4000003b, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  SLLW("sllw", 0x0000103b, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  SRLW("srlw", 0x0000503b, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  SRAW("sraw", 0x4000503b, 0xfe00707f, R, Extension.I, OpClass.ALU, "rd,rs1,rs2"),
  FENCE("fence", 0x0000000f, 0x0000707f, Format.FENCE, Extension.I, OpClass.FENCE, "pred,succ"),
  ECALL("ecall", 0x00000073, 0xffffffff, NONE, Extension.I, OpClass.SYSTEM, ""),
  EBREAK("ebreak", 0x00100073, 0xffffffff, NONE, Extension.I, OpClass.SYSTEM, ""),
  // ---- Zifencei, Zicsr
  FENCE_I("fence.i", 0x0000100f, 0x0000707f, Format.I, ZIFENCEI, OpClass.FENCE, ""),
  CSRRW("csrrw", 0x00001073, 0x0000707f, Format.CSR, ZICSR, OpClass.SYSTEM, "rd,csr,rs1"),
  CSRRS("csrrs", 0x00002073, 0x0000707f, Format.CSR, ZICSR, OpClass.SYSTEM, "rd,csr,rs1"),
  CSRRC("csrrc", 0x00003073, 0x0000707f, Format.CSR, ZICSR, OpClass.SYSTEM, "rd,csr,rs1"),
  CSRRWI("csrrwi", 0x00005073, 0x0000707f, CSR_I, ZICSR, OpClass.SYSTEM, "rd,csr,zimm"),
  CSRRSI("csrrsi", 0x00006073, 0x0000707f, CSR_I, ZICSR, OpClass.SYSTEM, "rd,csr,zimm"),
  CSRRCI("csrrci", 0x00007073, 0x0000707f, CSR_I, ZICSR, OpClass.SYSTEM, "rd,csr,zimm"),
  // ---- M
  MUL("mul", 0x02000033, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  MULH("mulh", 0x02001033, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  MULHSU("mulhsu", 0x02002033, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  MULHU("mulhu", 0x02003033, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  DIV("div", 0x02004033, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  DIVU("divu", 0x02005033, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  REM("rem", 0x02006033, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  REMU("remu", 0x02007033, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  MULW("mulw", 0x0200003b, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  DIVW("divw", 0x0200403b, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  DIVUW("divuw", 0x0200503b, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  REMW("remw", 0x0200603b, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  REMUW("remuw", 0x0200703b, 0xfe00707f, R, M, OpClass.MULDIV, "rd,rs1,rs2"),
  // ---- A (the aq/rl bits 26:25 are free in the mask and shown as a mnemonic suffix)
  LR_W("lr.w", 0x1000202f, 0xf9f0707f, AMO, A, OpClass.ATOMIC, "rd,(rs1)"),
  SC_W("sc.w", 0x1800202f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOSWAP_W("amoswap.w", 0x0800202f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOADD_W("amoadd.w", 0x0000202f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOXOR_W("amoxor.w", 0x2000202f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOAND_W("amoand.w", 0x6000202f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOOR_W("amoor.w", 0x4000202f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOMIN_W("amomin.w", 0x8000202f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOMAX_W("amomax.w", 0xa000202f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOMINU_W("amominu.w", 0xc000202f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOMAXU_W("amomaxu.w", 0xe000202f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  LR_D("lr.d", 0x1000302f, 0xf9f0707f, AMO, A, OpClass.ATOMIC, "rd,(rs1)"),
  SC_D("sc.d", 0x1800302f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOSWAP_D("amoswap.d", 0x0800302f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOADD_D("amoadd.d", 0x0000302f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOXOR_D("amoxor.d", 0x2000302f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOAND_D("amoand.d", 0x6000302f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOOR_D("amoor.d", 0x4000302f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOMIN_D("amomin.d", 0x8000302f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOMAX_D("amomax.d", 0xa000302f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOMINU_D("amominu.d", 0xc000302f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  AMOMAXU_D("amomaxu.d", 0xe000302f, 0xf800707f, AMO, A, OpClass.ATOMIC, "rd,rs2,(rs1)"),
  // ---- F
  FLW("flw", 0x00002007, 0x0000707f, Format.I, F, OpClass.LOAD, "frd,mem"),
  FSW("fsw", 0x00002027, 0x0000707f, S, F, OpClass.STORE, "frs2,mem"),
  FMADD_S("fmadd.s", 0x00000043, 0x0600007f, R4, F, OpClass.FP, "frd,frs1,frs2,frs3,rm"),
  FMSUB_S("fmsub.s", 0x00000047, 0x0600007f, R4, F, OpClass.FP, "frd,frs1,frs2,frs3,rm"),
  FNMSUB_S("fnmsub.s", 0x0000004b, 0x0600007f, R4, F, OpClass.FP, "frd,frs1,frs2,frs3,rm"),
  FNMADD_S("fnmadd.s", 0x0000004f, 0x0600007f, R4, F, OpClass.FP, "frd,frs1,frs2,frs3,rm"),
  FADD_S("fadd.s", 0x00000053, 0xfe00007f, R, F, OpClass.FP, "frd,frs1,frs2,rm"),
  FSUB_S("fsub.s", 0x08000053, 0xfe00007f, R, F, OpClass.FP, "frd,frs1,frs2,rm"),
  FMUL_S("fmul.s", 0x10000053, 0xfe00007f, R, F, OpClass.FP, "frd,frs1,frs2,rm"),
  FDIV_S("fdiv.s", 0x18000053, 0xfe00007f, R, F, OpClass.FP, "frd,frs1,frs2,rm"),
  FSQRT_S("fsqrt.s", 0x58000053, 0xfff0007f, R, F, OpClass.FP, "frd,frs1,rm"),
  FSGNJ_S("fsgnj.s", 0x20000053, 0xfe00707f, R, F, OpClass.FP, "frd,frs1,frs2"),
  FSGNJN_S("fsgnjn.s", 0x20001053, 0xfe00707f, R, F, OpClass.FP, "frd,frs1,frs2"),
  FSGNJX_S("fsgnjx.s", 0x20002053, 0xfe00707f, R, F, OpClass.FP, "frd,frs1,frs2"),
  FMIN_S("fmin.s", 0x28000053, 0xfe00707f, R, F, OpClass.FP, "frd,frs1,frs2"),
  FMAX_S("fmax.s", 0x28001053, 0xfe00707f, R, F, OpClass.FP, "frd,frs1,frs2"),
  FCVT_W_S("fcvt.w.s", 0xc0000053, 0xfff0007f, R, F, OpClass.FP, "rd,frs1,rm"),
  FCVT_WU_S("fcvt.wu.s", 0xc0100053, 0xfff0007f, R, F, OpClass.FP, "rd,frs1,rm"),
  FCVT_L_S("fcvt.l.s", 0xc0200053, 0xfff0007f, R, F, OpClass.FP, "rd,frs1,rm"),
  FCVT_LU_S("fcvt.lu.s", 0xc0300053, 0xfff0007f, R, F, OpClass.FP, "rd,frs1,rm"),
  FMV_X_W("fmv.x.w", 0xe0000053, 0xfff0707f, R, F, OpClass.FP, "rd,frs1"),
  FCLASS_S("fclass.s", 0xe0001053, 0xfff0707f, R, F, OpClass.FP, "rd,frs1"),
  FEQ_S("feq.s", 0xa0002053, 0xfe00707f, R, F, OpClass.FP, "rd,frs1,frs2"),
  FLT_S("flt.s", 0xa0001053, 0xfe00707f, R, F, OpClass.FP, "rd,frs1,frs2"),
  FLE_S("fle.s", 0xa0000053, 0xfe00707f, R, F, OpClass.FP, "rd,frs1,frs2"),
  FCVT_S_W("fcvt.s.w", 0xd0000053, 0xfff0007f, R, F, OpClass.FP, "frd,rs1,rm"),
  FCVT_S_WU("fcvt.s.wu", 0xd0100053, 0xfff0007f, R, F, OpClass.FP, "frd,rs1,rm"),
  FCVT_S_L("fcvt.s.l", 0xd0200053, 0xfff0007f, R, F, OpClass.FP, "frd,rs1,rm"),
  FCVT_S_LU("fcvt.s.lu", 0xd0300053, 0xfff0007f, R, F, OpClass.FP, "frd,rs1,rm"),
  FMV_W_X("fmv.w.x", 0xf0000053, 0xfff0707f, R, F, OpClass.FP, "frd,rs1"),
  // ---- D
  FLD("fld", 0x00003007, 0x0000707f, Format.I, D, OpClass.LOAD, "frd,mem"),
  FSD("fsd", 0x00003027, 0x0000707f, S, D, OpClass.STORE, "frs2,mem"),
  FMADD_D("fmadd.d", 0x02000043, 0x0600007f, R4, D, OpClass.FP, "frd,frs1,frs2,frs3,rm"),
  FMSUB_D("fmsub.d", 0x02000047, 0x0600007f, R4, D, OpClass.FP, "frd,frs1,frs2,frs3,rm"),
  FNMSUB_D("fnmsub.d", 0x0200004b, 0x0600007f, R4, D, OpClass.FP, "frd,frs1,frs2,frs3,rm"),
  FNMADD_D("fnmadd.d", 0x0200004f, 0x0600007f, R4, D, OpClass.FP, "frd,frs1,frs2,frs3,rm"),
  FADD_D("fadd.d", 0x02000053, 0xfe00007f, R, D, OpClass.FP, "frd,frs1,frs2,rm"),
  FSUB_D("fsub.d", 0x0a000053, 0xfe00007f, R, D, OpClass.FP, "frd,frs1,frs2,rm"),
  FMUL_D("fmul.d", 0x12000053, 0xfe00007f, R, D, OpClass.FP, "frd,frs1,frs2,rm"),
  FDIV_D("fdiv.d", 0x1a000053, 0xfe00007f, R, D, OpClass.FP, "frd,frs1,frs2,rm"),
  FSQRT_D("fsqrt.d", 0x5a000053, 0xfff0007f, R, D, OpClass.FP, "frd,frs1,rm"),
  FSGNJ_D("fsgnj.d", 0x22000053, 0xfe00707f, R, D, OpClass.FP, "frd,frs1,frs2"),
  FSGNJN_D("fsgnjn.d", 0x22001053, 0xfe00707f, R, D, OpClass.FP, "frd,frs1,frs2"),
  FSGNJX_D("fsgnjx.d", 0x22002053, 0xfe00707f, R, D, OpClass.FP, "frd,frs1,frs2"),
  FMIN_D("fmin.d", 0x2a000053, 0xfe00707f, R, D, OpClass.FP, "frd,frs1,frs2"),
  FMAX_D("fmax.d", 0x2a001053, 0xfe00707f, R, D, OpClass.FP, "frd,frs1,frs2"),
  FCVT_S_D("fcvt.s.d", 0x40100053, 0xfff0007f, R, D, OpClass.FP, "frd,frs1,rm"),
  FCVT_D_S("fcvt.d.s", 0x42000053, 0xfff0007f, R, D, OpClass.FP, "frd,frs1,rm"),
  FEQ_D("feq.d", 0xa2002053, 0xfe00707f, R, D, OpClass.FP, "rd,frs1,frs2"),
  FLT_D("flt.d", 0xa2001053, 0xfe00707f, R, D, OpClass.FP, "rd,frs1,frs2"),
  FLE_D("fle.d", 0xa2000053, 0xfe00707f, R, D, OpClass.FP, "rd,frs1,frs2"),
  FCLASS_D("fclass.d", 0xe2001053, 0xfff0707f, R, D, OpClass.FP, "rd,frs1"),
  FCVT_W_D("fcvt.w.d", 0xc2000053, 0xfff0007f, R, D, OpClass.FP, "rd,frs1,rm"),
  FCVT_WU_D("fcvt.wu.d", 0xc2100053, 0xfff0007f, R, D, OpClass.FP, "rd,frs1,rm"),
  FCVT_L_D("fcvt.l.d", 0xc2200053, 0xfff0007f, R, D, OpClass.FP, "rd,frs1,rm"),
  FCVT_LU_D("fcvt.lu.d", 0xc2300053, 0xfff0007f, R, D, OpClass.FP, "rd,frs1,rm"),
  FCVT_D_W("fcvt.d.w", 0xd2000053, 0xfff0007f, R, D, OpClass.FP, "frd,rs1,rm"),
  FCVT_D_WU("fcvt.d.wu", 0xd2100053, 0xfff0007f, R, D, OpClass.FP, "frd,rs1,rm"),
  FCVT_D_L("fcvt.d.l", 0xd2200053, 0xfff0007f, R, D, OpClass.FP, "frd,rs1,rm"),
  FCVT_D_LU("fcvt.d.lu", 0xd2300053, 0xfff0007f, R, D, OpClass.FP, "frd,rs1,rm"),
  FMV_X_D("fmv.x.d", 0xe2000053, 0xfff0707f, R, D, OpClass.FP, "rd,frs1"),
  FMV_D_X("fmv.d.x", 0xf2000053, 0xfff0707f, R, D, OpClass.FP, "frd,rs1"),
  // ---- DISE codewords (custom-0 major opcode): no-ops unless a production matches them
  ON_TRIG_INST("on_trig_inst", 0x0000000b, 0xffffffff, NONE, DISE, OpClass.CODEWORD, ""),
  OFF_TRIG_INST("off_trig_inst", 0x0000100b, 0xffffffff, NONE, DISE, OpClass.CODEWORD, ""),
  // ---- C (RV64C): 16-bit forms, each expanding to a base instruction
  C_ADDI4SPN("c.addi4spn", 0x0000, 0xe003, CIW, C, OpClass.ALU, "rd,rs1,imm", ADDI),
  C_FLD("c.fld", 0x2000, 0xe003, CL, C, OpClass.LOAD, "frd,mem", FLD),
  C_LW("c.lw", 0x4000, 0xe003, CL, C, OpClass.LOAD, "rd,mem", LW),
  C_LD("c.ld", 0x6000, 0xe003, CL, C, OpClass.LOAD, "rd,mem", LD),
  C_FSD("c.fsd", 0xa000, 0xe003, CS, C, OpClass.STORE, "frs2,mem", FSD),
  C_SW("c.sw", 0xc000, 0xe003, CS, C, OpClass.STORE, "rs2,mem", SW),
  C_SD("c.sd", 0xe000, 0xe003, CS, C, OpClass.STORE, "rs2,mem", SD),
  C_NOP("c.nop", 0x0001, 0xffff, CI, C, OpClass.ALU, "", ADDI),
  C_ADDI("c.addi", 0x0001, 0xe003, CI, C, OpClass.ALU, "rd,imm", ADDI),
  C_ADDIW("c.addiw", 0x2001, 0xe003, CI, C, OpClass.ALU, "rd,imm", ADDIW),
  C_LI("c.li", 0x4001, 0xe003, CI, C, OpClass.ALU, "rd,imm", ADDI),
  C_ADDI16SP("c.addi16sp", 0x6101, 0xef83, CI, C, OpClass.ALU, "rd,imm", ADDI),
  C_LUI("c.lui", 0x6001, 0xe003, CI, C, OpClass.ALU, "rd,uimm", LUI),
  C_SRLI("c.srli", 0x8001, 0xec03, CB, C, OpClass.ALU, "rd,shamt", SRLI),
  C_SRAI("c.srai", 0x8401, 0xec03, CB, C, OpClass.ALU, "rd,shamt", SRAI),
  C_ANDI("c.andi", 0x8801, 0xec03, CB, C, OpClass.ALU, "rd,imm", ANDI),
  C_SUB("c.sub", 0x8c01, 0xfc63, CA, C, OpClass.ALU, "rd,rs2", SUB),
  C_XOR("c.xor", 0x8c21, 0xfc63, CA, C, OpClass.ALU, "rd,rs2", XOR),
  C_OR("c.or", 0x8c41, 0xfc63, CA, C, OpClass.ALU, "rd,rs2", OR),
  C_AND("c.and", 0x8c61, 0xfc63, CA, C, OpClass.ALU, "rd,rs2", AND),
  C_SUBW("c.subw", 0x9c01, 0xfc63, CA, C, OpClass.ALU, "rd,rs2", SUBW),
  C_ADDW("c.addw", 0x9c21, 0xfc63, CA, C, OpClass.ALU, "rd,rs2", ADDW),
  C_J("c.j", 0xa001, 0xe003, CJ, C, OpClass.JUMP, "jtarget", JAL),
  C_BEQZ("c.beqz", 0xc001, 0xe003, CB, C, OpClass.BRANCH, "rs1,btarget", BEQ),
  C_BNEZ("c.bnez", 0xe001, 0xe003, CB, C, OpClass.BRANCH, "rs1,btarget", BNE),
  C_SLLI("c.slli", 0x0002, 0xe003, CI, C, OpClass.ALU, "rd,shamt", SLLI),
  C_FLDSP("c.fldsp", 0x2002, 0xe003, CI, C, OpClass.LOAD, "frd,mem", FLD),
  C_LWSP("c.lwsp", 0x4002, 0xe003, CI, C, OpClass.LOAD, "rd,mem", LW),
  C_LDSP("c.ldsp", 0x6002, 0xe003, CI, C, OpClass.LOAD, "rd,mem", LD),
  C_JR("c.jr", 0x8002, 0xf07f, CR, C, OpClass.JUMP, "rs1", JALR),
  C_MV("c.mv", 0x8002, 0xf003, CR, C, OpClass.ALU, "rd,rs2", ADD),
  C_EBREAK("c.ebreak", 0x9002, 0xffff, CR, C, OpClass.SYSTEM, "", EBREAK),
  C_JALR("c.jalr", 0x9002, 0xf07f, CR, C, OpClass.JUMP, "rs1", JALR),
  C_ADD("c.add", 0x9002, 0xf003, CR, C, OpClass.ALU, "rd,rs2", ADD),
  C_FSDSP("c.fsdsp", 0xa002, 0xe003, CSS, C, OpClass.STORE, "frs2,mem", FSD),
  C_SWSP("c.swsp", 0xc002, 0xe003, CSS, C, OpClass.STORE, "rs2,mem", SW),
  C_SDSP("c.sdsp", 0xe002, 0xe003, CSS, C, OpClass.STORE, "rs2,mem", SD);

  private final String mnemonic;
  private final int match;
  private final int mask;
  private final Format format;
  private final Extension extension;
  private final OpClass opClass;
  private final List<Operand> operands;
  private final Op expandsTo;
  private final boolean readsRs1;
  private final boolean readsRs2;

  Op(String mnemonic, int match, int mask, Format format, Extension ext, OpClass cls, String ops) {
    this(mnemonic, match, mask, format, ext, cls, ops, null);
  }

  Op(
      String mnemonic,
      int match,
      int mask,
      Format format,
      Extension ext,
      OpClass cls,
      String ops,
      Op expandsTo) {
    this.mnemonic = mnemonic;
    this.match = match;
    this.mask = mask;
    this.format = format;
    this.extension = ext;
    this.opClass = cls;
    List<Operand> list = new ArrayList<>();
    if (!ops.isEmpty()) {
      for (String s : ops.split(",")) {
        list.add(Operand.parse(s));
      }
    }
    this.operands = Collections.unmodifiableList(list);
    this.expandsTo = expandsTo;
    this.readsRs1 =
        list.contains(Operand.RS1) || list.contains(Operand.MEM) || list.contains(Operand.AMO_ADDR);
    this.readsRs2 = list.contains(Operand.RS2);
  }

  public String mnemonic() {
    return mnemonic;
  }

  public int match() {
    return match;
  }

  public int mask() {
    return mask;
  }

  public Format format() {
    return format;
  }

  public Extension extension() {
    return extension;
  }

  /** The base operation class (see {@link OpClass} for the per-instruction refinement). */
  public OpClass opClass() {
    return opClass;
  }

  /** Assembly operands in objdump order. */
  public List<Operand> operands() {
    return operands;
  }

  /**
   * Whether the instruction reads integer register rs1: as an operand, a load's or store's base, or
   * an atomic's address. Where it does not, the rs1 field may hold other bits.
   */
  public boolean readsRs1() {
    return readsRs1;
  }

  /**
   * Whether the instruction reads integer register rs2 (an I-type's rs2 field is bits of its
   * immediate; a floating-point store's data is frs2).
   */
  public boolean readsRs2() {
    return readsRs2;
  }

  /** For a compressed instruction, the base instruction it expands to; otherwise itself. */
  public Op base() {
    return expandsTo == null ? this : expandsTo;
  }

  public boolean compressed() {
    return format.compressed();
  }

  /** Encoded length in bytes. */
  public int size() {
    return compressed() ? 2 : 4;
  }

  /** True when {@code word} has this instruction's fixed bits. */
  public boolean matches(int word) {
    return (word & mask) == match;
  }
}

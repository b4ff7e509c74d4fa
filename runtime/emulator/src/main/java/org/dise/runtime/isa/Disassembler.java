package org.dise.runtime.isa;

import org.dise.runtime.elf.SymbolTable;

/**
 * Formats decoded instructions in objdump's default syntax: ABI register names, the common
 * pseudo-instructions ({@code li}, {@code mv}, {@code ret}, {@code beqz}, ...), compressed forms
 * shown as the instruction they expand to, and branch targets as absolute addresses with the
 * enclosing symbol.
 */
public final class Disassembler {
  private Disassembler() {}

  /** {@code mnemonic<TAB>operands}, as objdump prints it. */
  public static String format(DecodedInsn d, SymbolTable symbols) {
    String[] mo = mnemonicAndOperands(d, symbols);
    return mo[1].isEmpty() ? mo[0] : mo[0] + "\t" + mo[1];
  }

  private static String[] of(String m, String ops) {
    return new String[] {m, ops};
  }

  private static String x(int r) {
    return Registers.x(r);
  }

  private static String fr(int r) {
    return Registers.f(r);
  }

  private static String target(long addr, SymbolTable symbols) {
    String t = Long.toHexString(addr);
    if (symbols != null) {
      var s = symbols.lookup(addr);
      if (s.isPresent()) {
        long off = addr - s.get().address();
        return t + " <" + s.get().name() + (off == 0 ? "" : "+0x" + Long.toHexString(off)) + ">";
      }
    }
    return t;
  }

  private static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  static String csrName(int csr) {
    return Csr.byNumber(csr).map(Csr::asmName).orElse(hex(csr));
  }

  private static String fenceSet(int bits) {
    StringBuilder sb = new StringBuilder();
    if ((bits & 8) != 0) {
      sb.append('i');
    }
    if ((bits & 4) != 0) {
      sb.append('o');
    }
    if ((bits & 2) != 0) {
      sb.append('r');
    }
    if ((bits & 1) != 0) {
      sb.append('w');
    }
    return sb.length() == 0 ? "0" : sb.toString();
  }

  private static String[] mnemonicAndOperands(DecodedInsn d, SymbolTable syms) {
    Op e = d.exec;
    int rd = d.rdField();
    int rs1 = d.rs1;
    int rs2 = d.rs2;
    long imm = d.imm;
    switch (e) {
      case ADDI:
        if (rd == 0 && rs1 == 0 && imm == 0) {
          return of("nop", "");
        }
        if (rs1 == 0) {
          return of("li", x(rd) + "," + imm);
        }
        if (imm == 0 && d.op != Op.C_ADDI4SPN) {
          return of("mv", x(rd) + "," + x(rs1));
        }
        return of("addi", x(rd) + "," + x(rs1) + "," + imm);
      case ADDIW:
        return imm == 0
            ? of("sext.w", x(rd) + "," + x(rs1))
            : of("addiw", x(rd) + "," + x(rs1) + "," + imm);
      case XORI:
        return imm == -1
            ? of("not", x(rd) + "," + x(rs1))
            : of("xori", x(rd) + "," + x(rs1) + "," + imm);
      case ANDI:
        return imm == 255
            ? of("zext.b", x(rd) + "," + x(rs1))
            : of("andi", x(rd) + "," + x(rs1) + "," + imm);
      case SLTIU:
        return imm == 1
            ? of("seqz", x(rd) + "," + x(rs1))
            : of("sltiu", x(rd) + "," + x(rs1) + "," + imm);
      case SUB:
        return rs1 == 0 ? of("neg", x(rd) + "," + x(rs2)) : rrr("sub", d);
      case SUBW:
        return rs1 == 0 ? of("negw", x(rd) + "," + x(rs2)) : rrr("subw", d);
      case SLTU:
        return rs1 == 0 ? of("snez", x(rd) + "," + x(rs2)) : rrr("sltu", d);
      case SLT:
        if (rs2 == 0) {
          return of("sltz", x(rd) + "," + x(rs1));
        }
        return rs1 == 0 ? of("sgtz", x(rd) + "," + x(rs2)) : rrr("slt", d);
      case ADD:
        if (d.op == Op.C_MV) {
          return of("mv", x(rd) + "," + x(rs2));
        }
        return rrr("add", d);
      case LUI:
        return of("lui", x(rd) + "," + hex((imm >>> 12) & 0xfffff));
      case AUIPC:
        return of("auipc", x(rd) + "," + hex((imm >>> 12) & 0xfffff));
      case JAL:
        if (rd == 0) {
          return of("j", target(d.pc + imm, syms));
        }
        if (rd == 1) {
          return of("jal", target(d.pc + imm, syms));
        }
        return of("jal", x(rd) + "," + target(d.pc + imm, syms));
      case JALR:
        if (imm == 0) {
          if (rd == 0 && rs1 == 1) {
            return of("ret", "");
          }
          if (rd == 0) {
            return of("jr", x(rs1));
          }
          if (rd == 1) {
            return of("jalr", x(rs1));
          }
        }
        if (rd == 0) {
          return of("jr", imm + "(" + x(rs1) + ")");
        }
        if (rd == 1) {
          return of("jalr", imm + "(" + x(rs1) + ")");
        }
        return imm == 0
            ? of("jalr", x(rd) + "," + x(rs1))
            : of("jalr", x(rd) + "," + imm + "(" + x(rs1) + ")");
      case BEQ:
      case BNE:
      case BLT:
      case BGE:
      case BLTU:
      case BGEU:
        return branch(d, syms);
      case SLLI:
      case SRLI:
      case SRAI:
      case SLLIW:
      case SRLIW:
      case SRAIW:
        return of(e.mnemonic(), x(rd) + "," + x(rs1) + "," + hex(imm));
      case FENCE:
        {
          int pred = (d.rm >>> 4) & 0xf;
          int succ = d.rm & 0xf;
          if (((d.raw >>> 28) & 0xf) == 8 && pred == 3 && succ == 3) {
            return of("fence.tso", "");
          }
          if (d.raw == 0x0100000f) {
            return of("pause", ""); // Zihintpause: fence w,0
          }
          if (pred == 0xf && succ == 0xf) {
            return of("fence", "");
          }
          return of("fence", fenceSet(pred) + "," + fenceSet(succ));
        }
      case CSRRS:
        {
          Csr c = Csr.byNumber((int) imm).orElse(null);
          if (rs1 == 0) {
            return c != null && c.readPseudo() != null
                ? of(c.readPseudo(), x(rd))
                : of("csrr", x(rd) + "," + csrName((int) imm));
          }
          return csr(e, rd, imm, x(rs1));
        }
      case CSRRW:
        {
          Csr c = Csr.byNumber((int) imm).orElse(null);
          if (c != null && c.writePseudo() != null) {
            return of(c.writePseudo(), rd == 0 ? x(rs1) : x(rd) + "," + x(rs1));
          }
          return csr(e, rd, imm, x(rs1));
        }
      case CSRRC:
        return csr(e, rd, imm, x(rs1));
      case CSRRWI:
        {
          Csr c = Csr.byNumber((int) imm).orElse(null);
          if (c != null && c.writeImmPseudo() != null) {
            // objdump has no rd-less form of these and always shows rd.
            return of(c.writeImmPseudo(), x(rd) + "," + rs1);
          }
          return csr(e, rd, imm, Integer.toString(rs1));
        }
      case CSRRSI:
      case CSRRCI:
        return csr(e, rd, imm, Integer.toString(rs1));
      case FSGNJ_S:
      case FSGNJ_D:
      case FSGNJN_S:
      case FSGNJN_D:
      case FSGNJX_S:
      case FSGNJX_D:
        if (rs1 == rs2) {
          String base =
              switch (e) {
                case FSGNJ_S, FSGNJ_D -> "fmv";
                case FSGNJN_S, FSGNJN_D -> "fneg";
                default -> "fabs";
              };
          return of(
              base + e.mnemonic().substring(e.mnemonic().length() - 2), fr(d.rd) + "," + fr(rs1));
        }
        break;
      default:
        break;
    }
    String m = e.mnemonic();
    if (e.format() == Format.AMO) {
      int aqrl = d.rm;
      m += aqrl == 3 ? ".aqrl" : aqrl == 2 ? ".aq" : aqrl == 1 ? ".rl" : "";
    }
    StringBuilder sb = new StringBuilder();
    for (Operand o : e.operands()) {
      String s =
          switch (o) {
            case RD -> x(rd);
            case RS1 -> x(rs1);
            case RS2 -> x(rs2);
            case FRD -> fr(d.rd);
            case FRS1 -> fr(rs1);
            case FRS2 -> fr(rs2);
            case FRS3 -> fr(d.rs3);
            case IMM, ZIMM -> String.valueOf(imm);
            case UIMM -> hex((imm >>> 12) & 0xfffff);
            case SHAMT -> hex(imm);
            case MEM -> imm + "(" + x(rs1) + ")";
            case AMO_ADDR -> "(" + x(rs1) + ")";
            case BRANCH_TARGET, JUMP_TARGET -> target(d.pc + imm, syms);
            case CSR -> csrName((int) imm);
            case RM -> null;
            case PRED, SUCC -> null;
          };
      if (s == null) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(s);
    }
    // d.rm holds fence or aq/rl bits for other formats, so read it as a rounding mode only here.
    if (e.operands().contains(Operand.RM) && d.rm != 7 && !exact(e)) {
      sb.append(',').append(RoundingMode.display(d.rm));
    }
    return of(m, sb.toString());
  }

  /** Conversions that never round: objdump shows them without a rounding mode. */
  /**
   * A CSR instruction as objdump shows it: with rd = x0 the read is dropped and {@code csrrX}
   * prints as {@code csrX} ({@code csrrs x0, fflags, a0} is {@code csrs fflags,a0}).
   */
  private static String[] csr(Op e, int rd, long csr, String source) {
    String name = csrName((int) csr);
    return rd == 0
        ? of("csr" + e.mnemonic().substring("csrr".length()), name + "," + source)
        : of(e.mnemonic(), x(rd) + "," + name + "," + source);
  }

  private static boolean exact(Op e) {
    return e == Op.FCVT_D_S || e == Op.FCVT_D_W || e == Op.FCVT_D_WU;
  }

  private static String[] rrr(String m, DecodedInsn d) {
    return of(m, x(d.rdField()) + "," + x(d.rs1) + "," + x(d.rs2));
  }

  private static String[] branch(DecodedInsn d, SymbolTable syms) {
    String t = target(d.pc + d.imm, syms);
    int a = d.rs1;
    int b = d.rs2;
    if (b == 0) {
      String z =
          switch (d.exec) {
            case BEQ -> "beqz";
            case BNE -> "bnez";
            case BLT -> "bltz";
            case BGE -> "bgez";
            default -> null;
          };
      if (z != null) {
        return of(z, x(a) + "," + t);
      }
    }
    if (a == 0) {
      String z =
          switch (d.exec) {
            case BLT -> "bgtz";
            case BGE -> "blez";
            default -> null;
          };
      if (z != null) {
        return of(z, x(b) + "," + t);
      }
    }
    return of(d.exec.mnemonic(), x(a) + "," + x(b) + "," + t);
  }
}

package org.dise.runtime.cpu;

import java.util.List;
import org.dise.runtime.isa.DecodedInsn;

/**
 * Writes hot blocks as Java source: each instruction becomes a statement with its registers and
 * immediates as constants, so the JIT compiles a block as straight-line code with no dispatch.
 * Instructions without a direct translation call the interpreter's handler.
 */
final class BlockTranslator {
  private BlockTranslator() {}

  /** True when every instruction of the block can run in translated code. */
  static boolean translatable(Block b) {
    for (DecodedInsn d : b.insns) {
      if (d.exec.operands().contains(org.dise.runtime.isa.Operand.RM) && (d.rm == 5 || d.rm == 6)) {
        return false; // an illegal static rounding mode: the interpreter reports it
      }
      switch (d.exec) {
        case ECALL, EBREAK, FENCE_I, CSRRW, CSRRS, CSRRC, CSRRWI, CSRRSI, CSRRCI -> {
          return false;
        }
        default -> {}
      }
    }
    return true;
  }

  /**
   * The source of a class implementing {@link CompiledBlocks} for a unit of blocks. Each block is
   * a static method returning the next pc; {@code run} loops over them, following direct
   * successors by their constant ids and indirect ones through a lookup, so control stays in
   * compiled code as long as it stays in the unit.
   */
  static synchronized String classSource(String pkg, String name, List<Block> blocks) {
    return classSource(pkg, name, blocks, false);
  }

  /**
   * As above; with {@code observed}, each block (and each part of one) also reports itself to
   * {@link Cpu#observe}, for a block observer. Without it the code has no trace of observers.
   */
  static synchronized String classSource(String pkg, String name, List<Block> blocks,
      boolean observed) {
    java.util.Map<Long, Integer> ids = new java.util.HashMap<>();
    for (int i = 0; i < blocks.size(); i++) {
      ids.put(blocks.get(i).start, i);
    }
    StringBuilder sb = new StringBuilder();
    sb.append("package ").append(pkg).append(";\n");
    sb.append("import org.dise.runtime.cpu.*;\nimport org.dise.runtime.isa.DecodedInsn;\n");
    sb.append("import org.dise.runtime.mem.Memory;\n");
    sb.append("public final class ").append(name).append(" implements CompiledBlocks {\n");
    sb.append("  /** The decoded instructions of each block (set when the class is loaded). */\n");
    sb.append("  public static DecodedInsn[][] INSNS;\n");
    sb.append("  private static volatile boolean stale;\n");
    sb.append("  public void invalidate() {\n    stale = true;\n  }\n");
    sb.append("  public long run(int id, Cpu cpu, long[] x, long[] f, Memory mem, long budget) {\n");
    sb.append("    long n = 0;\n    long pc = 0;\n");
    // Only the decode stage changes the flag vector, and it never runs inside a unit: one read.
    sb.append("    DecodeStage stage = cpu.decodeStage();\n");
    sb.append("    long vector = stage == null ? 0L : stage.vectorBit();\n");
    sb.append("    try {\n      while (true) {\n");
    sb.append("        switch (id) {\n");
    for (int i = 0; i < blocks.size(); i++) {
      Block b = blocks.get(i);
      DecodedInsn last = b.insns[b.insns.length - 1];
      sb.append("          case ").append(i).append(":\n");
      boolean selfLoop = last.target() == b.start;
      if (selfLoop) {
        // A block that branches to itself becomes a Java loop, which HotSpot compiles as one.
        sb.append("            do {\n");
      }
      sb.append("            if (n + ").append(b.insns.length).append(" > budget) { cpu.unitSteps = n;"
          + " return ").append(lit(b.start)).append("; }\n");
      if (b.tagMask != 0) {
        // A tagged instruction that the current flags let a production match: run the block up
        // to it here, and leave it to the decode stage (the dispatcher calls the hook).
        sb.append("            if ((").append(lit(b.tagMask)).append(" & vector) != 0L) {\n");
        sb.append("              pc = p").append(i).append("(cpu, x, f, mem, vector);\n");
        if (observed) {
          sb.append("              if (cpu.partSteps > 0) cpu.observe(0L, cpu.partSteps, false);\n");
        }
        sb.append("              cpu.unitSteps = n + cpu.partSteps;\n              return pc;\n");
        sb.append("            }\n");
      }
      sb.append("            pc = b").append(i).append("(cpu, x, f, mem);\n");
      sb.append("            n += ").append(b.insns.length).append(";\n");
      if (observed) {
        sb.append("            cpu.observe(").append(lit(last.pc)).append(", ")
            .append(b.insns.length).append(", ").append(b.transferEnd).append(");\n");
      }
      if (selfLoop) {
        sb.append("            } while (pc == ").append(lit(b.start))
            .append(" && !stale && !cpu.interruptPending());\n");
      }
      // Successors known at translation time get their ids as constants.
      long taken = last.target();
      long fall = b.end;
      Integer takenId = taken >= 0 ? ids.get(taken) : null;
      Integer fallId = ids.get(fall);
      sb.append("            id = ");
      if (takenId != null) {
        sb.append("pc == ").append(lit(taken)).append(" ? ").append(takenId).append(" : ");
      }
      if (fallId != null && last.exec != org.dise.runtime.isa.Op.JAL
          && last.exec != org.dise.runtime.isa.Op.JALR) {
        sb.append("pc == ").append(lit(fall)).append(" ? ").append(fallId).append(" : ");
      }
      sb.append(last.exec == org.dise.runtime.isa.Op.JALR ? "lookup(pc)" : "-1").append(";\n");
      sb.append("            break;\n");
    }
    sb.append("          default:\n            cpu.unitSteps = n;\n            return pc;\n");
    sb.append("        }\n");
    sb.append("        if (id < 0 || stale || cpu.interruptPending()) {\n");
    sb.append("          cpu.unitSteps = n;\n          return pc;\n        }\n");
    sb.append("      }\n    } catch (RuntimeException e) {\n");
    sb.append("      cpu.unitSteps = n + cpu.faultIndex;\n");
    sb.append("      cpu.faultInsn = INSNS[id][cpu.faultIndex];\n      throw e;\n    }\n  }\n");
    sb.append("  private static int lookup(long pc) {\n    switch ((int) pc) {\n");
    for (int i = 0; i < blocks.size(); i++) {
      sb.append("      case ").append((int) blocks.get(i).start).append(": return ").append(i)
          .append(";\n");
    }
    sb.append("      default: return -1;\n    }\n  }\n");
    for (int i = 0; i < blocks.size(); i++) {
      method(sb, "b" + i, i, blocks.get(i), false);
      if (blocks.get(i).tagMask != 0) {
        method(sb, "p" + i, i, blocks.get(i), true);
      }
    }
    sb.append("}\n");
    return sb.toString();
  }

  /**
   * A block as a method returning the next pc. With {@code part}, it stops before the first
   * tagged instruction a production matches under {@code vector}, returning that instruction's
   * address with the instructions run in {@code cpu.partSteps}.
   */
  private static void method(StringBuilder sb, String name, int id, Block b, boolean part) {
    sb.append("  private static long ").append(name)
        .append("(Cpu cpu, long[] x, long[] f, Memory mem").append(part ? ", long vector" : "")
        .append(") {\n");
    // The integer registers live in locals for the whole block: loaded once at entry, stored
    // once at every exit (HotSpot cannot keep x[] elements in registers across memory accesses).
    // A fault leaves the locals as the instructions before it left them, so the handler's store
    // is the precise state.
    USED.clear();
    WRITTEN.clear();
    StringBuilder body = new StringBuilder();
    boolean returned = false;
    for (int k = 0; k < b.insns.length; k++) {
      DecodedInsn d = b.insns[k];
      if (part && d.dise != null) {
        body.append("      if ((").append(lit(d.diseMask)).append(" & vector) != 0L) { ")
            .append("cpu.partSteps = ").append(k).append("; ").append(STORE).append(" return ")
            .append(lit(d.pc)).append("; }\n");
      }
      String s = statement(d, k, id);
      returned = s.contains("return ");
      if (returned) {
        s = s.replace("return ", STORE + " return ");
      }
      body.append("      ").append(s).append('\n');
    }
    if (!returned) {
      body.append("      ").append(STORE).append(" return ").append(lit(b.end)).append(";\n");
    }
    StringBuilder load = new StringBuilder();
    StringBuilder store = new StringBuilder();
    for (int reg : USED) {
      load.append("    long x").append(reg).append(" = x[").append(reg).append("];\n");
    }
    for (int reg : WRITTEN) {
      store.append("x[").append(reg).append("] = x").append(reg).append("; ");
    }
    StringBuilder reload = new StringBuilder();
    for (int reg : USED) {
      reload.append("x").append(reg).append(" = x[").append(reg).append("]; ");
    }
    sb.append("    int k = 0;\n").append(load).append("    try {\n");
    sb.append(body.toString().replace(STORE, store.toString().trim())
        .replace(RELOAD, reload.toString().trim()));
    sb.append("    } catch (RuntimeException e) {\n      cpu.faultIndex = k;\n      ")
        .append(store).append("\n      throw e;\n    }\n  }\n");
  }

  /** Placeholders for the stores and loads of the cached registers, known after the block. */
  private static final String STORE = "/*store*/";
  private static final String RELOAD = "/*reload*/";
  /** The integer registers the block being written reads or writes, and those it writes. */
  private static final java.util.TreeSet<Integer> USED = new java.util.TreeSet<>();
  private static final java.util.TreeSet<Integer> WRITTEN = new java.util.TreeSet<>();

  private static String lit(long v) {
    return "(" + v + "L)";
  }

  private static String r(int reg) {
    if (reg == 0) {
      return "0L";
    }
    USED.add(reg);
    return "x" + reg;
  }

  private static String rd(DecodedInsn d) {
    USED.add(d.rd);
    WRITTEN.add(d.rd);
    return "x" + d.rd;
  }

  private static String addr(DecodedInsn d) {
    return d.imm == 0 ? r(d.rs1) : "(" + r(d.rs1) + " + " + lit(d.imm) + ")";
  }

  /** The statement for one instruction; those that may fault first record their index. */
  private static String statement(DecodedInsn d, int k, int block) {
    String a = r(d.rs1);
    String b = r(d.rs2);
    String imm = lit(d.imm);
    String mark = "k = " + k + "; ";
    return switch (d.exec) {
      case LUI -> rd(d) + " = " + imm + ";";
      case AUIPC -> rd(d) + " = " + lit(d.pc + d.imm) + ";";
      case JAL -> rd(d) + " = " + lit(d.npc) + "; return " + lit(d.pc + d.imm) + ";";
      case JALR -> "{ long t = (" + a + " + " + imm + ") & ~1L; " + rd(d) + " = " + lit(d.npc)
          + "; return t; }";
      case BEQ -> branch(d, a + " == " + b);
      case BNE -> branch(d, a + " != " + b);
      case BLT -> branch(d, a + " < " + b);
      case BGE -> branch(d, a + " >= " + b);
      case BLTU -> branch(d, "Long.compareUnsigned(" + a + ", " + b + ") < 0");
      case BGEU -> branch(d, "Long.compareUnsigned(" + a + ", " + b + ") >= 0");
      case LB -> mark + rd(d) + " = (long) (byte) mem.lb(" + addr(d) + ");";
      case LH -> mark + rd(d) + " = (long) mem.lh(" + addr(d) + ");";
      case LW -> mark + rd(d) + " = (long) mem.lw(" + addr(d) + ");";
      case LD -> mark + rd(d) + " = mem.ld(" + addr(d) + ");";
      case LBU -> mark + rd(d) + " = mem.lb(" + addr(d) + ") & 0xffL;";
      case LHU -> mark + rd(d) + " = mem.lh(" + addr(d) + ") & 0xffffL;";
      case LWU -> mark + rd(d) + " = mem.lw(" + addr(d) + ") & 0xffffffffL;";
      case SB -> mark + "mem.sb(" + addr(d) + ", " + b + ");";
      case SH -> mark + "mem.sh(" + addr(d) + ", " + b + ");";
      case SW -> mark + "mem.sw(" + addr(d) + ", " + b + ");";
      case SD -> mark + "mem.sd(" + addr(d) + ", " + b + ");";
      case FLD -> mark + "f[" + d.rd + "] = mem.ld(" + addr(d) + ");";
      case FSD -> mark + "mem.sd(" + addr(d) + ", f[" + d.rs2 + "]);";
      case FLW -> mark + "f[" + d.rd + "] = Fpu.boxS(mem.lw(" + addr(d) + "));";
      case FSW -> mark + "mem.sw(" + addr(d) + ", f[" + d.rs2 + "]);";
      case ADDI -> rd(d) + " = " + a + " + " + imm + ";";
      case SLTI -> rd(d) + " = " + a + " < " + imm + " ? 1L : 0L;";
      case SLTIU -> rd(d) + " = Long.compareUnsigned(" + a + ", " + imm + ") < 0 ? 1L : 0L;";
      case XORI -> rd(d) + " = " + a + " ^ " + imm + ";";
      case ORI -> rd(d) + " = " + a + " | " + imm + ";";
      case ANDI -> rd(d) + " = " + a + " & " + imm + ";";
      case SLLI -> rd(d) + " = " + a + " << " + d.imm + ";";
      case SRLI -> rd(d) + " = " + a + " >>> " + d.imm + ";";
      case SRAI -> rd(d) + " = " + a + " >> " + d.imm + ";";
      case ADD -> rd(d) + " = " + a + " + " + b + ";";
      case SUB -> rd(d) + " = " + a + " - " + b + ";";
      case SLL -> rd(d) + " = " + a + " << " + b + ";";
      case SLT -> rd(d) + " = " + a + " < " + b + " ? 1L : 0L;";
      case SLTU -> rd(d) + " = Long.compareUnsigned(" + a + ", " + b + ") < 0 ? 1L : 0L;";
      case XOR -> rd(d) + " = " + a + " ^ " + b + ";";
      case SRL -> rd(d) + " = " + a + " >>> " + b + ";";
      case SRA -> rd(d) + " = " + a + " >> " + b + ";";
      case OR -> rd(d) + " = " + a + " | " + b + ";";
      case AND -> rd(d) + " = " + a + " & " + b + ";";
      case ADDIW -> rd(d) + " = (long) (int) (" + a + " + " + imm + ");";
      case SLLIW -> rd(d) + " = (long) (((int) " + a + ") << " + d.imm + ");";
      case SRLIW -> rd(d) + " = (long) (((int) " + a + ") >>> " + d.imm + ");";
      case SRAIW -> rd(d) + " = (long) (((int) " + a + ") >> " + d.imm + ");";
      case ADDW -> rd(d) + " = (long) (int) (" + a + " + " + b + ");";
      case SUBW -> rd(d) + " = (long) (int) (" + a + " - " + b + ");";
      case SLLW -> rd(d) + " = (long) (((int) " + a + ") << " + b + ");";
      case SRLW -> rd(d) + " = (long) (((int) " + a + ") >>> " + b + ");";
      case SRAW -> rd(d) + " = (long) (((int) " + a + ") >> " + b + ");";
      case MUL -> rd(d) + " = " + a + " * " + b + ";";
      case MULW -> rd(d) + " = (long) ((int) " + a + " * (int) " + b + ");";
      case FENCE, ON_TRIG_INST, OFF_TRIG_INST -> ";";
      // The common F and D operations call the Fpu directly.
      case FADD_D, FSUB_D, FMUL_D, FDIV_D -> mark + fr(d.rd) + " = cpu.fpu." + fpName(d) + "D("
          + fr(d.rs1) + ", " + fr(d.rs2) + ", " + rm(d) + ");";
      case FADD_S, FSUB_S, FMUL_S, FDIV_S -> mark + fr(d.rd) + " = Fpu.boxS(cpu.fpu."
          + fpName(d) + "S(" + sr(d.rs1) + ", " + sr(d.rs2) + ", " + rm(d) + "));";
      case FMADD_D, FMSUB_D, FNMSUB_D, FNMADD_D -> mark + fr(d.rd) + " = cpu.fpu."
          + fmaName(d) + "D(" + fr(d.rs1) + ", " + fr(d.rs2) + ", " + fr(d.rs3) + ", " + rm(d)
          + ");";
      case FMADD_S, FMSUB_S, FNMSUB_S, FNMADD_S -> mark + fr(d.rd) + " = Fpu.boxS(cpu.fpu."
          + fmaName(d) + "S(" + sr(d.rs1) + ", " + sr(d.rs2) + ", " + sr(d.rs3) + ", " + rm(d)
          + "));";
      case FSGNJ_D -> fr(d.rd) + " = (" + fr(d.rs1) + " & Long.MAX_VALUE) | (" + fr(d.rs2)
          + " & Long.MIN_VALUE);";
      case FSGNJN_D -> fr(d.rd) + " = (" + fr(d.rs1) + " & Long.MAX_VALUE) | (~" + fr(d.rs2)
          + " & Long.MIN_VALUE);";
      case FSGNJX_D -> fr(d.rd) + " = " + fr(d.rs1) + " ^ (" + fr(d.rs2) + " & Long.MIN_VALUE);";
      case FMV_X_D -> rd(d) + " = " + fr(d.rs1) + ";";
      case FMV_D_X -> fr(d.rd) + " = " + a + ";";
      case FMV_X_W -> rd(d) + " = (long) (int) " + fr(d.rs1) + ";";
      case FMV_W_X -> fr(d.rd) + " = Fpu.boxS((int) " + a + ");";
      case FEQ_D, FLT_D, FLE_D -> rd(d) + " = cpu.fpu." + d.exec.mnemonic().substring(1, 3)
          + "D(" + fr(d.rs1) + ", " + fr(d.rs2) + ");";
      case FCVT_D_W, FCVT_D_L -> mark + fr(d.rd) + " = cpu.fpu.cvtD" + cvtSuffix(d) + "(" + a
          + ", " + rm(d) + ");";
      case FCVT_W_D, FCVT_L_D -> mark + rd(d) + " = cpu.fpu.cvt" + cvtSuffix(d) + "D("
          + fr(d.rs1) + ", " + rm(d) + ");";
      case FCVT_S_D -> mark + fr(d.rd) + " = Fpu.boxS(cpu.fpu.cvtSD(" + fr(d.rs1) + ", " + rm(d)
          + "));";
      // M (division), A and the rest of F/D: the interpreter's handlers, on this instruction.
      case MULH -> rd(d) + " = Math.multiplyHigh(" + a + ", " + b + ");";
      case MULHSU -> "{ long a = " + a + "; long b = " + b + "; " + rd(d)
          + " = Math.multiplyHigh(a, b) + ((b >> 63) & a); }";
      case MULHU -> "{ long a = " + a + "; long b = " + b + "; " + rd(d)
          + " = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a); }";
      // Division by zero and overflow as the M extension defines them (Java's MIN / -1 wraps).
      case DIV -> "{ long b = " + b + "; " + rd(d) + " = b == 0 ? -1L : " + a + " / b; }";
      case DIVU -> "{ long b = " + b + "; " + rd(d) + " = b == 0 ? -1L : Long.divideUnsigned("
          + a + ", b); }";
      case REM -> "{ long a = " + a + "; long b = " + b + "; " + rd(d)
          + " = b == 0 ? a : a % b; }";
      case REMU -> "{ long a = " + a + "; long b = " + b + "; " + rd(d)
          + " = b == 0 ? a : Long.remainderUnsigned(a, b); }";
      case DIVW -> "{ int a = (int) " + a + "; int b = (int) " + b + "; " + rd(d)
          + " = b == 0 ? -1L : (long) (a / b); }";
      case DIVUW -> "{ int a = (int) " + a + "; int b = (int) " + b + "; " + rd(d)
          + " = b == 0 ? -1L : (long) Integer.divideUnsigned(a, b); }";
      case REMW -> "{ int a = (int) " + a + "; int b = (int) " + b + "; " + rd(d)
          + " = b == 0 ? (long) a : (long) (a % b); }";
      case REMUW -> "{ int a = (int) " + a + "; int b = (int) " + b + "; " + rd(d)
          + " = b == 0 ? (long) a : (long) Integer.remainderUnsigned(a, b); }";
      // A, the rest of F/D: the interpreter's handlers, on this instruction, which read and
      // write x[]: the cached registers go there first and come back after.
      default -> mark + STORE + " cpu.execSlow(INSNS[" + block + "][" + k + "]); " + RELOAD;
    };
  }

  private static String fr(int reg) {
    return "f[" + reg + "]";
  }

  private static String sr(int reg) {
    return "Fpu.unboxS(f[" + reg + "])";
  }

  /** The rounding mode: a constant, or frm read (and checked) when the instruction runs. */
  private static String rm(DecodedInsn d) {
    if (d.rm == 7) {
      return "cpu.dynamicRm(" + d.raw + ")";
    }
    return String.valueOf(d.rm); // 5 and 6 are illegal: translatable() leaves those alone
  }

  private static String fpName(DecodedInsn d) {
    return d.exec.mnemonic().substring(1, 4); // add, sub, mul, div
  }

  private static String fmaName(DecodedInsn d) {
    return switch (d.exec) {
      case FMADD_D, FMADD_S -> "fmadd";
      case FMSUB_D, FMSUB_S -> "fmsub";
      case FNMSUB_D, FNMSUB_S -> "fnmsub";
      default -> "fnmadd";
    };
  }

  private static String cvtSuffix(DecodedInsn d) {
    return switch (d.exec) {
      case FCVT_D_W, FCVT_W_D -> "W";
      default -> "L";
    };
  }

  private static String branch(DecodedInsn d, String cond) {
    return "return " + cond + " ? " + lit(d.pc + d.imm) + " : " + lit(d.npc) + ";";
  }
}

package org.dise.runtime.isa;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * For every base instruction of the ISA table ({@link Op}), how it executes: its {@link Kind} (what
 * the caller does around the computation), the {@code cpu.Semantics} method that computes it, the
 * operands that method takes, in order, and where the result goes. The interpreter's dispatch
 * (generated from this table at build time by {@code runtime/codegen}) and the bytecode translator
 * both read it, so an instruction's behaviour is described once. Data only (method names and
 * descriptors as strings), so that the build-time generator reads it before the emulator compiles.
 */
public final class SemanticsTable {
  private SemanticsTable() {}

  /** What the caller of an instruction's method does around it. */
  public enum Kind {
    /** rd (or frd) = method(sources): the ALU, M and F/D computations. */
    VALUE,
    /** Branch to pc + imm when method(rs1, rs2) holds. */
    BRANCH,
    /** rd = npc; continue at method(pc or rs1, imm). */
    JUMP,
    /** rd (or frd) = method(memory, rs1 + imm). */
    LOAD,
    /** method(memory, rs1 + imm, rs2 or frs2). */
    STORE,
    /**
     * An A-extension read-modify-write at rs1 (aligned to its width): rd = the old value,
     * method(old, rs2) stored; lr and sc keep the reservation and have no method.
     */
    ATOMIC,
    /** A CSR access: the CSR table ({@code isa.Csr}) and the cpu's counters. */
    CSR,
    /** ecall, ebreak, fence, fence.i and the DISE codewords: the cpu's own business. */
    SYSTEM
  }

  /**
   * One instruction's row.
   *
   * @param method the {@code cpu.Semantics} method (null for {@link Kind#CSR}, {@link Kind#SYSTEM},
   *     lr and sc)
   * @param descriptor the method's JVM descriptor, derived from the operands
   * @param fpu whether the method takes the {@code Fpu} first (it rounds or raises flags)
   * @param pc whether the method takes the instruction's address (before its sources)
   * @param sources the register and immediate operands passed, in order (a load or store passes the
   *     memory and the address {@code x[rs1] + imm} first, then these: a store's data)
   * @param rm whether a rounding mode follows the sources (the caller resolves DYN)
   * @param dest where the result goes ({@link Operand#RD}, {@link Operand#FRD}) or null
   * @param width the access width in bytes of loads, stores and atomics (0 otherwise)
   * @param unsigned whether a load narrower than 8 bytes zero-extends (lbu, lhu, lwu)
   */
  public record Entry(
      Op op,
      Kind kind,
      String method,
      String descriptor,
      boolean fpu,
      boolean pc,
      List<Operand> sources,
      boolean rm,
      Operand dest,
      int width,
      boolean unsigned) {}

  /**
   * Instructions that compute exactly what another does, with the same operand types, and so share
   * its method (besides the immediate forms, {@link #sameAs}): a word AMO that does not look at the
   * sign stores the low half of what the doubleword one computes; fld, fsd and fsw move bits as ld,
   * sd and sw do.
   */
  private static final Map<Op, Op> SAME_AS =
      Map.of(
          Op.AMOSWAP_W, Op.AMOSWAP_D,
          Op.AMOADD_W, Op.AMOADD_D,
          Op.AMOXOR_W, Op.AMOXOR_D,
          Op.AMOAND_W, Op.AMOAND_D,
          Op.AMOOR_W, Op.AMOOR_D,
          Op.FLD, Op.LD,
          Op.FSD, Op.SD,
          Op.FSW, Op.SW);

  /**
   * The instruction whose method {@code op} runs: an immediate ALU form ({@code addi}, {@code
   * sltiu}, {@code slliw}) runs its register form (the mnemonic without its i) with the immediate
   * as the second operand, Java masking shift counts as RISC-V does; see also {@link #SAME_AS}.
   */
  private static Op sameAs(Op op) {
    boolean immediate =
        op.operands().contains(Operand.IMM) || op.operands().contains(Operand.SHAMT);
    if (op.opClass() == OpClass.ALU && immediate) {
      String register = withoutImmediateI(op.mnemonic());
      for (Op o : Op.values()) {
        if (o != op && o.mnemonic().equals(register)) {
          return o;
        }
      }
    }
    return SAME_AS.getOrDefault(op, op);
  }

  /**
   * The mnemonic less the i of an immediate form: {@code addi} to {@code add}, {@code sltiu} to
   * {@code sltu}, {@code addiw} to {@code addw} (what {@code replaceFirst("i(u?w?)$", "$1")} gives,
   * without compiling a regular expression on every fresh run's path).
   */
  static String withoutImmediateI(String m) {
    for (int k = Math.max(0, m.length() - 3); k < m.length(); k++) {
      String tail = m.substring(k + 1);
      if (m.charAt(k) == 'i'
          && (tail.isEmpty() || tail.equals("u") || tail.equals("w") || tail.equals("uw"))) {
        return m.substring(0, k) + tail;
      }
    }
    return m;
  }

  private static final Map<Op, Entry> TABLE = build();

  /** The row of a base instruction (a compressed one executes as its {@link Op#base()}). */
  public static Entry of(Op op) {
    Entry e = TABLE.get(op.base());
    if (e == null) {
      throw new IllegalArgumentException("no semantics for " + op.mnemonic());
    }
    return e;
  }

  /** Every row, in the ISA table's order. */
  public static List<Entry> all() {
    return List.copyOf(TABLE.values());
  }

  /**
   * The Java name of an instruction's method: its mnemonic with dots as underscores, or that of the
   * instruction it computes the same as ({@link #sameAs}).
   */
  public static String methodName(Op op) {
    return sameAs(op).mnemonic().replace('.', '_');
  }

  private static Map<Op, Entry> build() {
    Map<Op, Entry> t = new EnumMap<>(Op.class);
    for (Op op : Op.values()) {
      if (op.base() == op) {
        t.put(op, entry(op));
      }
    }
    return t;
  }

  private static Entry entry(Op op) {
    Kind kind = kind(op);
    List<Operand> ops = op.operands();
    Operand dest =
        ops.contains(Operand.RD) ? Operand.RD : ops.contains(Operand.FRD) ? Operand.FRD : null;
    boolean rm = ops.contains(Operand.RM);
    List<Operand> sources = new ArrayList<>();
    StringBuilder desc = new StringBuilder("(");
    boolean fpu = false;
    boolean pc = false;
    String ret = "J";
    switch (kind) {
      case VALUE -> {
        // A rounding F/D operation, and the ones that may raise flags (min, max, compares),
        // take the Fpu: all of F and D except sign injection, moves and classification.
        fpu =
            op.opClass() == OpClass.FP
                && !(op.mnemonic().startsWith("fsgnj")
                    || op.mnemonic().startsWith("fmv")
                    || op.mnemonic().startsWith("fclass"));
        pc = op == Op.LUI || op == Op.AUIPC;
        for (Operand o : ops) {
          switch (o) {
            case RS1, RS2, FRS1, FRS2, FRS3, IMM, UIMM, SHAMT -> sources.add(o);
            default -> {}
          }
        }
      }
      case BRANCH -> {
        sources.addAll(List.of(Operand.RS1, Operand.RS2));
        ret = "Z";
      }
      case JUMP -> {
        pc = op == Op.JAL;
        if (op == Op.JALR) {
          sources.add(Operand.RS1);
        }
        sources.add(Operand.IMM);
      }
      case LOAD -> desc.append("Lorg/dise/runtime/mem/Memory;J");
      case STORE -> {
        desc.append("Lorg/dise/runtime/mem/Memory;JJ");
        sources.add(ops.contains(Operand.FRS2) ? Operand.FRS2 : Operand.RS2);
        ret = "V";
      }
      case ATOMIC -> {
        if (op.mnemonic().startsWith("amo")) {
          sources.addAll(List.of(Operand.RS1, Operand.RS2)); // (old value at rs1, rs2)
        }
      }
      default -> {}
    }
    if (fpu) {
      desc.append("Lorg/dise/runtime/cpu/Fpu;");
    }
    if (pc) {
      desc.append('J');
    }
    if (kind != Kind.LOAD && kind != Kind.STORE) {
      desc.append("J".repeat(sources.size()));
    }
    if (rm && kind == Kind.VALUE) {
      desc.append('I');
    }
    desc.append(')').append(ret);
    boolean hasMethod =
        switch (kind) {
          case CSR, SYSTEM -> false;
          case ATOMIC -> !sources.isEmpty();
          default -> true;
        };
    return new Entry(
        op,
        kind,
        hasMethod ? methodName(op) : null,
        hasMethod ? desc.toString() : null,
        fpu,
        pc,
        Collections.unmodifiableList(sources),
        rm && kind == Kind.VALUE,
        kind == Kind.STORE || kind == Kind.BRANCH ? null : dest,
        width(op, kind),
        kind == Kind.LOAD && op.mnemonic().endsWith("u"));
  }

  private static Kind kind(Op op) {
    return switch (op.opClass()) {
      case BRANCH -> Kind.BRANCH;
      case JUMP -> Kind.JUMP;
      case LOAD -> Kind.LOAD;
      case STORE -> Kind.STORE;
      case ATOMIC -> Kind.ATOMIC;
      case ALU, MULDIV, FP -> Kind.VALUE;
      default ->
          switch (op.format()) {
            case CSR, CSR_I -> Kind.CSR;
            default -> Kind.SYSTEM;
          };
    };
  }

  private static int width(Op op, Kind kind) {
    if (kind != Kind.LOAD && kind != Kind.STORE && kind != Kind.ATOMIC) {
      return 0;
    }
    String m = op.mnemonic();
    if (kind == Kind.ATOMIC) {
      return m.endsWith(".w") ? 4 : 8;
    }
    return switch (m.charAt(m.length() - (m.endsWith("u") ? 2 : 1))) {
      case 'b' -> 1;
      case 'h' -> 2;
      case 'w' -> 4;
      default -> 8; // d
    };
  }
}

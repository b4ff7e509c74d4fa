package org.dise.runtime.cpu;

import org.dise.runtime.isa.SemanticsTable;
import org.dise.runtime.mem.Memory;

/**
 * What each RV64GC instruction does, written once: one short static method per instruction, named
 * after its mnemonic ({@code fadd.s} is {@code fadd_s}), after Spike's {@code insns/*.h} (an
 * instruction that computes exactly what another does shares its method: {@code addi} runs {@code
 * add}, {@code fld} runs {@code ld}; {@link SemanticsTable}). The interpreter ({@link Cpu}) calls
 * these methods and the bytecode translator emits an {@code invokestatic} of the same method, which
 * HotSpot inlines; {@link SemanticsTable} says for every instruction how its operands reach the
 * method and where the result goes.
 *
 * <p>Operands are register contents as the register files hold them: {@code long} for x registers
 * and raw {@code long} bit patterns for f registers (binary32 values NaN-boxed), so a
 * single-precision method unboxes its inputs and boxes its result. A method that rounds takes the
 * rounding mode the caller has already resolved (DYN read from {@code frm}, reserved encodings
 * refused) and accrues exception flags in the {@link Fpu} it is given. Control transfers, memory
 * access with its faults, atomics' reservations and CSRs are the caller's part of an instruction;
 * what they compute is here.
 */
public final class Semantics {
  private Semantics() {}

  // ---------------------------------------------------------------- RV64I: U, jumps, branches

  public static long lui(long pc, long imm) {
    return imm;
  }

  public static long auipc(long pc, long imm) {
    return pc + imm;
  }

  /** The target of a jal (the link, npc, is the caller's). */
  public static long jal(long pc, long imm) {
    return pc + imm;
  }

  /** The target of a jalr: the low bit cleared. */
  public static long jalr(long a, long imm) {
    return (a + imm) & ~1L;
  }

  public static boolean beq(long a, long b) {
    return a == b;
  }

  public static boolean bne(long a, long b) {
    return a != b;
  }

  public static boolean blt(long a, long b) {
    return a < b;
  }

  public static boolean bge(long a, long b) {
    return a >= b;
  }

  public static boolean bltu(long a, long b) {
    return Long.compareUnsigned(a, b) < 0;
  }

  public static boolean bgeu(long a, long b) {
    return Long.compareUnsigned(a, b) >= 0;
  }

  // ---------------------------------------------------------------- RV64I: loads and stores

  public static long lb(Memory m, long addr) {
    return (byte) m.lb(addr);
  }

  public static long lh(Memory m, long addr) {
    return m.lh(addr);
  }

  public static long lw(Memory m, long addr) {
    return m.lw(addr);
  }

  public static long ld(Memory m, long addr) {
    return m.ld(addr);
  }

  public static long lbu(Memory m, long addr) {
    return m.lb(addr) & 0xffL;
  }

  public static long lhu(Memory m, long addr) {
    return m.lh(addr) & 0xffffL;
  }

  public static long lwu(Memory m, long addr) {
    return m.lw(addr) & 0xffffffffL;
  }

  public static void sb(Memory m, long addr, long v) {
    m.sb(addr, v);
  }

  public static void sh(Memory m, long addr, long v) {
    m.sh(addr, v);
  }

  public static void sw(Memory m, long addr, long v) {
    m.sw(addr, v);
  }

  public static void sd(Memory m, long addr, long v) {
    m.sd(addr, v);
  }

  // ---------------------------------------------------------------- RV64I: computation

  // The immediate forms (addi, slli, addiw, ...) run these methods with the immediate as b
  // (SemanticsTable.sameAs). Java masks a long shift's count to 6 bits and an int shift's to 5,
  // as RISC-V does.

  public static long add(long a, long b) {
    return a + b;
  }

  public static long sub(long a, long b) {
    return a - b;
  }

  public static long sll(long a, long b) {
    return a << b;
  }

  public static long slt(long a, long b) {
    return a < b ? 1 : 0;
  }

  public static long sltu(long a, long b) {
    return Long.compareUnsigned(a, b) < 0 ? 1 : 0;
  }

  public static long xor(long a, long b) {
    return a ^ b;
  }

  public static long srl(long a, long b) {
    return a >>> b;
  }

  public static long sra(long a, long b) {
    return a >> b;
  }

  public static long or(long a, long b) {
    return a | b;
  }

  public static long and(long a, long b) {
    return a & b;
  }

  public static long addw(long a, long b) {
    return (int) (a + b);
  }

  public static long subw(long a, long b) {
    return (int) (a - b);
  }

  public static long sllw(long a, long b) {
    return (int) a << b;
  }

  public static long srlw(long a, long b) {
    return (int) a >>> b;
  }

  public static long sraw(long a, long b) {
    return (int) a >> b;
  }

  // ---------------------------------------------------------------- M

  public static long mul(long a, long b) {
    return a * b;
  }

  public static long mulh(long a, long b) {
    return Math.multiplyHigh(a, b);
  }

  /** Signed a times unsigned b, high 64 bits. */
  public static long mulhsu(long a, long b) {
    return Math.multiplyHigh(a, b) + ((b >> 63) & a);
  }

  public static long mulhu(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }

  // Division by zero gives all ones (quotient) or the dividend (remainder); MIN / -1 wraps to
  // MIN with remainder 0, which is what Java's division does.

  public static long div(long a, long b) {
    return b == 0 ? -1 : a / b;
  }

  public static long divu(long a, long b) {
    return b == 0 ? -1 : Long.divideUnsigned(a, b);
  }

  public static long rem(long a, long b) {
    return b == 0 ? a : a % b;
  }

  public static long remu(long a, long b) {
    return b == 0 ? a : Long.remainderUnsigned(a, b);
  }

  public static long mulw(long a, long b) {
    return (int) a * (int) b;
  }

  public static long divw(long a, long b) {
    int ib = (int) b;
    return ib == 0 ? -1 : (int) a / ib;
  }

  public static long divuw(long a, long b) {
    int ib = (int) b;
    return ib == 0 ? -1 : Integer.divideUnsigned((int) a, ib);
  }

  public static long remw(long a, long b) {
    int ib = (int) b;
    return ib == 0 ? (int) a : (int) a % ib;
  }

  public static long remuw(long a, long b) {
    int ib = (int) b;
    return ib == 0 ? (int) a : Integer.remainderUnsigned((int) a, ib);
  }

  // ---------------------------------------------------------------- A: the value each AMO stores
  // (swap, add, xor, and and or: the doubleword methods, of which a word AMO stores the low half)

  public static long amomin_w(long old, long src) {
    return Math.min((int) old, (int) src);
  }

  public static long amomax_w(long old, long src) {
    return Math.max((int) old, (int) src);
  }

  public static long amominu_w(long old, long src) {
    return Integer.compareUnsigned((int) old, (int) src) <= 0 ? old : src;
  }

  public static long amomaxu_w(long old, long src) {
    return Integer.compareUnsigned((int) old, (int) src) >= 0 ? old : src;
  }

  public static long amoswap_d(long old, long src) {
    return src;
  }

  public static long amoadd_d(long old, long src) {
    return old + src;
  }

  public static long amoxor_d(long old, long src) {
    return old ^ src;
  }

  public static long amoand_d(long old, long src) {
    return old & src;
  }

  public static long amoor_d(long old, long src) {
    return old | src;
  }

  public static long amomin_d(long old, long src) {
    return Math.min(old, src);
  }

  public static long amomax_d(long old, long src) {
    return Math.max(old, src);
  }

  public static long amominu_d(long old, long src) {
    return Long.compareUnsigned(old, src) <= 0 ? old : src;
  }

  public static long amomaxu_d(long old, long src) {
    return Long.compareUnsigned(old, src) >= 0 ? old : src;
  }

  // ---------------------------------------------------------------- F (fsw: sw)

  public static long flw(Memory m, long addr) {
    return Fpu.boxS(m.lw(addr));
  }

  public static long fmadd_s(Fpu u, long a, long b, long c, int rm) {
    return Fpu.boxS(u.fmaddS(Fpu.unboxS(a), Fpu.unboxS(b), Fpu.unboxS(c), rm));
  }

  // The subtracting and negated forms flip the sign bit of an operand; the result is rounded once.

  public static long fmsub_s(Fpu u, long a, long b, long c, int rm) {
    return Fpu.boxS(u.fmaddS(Fpu.unboxS(a), Fpu.unboxS(b), Fpu.unboxS(c) ^ Integer.MIN_VALUE, rm));
  }

  public static long fnmsub_s(Fpu u, long a, long b, long c, int rm) {
    return Fpu.boxS(u.fmaddS(Fpu.unboxS(a) ^ Integer.MIN_VALUE, Fpu.unboxS(b), Fpu.unboxS(c), rm));
  }

  public static long fnmadd_s(Fpu u, long a, long b, long c, int rm) {
    int na = Fpu.unboxS(a) ^ Integer.MIN_VALUE;
    return Fpu.boxS(u.fmaddS(na, Fpu.unboxS(b), Fpu.unboxS(c) ^ Integer.MIN_VALUE, rm));
  }

  public static long fadd_s(Fpu u, long a, long b, int rm) {
    return Fpu.boxS(u.addS(Fpu.unboxS(a), Fpu.unboxS(b), rm));
  }

  public static long fsub_s(Fpu u, long a, long b, int rm) {
    return Fpu.boxS(u.addS(Fpu.unboxS(a), Fpu.unboxS(b) ^ Integer.MIN_VALUE, rm));
  }

  public static long fmul_s(Fpu u, long a, long b, int rm) {
    return Fpu.boxS(u.mulS(Fpu.unboxS(a), Fpu.unboxS(b), rm));
  }

  public static long fdiv_s(Fpu u, long a, long b, int rm) {
    return Fpu.boxS(u.divS(Fpu.unboxS(a), Fpu.unboxS(b), rm));
  }

  public static long fsqrt_s(Fpu u, long a, int rm) {
    return Fpu.boxS(u.sqrtS(Fpu.unboxS(a), rm));
  }

  public static long fsgnj_s(long a, long b) {
    return Fpu.boxS((Fpu.unboxS(a) & Integer.MAX_VALUE) | (Fpu.unboxS(b) & Integer.MIN_VALUE));
  }

  public static long fsgnjn_s(long a, long b) {
    return Fpu.boxS((Fpu.unboxS(a) & Integer.MAX_VALUE) | (~Fpu.unboxS(b) & Integer.MIN_VALUE));
  }

  public static long fsgnjx_s(long a, long b) {
    return Fpu.boxS(Fpu.unboxS(a) ^ (Fpu.unboxS(b) & Integer.MIN_VALUE));
  }

  public static long fmin_s(Fpu u, long a, long b) {
    return Fpu.boxS(u.minS(Fpu.unboxS(a), Fpu.unboxS(b)));
  }

  public static long fmax_s(Fpu u, long a, long b) {
    return Fpu.boxS(u.maxS(Fpu.unboxS(a), Fpu.unboxS(b)));
  }

  public static long fcvt_w_s(Fpu u, long a, int rm) {
    return u.cvtWS(Fpu.unboxS(a), rm);
  }

  public static long fcvt_wu_s(Fpu u, long a, int rm) {
    return (int) u.cvtWUS(Fpu.unboxS(a), rm); // the 32-bit result sign-extended, as RV64 writes it
  }

  public static long fcvt_l_s(Fpu u, long a, int rm) {
    return u.cvtLS(Fpu.unboxS(a), rm);
  }

  public static long fcvt_lu_s(Fpu u, long a, int rm) {
    return u.cvtLUS(Fpu.unboxS(a), rm);
  }

  /** The low 32 bits, sign-extended, whatever the boxing. */
  public static long fmv_x_w(long a) {
    return (int) a;
  }

  public static long fclass_s(long a) {
    return Fpu.classS(Fpu.unboxS(a));
  }

  public static long feq_s(Fpu u, long a, long b) {
    return u.eqS(Fpu.unboxS(a), Fpu.unboxS(b));
  }

  public static long flt_s(Fpu u, long a, long b) {
    return u.ltS(Fpu.unboxS(a), Fpu.unboxS(b));
  }

  public static long fle_s(Fpu u, long a, long b) {
    return u.leS(Fpu.unboxS(a), Fpu.unboxS(b));
  }

  public static long fcvt_s_w(Fpu u, long a, int rm) {
    return Fpu.boxS(u.cvtSL((int) a, rm));
  }

  public static long fcvt_s_wu(Fpu u, long a, int rm) {
    return Fpu.boxS(u.cvtSL(a & 0xffffffffL, rm));
  }

  public static long fcvt_s_l(Fpu u, long a, int rm) {
    return Fpu.boxS(u.cvtSL(a, rm));
  }

  public static long fcvt_s_lu(Fpu u, long a, int rm) {
    return Fpu.boxS(u.cvtSLU(a, rm));
  }

  public static long fmv_w_x(long a) {
    return Fpu.boxS((int) a);
  }

  // ---------------------------------------------------------------- D (fld, fsd: ld, sd)

  // fadd, fsub, fmul, fdiv, fsqrt and the comparisons carry Fpu's fast path for round-to-nearest-
  // even and ordinary operands in their own bodies, so that a translated unit, which copies these
  // bodies (SemanticsInliner), rounds them in place: the host's double operation is the RNE result,
  // and an exact error term (TwoSum, the FMA residual) says whether to raise NX. Anything else (a
  // directed mode, a tiny, huge or non-finite result) is Fpu's, a call C1 does not inline. The
  // bodies read an operand afresh rather than keep it (SemanticsInliner gives them four slots of
  // locals), and must raise exactly what Fpu does (FpuFastPathTest).

  public static long fmadd_d(Fpu u, long a, long b, long c, int rm) {
    return u.fmaddD(a, b, c, rm);
  }

  public static long fmsub_d(Fpu u, long a, long b, long c, int rm) {
    return u.fmaddD(a, b, c ^ Long.MIN_VALUE, rm);
  }

  public static long fnmsub_d(Fpu u, long a, long b, long c, int rm) {
    return u.fmaddD(a ^ Long.MIN_VALUE, b, c, rm);
  }

  public static long fnmadd_d(Fpu u, long a, long b, long c, int rm) {
    return u.fmaddD(a ^ Long.MIN_VALUE, b, c ^ Long.MIN_VALUE, rm);
  }

  public static long fadd_d(Fpu u, long a, long b, int rm) {
    if (rm == Fpu.RNE) {
      double r = Double.longBitsToDouble(a) + Double.longBitsToDouble(b);
      if (Math.abs(r) > Double.MIN_NORMAL && Math.abs(r) <= Double.MAX_VALUE) {
        double v = r - Double.longBitsToDouble(a); // TwoSum's error: (x - (r - v)) + (y - v)
        if ((Double.longBitsToDouble(a) - (r - v)) + (Double.longBitsToDouble(b) - v) != 0) {
          u.fflags |= Fpu.NX;
        }
        return Double.doubleToRawLongBits(r);
      }
    }
    return u.addD(a, b, rm);
  }

  public static long fsub_d(Fpu u, long a, long b, int rm) {
    if (rm == Fpu.RNE) {
      double r = Double.longBitsToDouble(a) - Double.longBitsToDouble(b);
      if (Math.abs(r) > Double.MIN_NORMAL && Math.abs(r) <= Double.MAX_VALUE) {
        double v = r - Double.longBitsToDouble(a);
        if ((Double.longBitsToDouble(a) - (r - v)) - (Double.longBitsToDouble(b) + v) != 0) {
          u.fflags |= Fpu.NX;
        }
        return Double.doubleToRawLongBits(r);
      }
    }
    return u.addD(a, b ^ Long.MIN_VALUE, rm);
  }

  public static long fmul_d(Fpu u, long a, long b, int rm) {
    if (rm == Fpu.RNE) {
      double r = Double.longBitsToDouble(a) * Double.longBitsToDouble(b);
      if (Math.abs(r) >= Fpu.SAFE_LO && Math.abs(r) <= Double.MAX_VALUE) {
        if (Math.fma(Double.longBitsToDouble(a), Double.longBitsToDouble(b), -r) != 0) {
          u.fflags |= Fpu.NX;
        }
        return Double.doubleToRawLongBits(r);
      }
    }
    return u.mulD(a, b, rm);
  }

  public static long fdiv_d(Fpu u, long a, long b, int rm) {
    if (rm == Fpu.RNE) {
      double r = Double.longBitsToDouble(a) / Double.longBitsToDouble(b);
      if (Math.abs(r) > Double.MIN_NORMAL
          && Math.abs(r) <= Double.MAX_VALUE
          && Math.abs(Double.longBitsToDouble(a)) >= Fpu.SAFE_LO) {
        if (Math.fma(-r, Double.longBitsToDouble(b), Double.longBitsToDouble(a)) != 0) {
          u.fflags |= Fpu.NX;
        }
        return Double.doubleToRawLongBits(r);
      }
    }
    return u.divD(a, b, rm);
  }

  public static long fsqrt_d(Fpu u, long a, int rm) {
    if (rm == Fpu.RNE
        && Double.longBitsToDouble(a) >= Fpu.SAFE_LO
        && Double.longBitsToDouble(a) <= Double.MAX_VALUE) {
      double r = Math.sqrt(Double.longBitsToDouble(a));
      if (Math.fma(-r, r, Double.longBitsToDouble(a)) != 0) {
        u.fflags |= Fpu.NX;
      }
      return Double.doubleToRawLongBits(r);
    }
    return u.sqrtD(a, rm);
  }

  public static long fsgnj_d(long a, long b) {
    return (a & Long.MAX_VALUE) | (b & Long.MIN_VALUE);
  }

  public static long fsgnjn_d(long a, long b) {
    return (a & Long.MAX_VALUE) | (~b & Long.MIN_VALUE);
  }

  public static long fsgnjx_d(long a, long b) {
    return a ^ (b & Long.MIN_VALUE);
  }

  public static long fmin_d(Fpu u, long a, long b) {
    return u.minD(a, b);
  }

  public static long fmax_d(Fpu u, long a, long b) {
    return u.maxD(a, b);
  }

  public static long fcvt_s_d(Fpu u, long a, int rm) {
    return Fpu.boxS(u.cvtSD(a, rm));
  }

  /** Exact: the rounding mode is checked (by the caller) but cannot matter. */
  public static long fcvt_d_s(Fpu u, long a, int rm) {
    return u.cvtDS(Fpu.unboxS(a));
  }

  /** Ordered operands compare in place; a NaN (which may raise NV) is Fpu's. */
  public static long feq_d(Fpu u, long a, long b) {
    if (Double.longBitsToDouble(a) == Double.longBitsToDouble(b)) {
      return 1;
    }
    if (Double.longBitsToDouble(a) < Double.longBitsToDouble(b)
        || Double.longBitsToDouble(a) > Double.longBitsToDouble(b)) {
      return 0;
    }
    return u.eqD(a, b);
  }

  public static long flt_d(Fpu u, long a, long b) {
    if (Double.longBitsToDouble(a) < Double.longBitsToDouble(b)) {
      return 1;
    }
    if (Double.longBitsToDouble(a) >= Double.longBitsToDouble(b)) {
      return 0;
    }
    return u.ltD(a, b);
  }

  public static long fle_d(Fpu u, long a, long b) {
    if (Double.longBitsToDouble(a) <= Double.longBitsToDouble(b)) {
      return 1;
    }
    if (Double.longBitsToDouble(a) > Double.longBitsToDouble(b)) {
      return 0;
    }
    return u.leD(a, b);
  }

  public static long fclass_d(long a) {
    return Fpu.classD(a);
  }

  public static long fcvt_w_d(Fpu u, long a, int rm) {
    return u.cvtWD(a, rm);
  }

  public static long fcvt_wu_d(Fpu u, long a, int rm) {
    return (int) u.cvtWUD(a, rm); // the 32-bit result sign-extended, as RV64 writes it
  }

  public static long fcvt_l_d(Fpu u, long a, int rm) {
    return u.cvtLD(a, rm);
  }

  public static long fcvt_lu_d(Fpu u, long a, int rm) {
    return u.cvtLUD(a, rm);
  }

  public static long fcvt_d_w(Fpu u, long a, int rm) {
    return u.cvtDL((int) a, rm);
  }

  public static long fcvt_d_wu(Fpu u, long a, int rm) {
    return u.cvtDL(a & 0xffffffffL, rm);
  }

  public static long fcvt_d_l(Fpu u, long a, int rm) {
    return u.cvtDL(a, rm);
  }

  public static long fcvt_d_lu(Fpu u, long a, int rm) {
    return u.cvtDLU(a, rm);
  }

  public static long fmv_x_d(long a) {
    return a;
  }

  public static long fmv_d_x(long a) {
    return a;
  }
}

package org.dise.runtime.cpu;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.plan.Plan;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.Operand;

/**
 * Which guest integer registers a translated unit must load at each entry and may have to store at
 * each exit (bit r of a long: x[r], the DISE registers included). A unit holds the registers it
 * touches in JVM locals; chess leaves its unit every ~19 guest instructions, so loading every one
 * at every entry and storing every written one at every exit was most of a small unit's cost
 * (docs/benchmarks.md).
 *
 * <p>Loads: backward liveness over the unit's blocks and their static successors inside the unit,
 * so that an entry at block b loads only {@link #liveIn} b, the registers read on some path from b
 * before that path writes them. An indirect jump that stays in the unit ({@code jalr} found by the
 * unit's lookup) is no static edge: the unit loads there every cached register that is not valid
 * yet, so no entry needs to hold registers for such a target.
 *
 * <p>Stores: a register is stored at an exit only if the path taken wrote it. The unit keeps that
 * path in a local mask (each block ORs its {@link #blockWrites} into it when it completes), and an
 * exit in the middle of a block adds what the block wrote before that point ({@link
 * #writtenBefore}), known statically. A conditional write (a register a DISE plan emitted inline
 * may write, or the result of a tagged instruction that the decode stage may run instead) counts as
 * a read too, so that its local is valid whether or not the write happened, and storing it is
 * always right.
 */
final class RegisterLiveness {
  /** Per block: the registers that must be valid (loaded) when the unit is entered at it. */
  final long[] liveIn;

  /** Per block: the registers its code may write (the mask ORed in when it completes). */
  final long[] blockWrites;

  /**
   * Per block, per instruction i (and i = length: the block's end): the registers the block wrote
   * before instruction i, plus those a tagged instruction i's emitted plan or its own result may
   * write before it faults or leaves (valid either way, see above).
   */
  final long[][] writtenBefore;

  /** Every register the unit may write. */
  final long unitWrites;

  /**
   * The unit of {@code blocks}; {@code plans[b][i]}, when not null, is the plan the decode stage
   * gave tagged instruction i of block b (emitted inline as a prologue or a whole replacement).
   */
  RegisterLiveness(List<Block> blocks, Plan[][] plans) {
    int n = blocks.size();
    liveIn = new long[n];
    blockWrites = new long[n];
    writtenBefore = new long[n][];
    long[] exposed = new long[n]; // read before written in the block
    long[] defined = new long[n]; // written unconditionally in the block
    long all = 0;
    for (int b = 0; b < n; b++) {
      DecodedInsn[] insns = blocks.get(b).insns;
      long[] before = new long[insns.length + 1];
      long def = 0;
      long use = 0;
      long may = 0;
      for (int i = 0; i < insns.length; i++) {
        DecodedInsn d = insns[i];
        long reads = bit(d.rs1) | bit(d.rs2); // whatever they name: an extra read is safe
        long writes = writesRd(d) ? bit(d.rd) : 0;
        long conditional = 0;
        if (d.dise != null) {
          conditional = writes;
          writes = 0;
          Plan p = plans[b] == null ? null : plans[b][i];
          if (p != null) {
            reads |= PlanEmitter.reads(p);
            conditional |= PlanEmitter.writes(p);
          }
          reads |= conditional;
        }
        before[i] = may | conditional;
        use |= reads & ~def;
        def |= writes;
        may |= writes | conditional;
      }
      before[insns.length] = may;
      exposed[b] = use;
      defined[b] = def;
      blockWrites[b] = may;
      writtenBefore[b] = before;
      all |= may;
    }
    unitWrites = all;
    int[][] succ = successors(blocks);
    // Backward liveness to a fixed point (a few passes: the masks only grow).
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int b = n - 1; b >= 0; b--) {
        long out = 0;
        for (int s : succ[b]) {
          out |= liveIn[s];
        }
        long in = exposed[b] | (out & ~defined[b]);
        if (in != liveIn[b]) {
          liveIn[b] = in;
          changed = true;
        }
      }
    }
  }

  /**
   * Per block, the blocks of the unit that control reaches straight from it (the dispatch method
   * jumps to them directly): the branch or jump target and the fall-through, as {@link
   * BytecodeTranslator} follows them.
   */
  static int[][] successors(List<Block> blocks) {
    Map<Long, Integer> ids = new HashMap<>();
    for (int i = 0; i < blocks.size(); i++) {
      ids.put(blocks.get(i).start, i);
    }
    int[][] succ = new int[blocks.size()][];
    for (int i = 0; i < blocks.size(); i++) {
      Block b = blocks.get(i);
      DecodedInsn last = b.insns[b.insns.length - 1];
      long taken = last.target();
      Integer takenId = taken >= 0 ? ids.get(taken) : null;
      Integer fallId = last.exec == Op.JAL || last.exec == Op.JALR ? null : ids.get(b.end);
      succ[i] =
          takenId != null && fallId != null
              ? new int[] {takenId, fallId}
              : takenId != null
                  ? new int[] {takenId}
                  : fallId != null ? new int[] {fallId} : new int[0];
    }
    return succ;
  }

  /** Whether {@code d} writes an integer register rd (its row lists RD). */
  static boolean writesRd(DecodedInsn d) {
    return d.exec.operands().contains(Operand.RD);
  }

  static long bit(int reg) {
    return UnitRegisters.real(reg) && reg < 64 ? 1L << reg : 0;
  }
}

package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Operand;
import org.dise.runtime.mem.Memory;
import org.objectweb.asm.MethodVisitor;

/**
 * Register allocation of a translated unit, in one of two shapes ({@code -Dacf.unitRegs}). In
 * {@code locals} the guest integer registers it reads or writes live in JVM locals (two slots each)
 * for the whole unit, loaded at entry and stored at every exit, before every call that reads {@code
 * x[]} and in the fault handler, so that state is precise wherever control leaves the unit. In
 * {@code memory} every read is a load and every write a store of the hart's {@code x[]} ({@code
 * Unsafe.getLong}/{@code putLong}, which C1 turns into one machine access without a bounds check):
 * {@code x[]} is always current, so entries, exits, calls and the fault handler move no register,
 * and no long local lives across the unit for C1's allocator to spill; the default holds the {@link
 * #HELD} registers the unit names most often in locals all the same, as in {@code locals}.
 * Floating-point registers stay in {@code f[]} in both.
 */
final class UnitRegisters {
  /**
   * Whether units keep registers in memory by default ({@code -Dacf.unitRegs=memory|locals}):
   * memory, with {@link #HELD} registers in locals, cost 3-31% less CPU than locals on the long set
   * and no workload more (docs/benchmarks.md, "The unit shape on the long set").
   */
  static final boolean DEFAULT_IN_MEMORY = inMemory(EmulatorProperties.UNIT_REGS.value());

  static boolean inMemory(String shape) {
    return switch (shape) {
      case "memory" -> true;
      case "locals" -> false;
      default ->
          throw new IllegalArgumentException(
              "-Dacf.unitRegs=" + shape + ": expected memory or locals");
    };
  }

  /** Unsafe, for plain accesses of x[] (null where unavailable: then x[] is indexed). */
  static final sun.misc.Unsafe U = Memory.unsafe();

  private static final long X_BASE = U == null ? 0 : U.arrayBaseOffset(long[].class);
  private static final boolean RAW = U != null && U.arrayIndexScale(long[].class) == 8;
  private static final String UNSAFE = "sun/misc/Unsafe";

  private final MethodVisitor mv;

  /** The shape: registers in {@code x[]} rather than in locals. */
  final boolean inMemory;

  /**
   * In memory, how many of a unit's registers stay in locals all the same (a hybrid, {@code
   * -Dacf.unitRegsHeld=N}, 4 by default: 0 and 8 measured slower on the long set): those its code
   * names most often.
   */
  static final int HELD = EmulatorProperties.UNIT_REGS_HELD.value();

  /**
   * In memory, how many more registers a unit may hold when its loops name them ({@code
   * -Dacf.loopRegs=N}, 4 by default; 0: the choice ignores loops; tests set it). With N > 0 the
   * registers its loops ({@link #loopsAll}) name come first, by how often they name them, then the
   * rest of {@link #HELD} by the whole unit's count; a register named in a loop takes one of the N
   * extra places only when the {@link #HELD} are taken (spec/emulator.md, "Loops in a unit").
   */
  static int loopRegs = EmulatorProperties.LOOP_REGS.value();

  /**
   * Which blocks are the loops {@link #loopRegs} favours ({@code -Dacf.loopScope}): false (the
   * default, {@code self}) the blocks that branch back to their own start, the tightest loops,
   * whose every pass would otherwise load and store a register in x[]; true ({@code all}) every
   * block on a cycle of the unit, which on large loop bodies costs more spills than it saves.
   */
  static boolean loopsAll = EmulatorProperties.LOOP_SCOPE.value().equals("all");

  /** In memory: the registers held in locals anyway ({@link #HELD}). */
  private final boolean[] hot = new boolean[Cpu.DISE_REG_BASE + Cpu.DISE_REGS];

  /** How often the unit's instructions name each register (rs1, rs2, rd). */
  private final int[] uses = new int[hot.length];

  /** The same count over the instructions of the unit's loop bodies alone. */
  private final int[] loopUses = new int[hot.length];

  /** The locals holding {@code x[]} and {@code f[]}. */
  private final int X;

  private final int F;

  /** The first guest register's local; a scratch long below it. */
  private final int regBase;

  private final int scratch;

  /** Registers the unit reads or writes (0 and the x0 sink excluded), and those it writes. */
  final boolean[] used = new boolean[Cpu.DISE_REG_BASE + Cpu.DISE_REGS];

  final boolean[] written = new boolean[used.length];

  /**
   * Within one case of a plan ({@link #forwardWrites}): the registers not held in locals that the
   * case wrote, to x[] and to the register's own local as well, so that its later reads take the
   * local rather than loading x[] straight after the store (replacement code writes {@code $drN}
   * and reads it at once: load_strides did so four times per load). Forgotten where control joins.
   */
  private final boolean[] forwarded = new boolean[used.length];

  private boolean forwarding;

  /**
   * Locals {@code x} and {@code f} hold the arrays, {@code scratch} a long, and from {@code
   * regBase} the guest registers (in memory: its first two slots a temporary for a register write).
   */
  UnitRegisters(MethodVisitor mv, int x, int f, int scratch, int regBase, boolean inMemory) {
    this.mv = mv;
    this.inMemory = inMemory;
    this.X = x;
    this.F = f;
    this.scratch = scratch;
    this.regBase = regBase;
  }

  /** Holds {@code reg} in a local and stores it at exits: a register the unit's code writes. */
  void write(int reg) {
    if (real(reg)) {
      used[reg] = true;
      written[reg] = true;
    }
  }

  /** Pushes integer register {@code reg}: the unit's local if it holds one, else {@code x[reg]}. */
  void loadX(int reg) {
    if (inMemory || reg < used.length && used[reg]) {
      get(reg); // the unit's local (x0 and the x0 sink read as 0)
    } else {
      mv.visitVarInsn(ALOAD, X); // current: the unit stored what it wrote
      BytecodeTranslator.iconst(mv, reg);
      mv.visitInsn(LALOAD);
    }
  }

  /** Pops a long into integer register {@code reg}: its local, or {@code x[reg]}. */
  void storeX(int reg) {
    if (inMemory || reg < used.length && used[reg]) {
      if (real(reg)) {
        set(reg);
      } else {
        mv.visitInsn(POP2);
      }
    } else {
      mv.visitVarInsn(LSTORE, scratch);
      mv.visitVarInsn(ALOAD, X);
      BytecodeTranslator.iconst(mv, reg);
      mv.visitVarInsn(LLOAD, scratch);
      mv.visitInsn(LASTORE);
    }
  }

  int slot(int reg) {
    return regBase + 2 * reg;
  }

  static boolean real(int reg) {
    return reg != 0 && reg != DecodedInsn.X0_SINK;
  }

  /**
   * Records the integer registers an instruction reads (rs1 and rs2 whatever they name: an extra
   * load is harmless) and writes (an x register rd).
   */
  void scan(DecodedInsn d) {
    scan(d, false);
  }

  /**
   * As {@link #scan(DecodedInsn)}, for an instruction of a loop body when {@code inLoop}. Only the
   * register fields the instruction reads count: an I-type's rs2 field is bits of its immediate
   * ({@code addi sp,sp,-16} would name a6).
   */
  void scan(DecodedInsn d, boolean inLoop) {
    if (d.exec.readsRs1()) {
      use(d.rs1);
      count(d.rs1, inLoop);
    }
    if (d.exec.readsRs2()) {
      use(d.rs2);
      count(d.rs2, inLoop);
    }
    if (d.exec.operands().contains(Operand.RD)) {
      use(d.rd);
      count(d.rd, inLoop);
      if (real(d.rd)) {
        written[d.rd] = true;
      }
    }
  }

  private void count(int reg, boolean inLoop) {
    if (real(reg) && reg < uses.length) {
      uses[reg]++;
      if (inLoop) {
        loopUses[reg]++;
      }
    }
  }

  /**
   * After the scan: in memory, the {@link #HELD} registers named most often (twice or more); with
   * {@link #loopRegs}, those named in loop bodies first, and up to that many more of them.
   */
  void choose() {
    if (!inMemory) {
      return;
    }
    int n = 0;
    if (loopRegs > 0) {
      for (; n < HELD + loopRegs; n++) {
        int best = -1;
        for (int r = 0; r < uses.length; r++) {
          if (used[r] && !hot[r] && loopUses[r] > 0 && (best < 0 || busier(r, best))) {
            best = r;
          }
        }
        if (best < 0) {
          break;
        }
        hot[best] = true;
      }
    }
    for (; n < HELD; n++) {
      int best = -1;
      for (int r = 0; r < uses.length; r++) {
        if (used[r] && !hot[r] && uses[r] >= 2 && (best < 0 || uses[r] > uses[best])) {
          best = r;
        }
      }
      if (best < 0) {
        return;
      }
      hot[best] = true;
    }
  }

  /** Whether register {@code r} is named more often in loops than {@code s} (then in the unit). */
  private boolean busier(int r, int s) {
    return loopUses[r] != loopUses[s] ? loopUses[r] > loopUses[s] : uses[r] > uses[s];
  }

  /** Whether register {@code r} lives in a local of the unit. */
  private boolean held(int r) {
    return !inMemory || hot[r];
  }

  void use(int reg) {
    if (real(reg)) {
      used[reg] = true;
    }
  }

  void storeWritten() {
    storeWritten(-1L);
  }

  /** Stores the written registers of {@code mask} (bit r: x[r], DISE registers included). */
  void storeWritten(long mask) {
    for (int r = 0; r < written.length; r++) { // fewer than 64 registers
      if (written[r] && held(r) && (mask >>> r & 1) != 0) {
        mv.visitVarInsn(ALOAD, X);
        BytecodeTranslator.iconst(mv, r);
        mv.visitVarInsn(LLOAD, slot(r));
        mv.visitInsn(LASTORE);
      }
    }
  }

  /** Reloads every cached register from x[] (after a handler that wrote there). */
  void reloadUsed() {
    for (int r = 0; r < used.length; r++) {
      if (used[r] && held(r)) {
        mv.visitVarInsn(ALOAD, X);
        BytecodeTranslator.iconst(mv, r);
        mv.visitInsn(LALOAD);
        mv.visitVarInsn(LSTORE, slot(r));
      }
    }
  }

  /** Reloads the cached registers of {@code mask} from x[]. */
  void reload(long mask) {
    for (int r = 0; r < used.length && r < 64; r++) {
      if (used[r] && held(r) && (mask >>> r & 1) != 0) {
        mv.visitVarInsn(ALOAD, X);
        BytecodeTranslator.iconst(mv, r);
        mv.visitInsn(LALOAD);
        mv.visitVarInsn(LSTORE, slot(r));
      }
    }
  }

  /**
   * Starts (or ends) forwarding the case's register writes to its later reads ({@link #forwarded});
   * either way nothing is forwarded yet.
   */
  void forwardWrites(boolean on) {
    forwarding = on;
    forget();
  }

  /** Forgets the forwarded writes: at a join, or after code that may write x[] itself. */
  void forget() {
    java.util.Arrays.fill(forwarded, false);
  }

  void get(int reg) {
    if (!real(reg)) {
      mv.visitInsn(LCONST_0);
    } else if (held(reg) || forwarded[reg]) {
      mv.visitVarInsn(LLOAD, slot(reg));
    } else {
      element(reg);
      if (RAW) {
        mv.visitMethodInsn(INVOKEVIRTUAL, UNSAFE, "getLong", "(Ljava/lang/Object;J)J", false);
      } else {
        mv.visitInsn(LALOAD);
      }
    }
  }

  /**
   * Pushes what addresses {@code x[reg]}: Unsafe, the array and the element's offset, or (without
   * Unsafe) the array and the index.
   */
  private void element(int reg) {
    if (RAW) {
      mv.visitFieldInsn(GETSTATIC, "org/dise/runtime/cpu/UnitRegisters", "U", "L" + UNSAFE + ";");
      mv.visitVarInsn(ALOAD, X);
      mv.visitLdcInsn(X_BASE + 8L * reg);
    } else {
      mv.visitVarInsn(ALOAD, X);
      BytecodeTranslator.iconst(mv, reg);
    }
  }

  /** Stores the long on the stack in rd (dropped for x0). */
  void put(DecodedInsn d) {
    if (real(d.rd)) {
      set(d.rd);
    } else {
      mv.visitInsn(POP2);
    }
  }

  /** Pops a long into register {@code reg} (a real one): its local, or x[reg] in memory. */
  private void set(int reg) {
    if (held(reg)) {
      mv.visitVarInsn(LSTORE, slot(reg));
      return;
    }
    // slot(0): x0 never lives in a local; forwarded, the register's own (unused when not held).
    int tmp = forwarding ? slot(reg) : regBase;
    forwarded[reg] = forwarding;
    mv.visitVarInsn(LSTORE, tmp);
    element(reg);
    mv.visitVarInsn(LLOAD, tmp);
    if (RAW) {
      mv.visitMethodInsn(INVOKEVIRTUAL, UNSAFE, "putLong", "(Ljava/lang/Object;JJ)V", false);
    } else {
      mv.visitInsn(LASTORE);
    }
  }

  void fget(int reg) {
    mv.visitVarInsn(ALOAD, F);
    BytecodeTranslator.iconst(mv, reg);
    mv.visitInsn(LALOAD);
  }

  /** f[reg] = the long on the stack. */
  void fput(int reg) {
    int tmp = scratch;
    mv.visitVarInsn(LSTORE, tmp);
    mv.visitVarInsn(ALOAD, F);
    BytecodeTranslator.iconst(mv, reg);
    mv.visitVarInsn(LLOAD, tmp);
    mv.visitInsn(LASTORE);
  }
}

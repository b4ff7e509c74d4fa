package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * Translates a unit of hot blocks straight to JVM bytecode with ASM, in process and in
 * microseconds: guest integer registers in JVM locals for the whole unit, a dispatch loop that
 * follows control between the unit's blocks, self-loops as JVM loops. What each instruction
 * computes comes from {@link SemanticsTable} and {@link Semantics}, the interpreter's own
 * definitions. The class is a hidden class of this package, so it is unloaded with the unit.
 */
final class BytecodeTranslator {
  private BytecodeTranslator() {}

  private static final String CPU = "org/dise/runtime/cpu/Cpu";
  private static final String MEM = "org/dise/runtime/mem/Memory";
  private static final String FPU = "org/dise/runtime/cpu/Fpu";
  private static final String INSN = "org/dise/runtime/isa/DecodedInsn";
  private static final String NAME = "org/dise/runtime/cpu/TranslatedUnit";

  /** The units' superclass (an abstract class: the dispatcher's call goes through the vtable). */
  private static final String COMPILED = "org/dise/runtime/cpu/CompiledBlocks";

  /** {@code MethodHandles.classDataAt}: a constant of the unit's class data, resolved once. */
  private static final Handle CLASS_DATA_AT =
      new Handle(
          H_INVOKESTATIC,
          "java/lang/invoke/MethodHandles",
          "classDataAt",
          "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;I)"
              + "Ljava/lang/Object;",
          false);

  /** Defines the unit's class and returns its instance. */
  static CompiledBlocks define(List<Block> blocks, boolean observed, DecodeStage stage)
      throws Exception {
    // TooLarge propagates: the caller splits the unit.
    List<Object> constants = new ArrayList<>();
    byte[] bytes = classBytes(blocks, observed, stage, constants);
    // The emitted prologues' constants are the class's data: the unit holds them strongly.
    MethodHandles.Lookup lookup =
        MethodHandles.lookup()
            .defineHiddenClassWithClassData(
                bytes, List.copyOf(constants), true, MethodHandles.Lookup.ClassOption.NESTMATE);
    DecodedInsn[][] insns = new DecodedInsn[blocks.size()][];
    for (int i = 0; i < blocks.size(); i++) {
      insns[i] = blocks.get(i).insns;
    }
    return (CompiledBlocks)
        lookup
            .lookupClass()
            .getDeclaredConstructor(DecodedInsn[][].class)
            .newInstance((Object) insns);
  }

  /** The class file of a unit (public for tests that inspect or verify it). */
  static byte[] classBytes(List<Block> blocks, boolean observed) throws TooLarge {
    return classBytes(blocks, observed, null);
  }

  /**
   * The class file of a unit translated under decode stage {@code stage}: its tagged instructions
   * call it directly (see {@link BlockMethod#tagged}).
   */
  static byte[] classBytes(List<Block> blocks, boolean observed, DecodeStage stage)
      throws TooLarge {
    return classBytes(blocks, observed, stage, new ArrayList<>());
  }

  /**
   * As {@link #classBytes(List, boolean, DecodeStage)}, adding to {@code constants} the objects its
   * emitted prologues load ({@link PrologueEmitter.Unit#loadConstant}): the class's data.
   */
  private static byte[] classBytes(
      List<Block> blocks, boolean observed, DecodeStage stage, List<Object> constants)
      throws TooLarge {
    ClassWriter cw =
        new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
          @Override
          protected String getCommonSuperClass(String a, String b) {
            return "java/lang/Object"; // only Throwable handlers merge; no class loading here
          }
        };
    cw.visit(V17, ACC_FINAL | ACC_SUPER, NAME, null, COMPILED, null);
    cw.visitField(ACC_PRIVATE | ACC_FINAL, "insns", "[[L" + INSN + ";", null, null).visitEnd();
    cw.visitField(ACC_PRIVATE | ACC_VOLATILE, "stale", "Z", null, null).visitEnd();

    MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "([[L" + INSN + ";)V", null, null);
    init.visitCode();
    init.visitVarInsn(ALOAD, 0);
    init.visitMethodInsn(INVOKESPECIAL, COMPILED, "<init>", "()V", false);
    init.visitVarInsn(ALOAD, 0);
    init.visitVarInsn(ALOAD, 1);
    init.visitFieldInsn(PUTFIELD, NAME, "insns", "[[L" + INSN + ";");
    init.visitInsn(RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();

    MethodVisitor inv = cw.visitMethod(ACC_PUBLIC, "invalidate", "()V", null, null);
    inv.visitCode();
    inv.visitVarInsn(ALOAD, 0);
    inv.visitInsn(ICONST_1);
    inv.visitFieldInsn(PUTFIELD, NAME, "stale", "Z");
    inv.visitInsn(RETURN);
    inv.visitMaxs(0, 0);
    inv.visitEnd();

    if (runMethod(cw, blocks, observed, stage, constants) >= HUGE_METHOD) {
      throw new TooLarge();
    }
    if (!constants.isEmpty()) {
      // C1 will not compile a method with an unresolved dynamic constant (it waits for C2): the
      // class's initialisation resolves them all before the unit first runs.
      MethodVisitor clinit = cw.visitMethod(ACC_STATIC, "<clinit>", "()V", null, null);
      clinit.visitCode();
      for (int i = 0; i < constants.size(); i++) {
        clinit.visitLdcInsn(classData(i));
        clinit.visitInsn(POP);
      }
      clinit.visitInsn(RETURN);
      clinit.visitMaxs(0, 0);
      clinit.visitEnd();
    }
    MethodVisitor lk = cw.visitMethod(ACC_PRIVATE | ACC_STATIC, "lookup", "(J)I", null, null);
    lk.visitCode();
    lookup(lk, blocks);
    lk.visitInsn(IRETURN);
    lk.visitMaxs(0, 0);
    lk.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** Entry {@code index} of the unit's class data, as one constant pool entry per index. */
  private static ConstantDynamic classData(int index) {
    return new ConstantDynamic("_", "Ljava/lang/Object;", CLASS_DATA_AT, index);
  }

  // Locals of run(int id, Cpu cpu, long[] x, long[] f, Memory mem, long budget).
  private static final int R_THIS = 0;
  private static final int R_ID = 1;
  private static final int R_CPU = 2;
  private static final int R_X = 3;
  private static final int R_F = 4;
  private static final int R_MEM = 5;
  private static final int R_BUDGET = 6;
  private static final int R_N = 8;
  private static final int R_PC = 10;
  private static final int R_VECTOR = 12;

  /** Then k, scratch, and the guest registers (BlockMethod's inline layout). */
  private static final int R_K = 14;

  /** HotSpot compiles no method of more than 8000 bytes of bytecode (DontCompileHugeMethods). */
  static final int HUGE_METHOD = 8000;

  /** A unit whose dispatch method would be too large for HotSpot to compile: split it. */
  static final class TooLarge extends Exception {
    TooLarge() {
      super(null, null, false, false);
    }
  }

  /**
   * The dispatch loop: runs block {@code id}, then its successor while it is in the unit. The
   * blocks are inline, and the guest registers the unit uses live in its locals from entry to exit,
   * so control passing between the unit's blocks costs a compare and a jump. Returns the method's
   * size in bytes.
   */
  private static int runMethod(
      ClassWriter cw,
      List<Block> blocks,
      boolean observed,
      DecodeStage stage,
      List<Object> constants) {
    MethodVisitor mv =
        cw.visitMethod(ACC_PUBLIC, "run", "(IL" + CPU + ";[J[JL" + MEM + ";J)J", null, null);
    mv.visitCode();
    Map<Long, Integer> ids = new HashMap<>();
    for (int i = 0; i < blocks.size(); i++) {
      ids.put(blocks.get(i).start, i);
    }
    lconst(mv, 0);
    mv.visitVarInsn(LSTORE, R_N);
    lconst(mv, 0);
    mv.visitVarInsn(LSTORE, R_PC);
    // Only the decode stage changes the flag vector, and only when the unit calls it: one read of
    // the cpu's copy here (0 without a stage), and one after each call.
    loadVector(mv);
    BlockMethod code = new BlockMethod(mv, blocks, observed, stage);
    code.constants = constants;
    code.enter();

    Label tryStart = new Label();
    Label tryEnd = new Label();
    Label handler = new Label();
    Label loop = new Label();
    Label check = new Label();
    Label dflt = new Label();
    Label[] cases = new Label[blocks.size()];
    for (int i = 0; i < cases.length; i++) {
      cases[i] = new Label();
    }
    // A tagged instruction's call into the decode stage has its own handler (first, so it takes
    // precedence): the registers were stored before the call, and the stage may have changed
    // x[] before it faulted, so they must not be stored again.
    Label partHandler = new Label();
    Label leave = new Label();
    code.taggedHandler(partHandler, leave);
    mv.visitTryCatchBlock(tryStart, tryEnd, handler, "java/lang/RuntimeException");
    mv.visitLabel(tryStart);
    mv.visitLabel(loop);
    mv.visitVarInsn(ILOAD, R_ID);
    mv.visitTableSwitchInsn(0, blocks.size() - 1, dflt, cases);
    for (int i = 0; i < blocks.size(); i++) {
      Block b = blocks.get(i);
      DecodedInsn last = b.insns[b.insns.length - 1];
      int len = b.insns.length;
      mv.visitLabel(cases[i]);
      boolean selfLoop = last.target() == b.start;
      Label top = new Label();
      mv.visitLabel(top);
      // if (n + len > budget) { cpu.unitSteps = n; return start; }
      Label fits = new Label();
      mv.visitVarInsn(LLOAD, R_N);
      lconst(mv, len);
      mv.visitInsn(LADD);
      mv.visitVarInsn(LLOAD, R_BUDGET);
      mv.visitInsn(LCMP);
      mv.visitJumpInsn(IFLE, fits);
      setUnitSteps(mv);
      code.storeWritten();
      lconst(mv, b.start);
      mv.visitInsn(LRETURN);
      mv.visitLabel(fits);
      Label blockDone = new Label();
      code.emitBlock(i, b, blockDone);
      mv.visitLabel(blockDone);
      mv.visitVarInsn(LLOAD, R_N);
      lconst(mv, len);
      mv.visitInsn(LADD);
      mv.visitVarInsn(LSTORE, R_N);
      if (observed) {
        mv.visitVarInsn(ALOAD, R_CPU);
        lconst(mv, last.pc);
        iconst(mv, len);
        iconst(mv, b.transferEnd ? 1 : 0);
        mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "observe", "(JIZ)V", false);
      }
      if (selfLoop) {
        // A block that branches to itself becomes a JVM loop, which HotSpot compiles as one.
        Label out = new Label();
        leaveUnlessAt(mv, R_PC, b.start, out);
        mv.visitVarInsn(ALOAD, R_CPU);
        mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "interruptPending", "()Z", false);
        mv.visitJumpInsn(IFEQ, top);
        mv.visitLabel(out);
      }
      // Successors known at translation time get their ids as constants.
      long taken = last.target();
      Integer takenId = taken >= 0 ? ids.get(taken) : null;
      Integer fallId = last.exec == Op.JAL || last.exec == Op.JALR ? null : ids.get(b.end);
      if (takenId != null) {
        Label no = new Label();
        mv.visitVarInsn(LLOAD, R_PC);
        lconst(mv, taken);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFNE, no);
        jumpTo(mv, i, takenId, cases[takenId], leave);
        mv.visitLabel(no);
      }
      if (fallId != null) {
        Label no = new Label();
        mv.visitVarInsn(LLOAD, R_PC);
        lconst(mv, b.end);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFNE, no);
        jumpTo(mv, i, fallId, cases[fallId], leave);
        mv.visitLabel(no);
      }
      if (last.exec == Op.JALR) {
        mv.visitVarInsn(LLOAD, R_PC);
        mv.visitMethodInsn(INVOKESTATIC, NAME, "lookup", "(J)I", false);
      } else {
        iconst(mv, -1);
      }
      mv.visitVarInsn(ISTORE, R_ID);
      mv.visitJumpInsn(GOTO, check);
    }
    code.emitOutOfLine();
    mv.visitLabel(dflt);
    setUnitSteps(mv);
    code.storeWritten();
    mv.visitVarInsn(LLOAD, R_PC);
    mv.visitInsn(LRETURN);
    // if (id < 0 || stale || cpu.interruptPending()) { cpu.unitSteps = n; return pc; }
    mv.visitLabel(check);
    mv.visitVarInsn(ILOAD, R_ID);
    mv.visitJumpInsn(IFLT, leave);
    mv.visitVarInsn(ALOAD, R_THIS);
    mv.visitFieldInsn(GETFIELD, NAME, "stale", "Z");
    mv.visitJumpInsn(IFNE, leave);
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "interruptPending", "()Z", false);
    mv.visitJumpInsn(IFEQ, loop);
    mv.visitLabel(leave);
    setUnitSteps(mv);
    code.storeWritten();
    mv.visitVarInsn(LLOAD, R_PC);
    mv.visitInsn(LRETURN);
    mv.visitLabel(tryEnd);
    // catch (RuntimeException e): the block that threw counts the instructions before the
    // faulting one, which the interpreter reports.
    // A handler's entry must not be reached by normal flow (C1 refuses to compile such a
    // method), so both handlers jump to the shared part.
    Label common = new Label();
    mv.visitLabel(partHandler);
    mv.visitJumpInsn(GOTO, common);
    mv.visitLabel(handler);
    // A unit that writes no register stores nothing here: without the NOP, handler and common
    // would share a bytecode index that partHandler's goto reaches, and C1 refuses the method.
    mv.visitInsn(NOP);
    // The registers as the instructions before the faulting one left them: precise state.
    code.storeWritten();
    mv.visitLabel(common);
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitVarInsn(ILOAD, R_K);
    mv.visitFieldInsn(PUTFIELD, CPU, "faultIndex", "I");
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitVarInsn(LLOAD, R_N);
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitFieldInsn(GETFIELD, CPU, "faultIndex", "I");
    mv.visitInsn(I2L);
    mv.visitInsn(LADD);
    mv.visitFieldInsn(PUTFIELD, CPU, "unitSteps", "J");
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitVarInsn(ALOAD, R_THIS);
    mv.visitFieldInsn(GETFIELD, NAME, "insns", "[[L" + INSN + ";");
    mv.visitVarInsn(ILOAD, R_ID);
    mv.visitInsn(AALOAD);
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitFieldInsn(GETFIELD, CPU, "faultIndex", "I");
    mv.visitInsn(AALOAD);
    mv.visitFieldInsn(PUTFIELD, CPU, "faultInsn", "L" + INSN + ";");
    mv.visitInsn(ATHROW);
    Label end = new Label();
    mv.visitLabel(end);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    return end.getOffset();
  }

  /**
   * Goes from block {@code from} to its successor {@code to}, known at translation, with a direct
   * jump to the successor's code rather than through the dispatch switch (one indirect jump for
   * every transfer in the unit, which the host's branch predictor sees as one site). A forward edge
   * jumps at once: the blocks are in a fixed order, so every cycle of the unit's control flow holds
   * a backward edge, and a backward edge (or a block's own loop, or a {@code jalr}) first leaves
   * the unit when it went out of date or an interrupt is pending, as the dispatch does. R_ID names
   * the block for the fault handler either way.
   */
  private static void jumpTo(MethodVisitor mv, int from, int to, Label target, Label leave) {
    iconst(mv, to);
    mv.visitVarInsn(ISTORE, R_ID);
    if (to <= from) {
      mv.visitVarInsn(ALOAD, R_THIS);
      mv.visitFieldInsn(GETFIELD, NAME, "stale", "Z");
      mv.visitJumpInsn(IFNE, leave);
      mv.visitVarInsn(ALOAD, R_CPU);
      mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "interruptPending", "()Z", false);
      mv.visitJumpInsn(IFNE, leave);
    }
    mv.visitJumpInsn(GOTO, target);
  }

  /** Pushes the id of the unit's block at {@code pc} (argument 0 of lookup), or -1. */
  private static void lookup(MethodVisitor mv, List<Block> blocks) {
    TreeMap<Integer, Integer> byLow = new TreeMap<>();
    for (int i = 0; i < blocks.size(); i++) {
      byLow.put((int) blocks.get(i).start, i);
    }
    Label miss = new Label();
    Label done = new Label();
    // Guest addresses are below 4 GiB: a pc with high bits set is no block of ours.
    mv.visitVarInsn(LLOAD, 0);
    iconst(mv, 32);
    mv.visitInsn(LUSHR);
    lconst(mv, 0);
    mv.visitInsn(LCMP);
    mv.visitJumpInsn(IFNE, miss);
    int[] keys = new int[byLow.size()];
    Label[] labels = new Label[byLow.size()];
    int k = 0;
    for (var e : byLow.entrySet()) {
      keys[k] = e.getKey();
      labels[k] = new Label();
      k++;
    }
    mv.visitVarInsn(LLOAD, 0);
    mv.visitInsn(L2I);
    mv.visitLookupSwitchInsn(miss, keys, labels);
    k = 0;
    for (var e : byLow.entrySet()) {
      mv.visitLabel(labels[k++]);
      iconst(mv, e.getValue());
      mv.visitJumpInsn(GOTO, done);
    }
    mv.visitLabel(miss);
    iconst(mv, -1);
    mv.visitLabel(done);
  }

  /** R_VECTOR = cpu.vectorBit: the decode stage's flag vector as the cpu keeps it. */
  private static void loadVector(MethodVisitor mv) {
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitFieldInsn(GETFIELD, CPU, "vectorBit", "J");
    mv.visitVarInsn(LSTORE, R_VECTOR);
  }

  /** cpu.unitSteps = n. */
  private static void setUnitSteps(MethodVisitor mv) {
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitVarInsn(LLOAD, R_N);
    mv.visitFieldInsn(PUTFIELD, CPU, "unitSteps", "J");
  }

  static void lconst(MethodVisitor mv, long v) {
    if (v == 0) {
      mv.visitInsn(LCONST_0);
    } else if (v == 1) {
      mv.visitInsn(LCONST_1);
    } else if (v == (int) v && v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
      iconst(mv, (int) v);
      mv.visitInsn(I2L);
    } else {
      mv.visitLdcInsn(v);
    }
  }

  /**
   * Jumps to {@code leave} unless the guest pc in long local {@code pcVar} is {@code expected} and
   * the unit has not gone stale (a store into its code): the condition shared by every place where
   * straight-line code stays in the unit (a block looping to itself, the instruction after a tagged
   * one). The caller emits its own last condition (a pending interrupt, the budget).
   */
  private static void leaveUnlessAt(MethodVisitor mv, int pcVar, long expected, Label leave) {
    mv.visitVarInsn(LLOAD, pcVar);
    lconst(mv, expected);
    mv.visitInsn(LCMP);
    mv.visitJumpInsn(IFNE, leave);
    mv.visitVarInsn(ALOAD, R_THIS);
    mv.visitFieldInsn(GETFIELD, NAME, "stale", "Z");
    mv.visitJumpInsn(IFNE, leave);
  }

  static void iconst(MethodVisitor mv, int v) {
    if (v >= -1 && v <= 5) {
      mv.visitInsn(ICONST_0 + v);
    } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
      mv.visitIntInsn(BIPUSH, v);
    } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
      mv.visitIntInsn(SIPUSH, v);
    } else {
      mv.visitLdcInsn(v);
    }
  }

  /**
   * The code of a unit's blocks, inline in its dispatch method. Integer registers live in JVM
   * locals for the whole unit: loaded once at entry, stored at every exit and before every call
   * into the decode stage; a fault leaves them as the instructions before it left them, so the
   * handler's store is the precise state.
   */
  private static final class BlockMethod {
    // The dispatch method's locals (R_*), then k, scratch and two slots per guest register.
    private static final int THIS = R_THIS;
    private final int CPU_L;
    private final int X;
    private final int F;
    private final int MEMORY;

    /** Whether the unit reports to the block observer. */
    private final boolean observed;

    /** The decode stage the unit is translated under (null: none). */
    private final DecodeStage stage;

    private int id;
    private Block b;
    private Label done;

    /** The class data: what emitted prologues load as constants, by index. */
    private List<Object> constants = new ArrayList<>();

    private final Map<Object, Integer> constantIndex = new IdentityHashMap<>();

    /** Where an early exit goes (the dispatch loop's exit: unit steps, store, return R_PC). */
    private Label leave;

    /** Per block, per instruction: the try range of a tagged instruction's call, or null. */
    private final Label[][][] taggedCalls;

    private final int k;
    private final int regBase;
    private final int scratch;

    /** Locals holding the memory's readable and (at +1) writable page arrays. */
    private final int pages;

    /** Registers the block reads or writes (0 and the x0 sink excluded), and those it writes. */
    private final boolean[] used = new boolean[Cpu.DISE_REG_BASE + Cpu.DISE_REGS];

    private final boolean[] written = new boolean[used.length];
    private MethodVisitor mv;
    private final List<Block> blocks;

    /**
     * The unit's blocks inline in the dispatch method {@code mv}: guest registers in its locals for
     * the whole unit, loaded at entry ({@link #loadUsed}) and stored at every exit.
     */
    BlockMethod(MethodVisitor mv, List<Block> blocks, boolean observed, DecodeStage stage) {
      this.observed = observed;
      this.stage = stage;
      this.mv = mv;
      this.blocks = blocks;
      this.taggedCalls = new Label[blocks.size()][][];
      this.CPU_L = R_CPU;
      this.X = R_X;
      this.F = R_F;
      this.MEMORY = R_MEM;
      this.k = R_K;
      this.scratch = R_K + 1;
      this.pages = scratch + 6;
      this.regBase = scratch + 8;
      for (Block blk : blocks) {
        for (DecodedInsn d : blk.insns) {
          scan(d);
        }
      }
      this.replacements = new ReplacementEmitter[blocks.size()][];
      for (int id = 0; id < blocks.size(); id++) {
        DecodedInsn[] insns = blocks.get(id).insns;
        for (int i = 0; stage != null && i < insns.length; i++) {
          if (insns[i].dise != null && !stage.splitsOriginal(insns[i])) {
            replacementAt(id, i, insns[i]);
          }
        }
      }
    }

    /** Per block, per instruction: a tagged instruction's replacement emitted inline, or null. */
    private final ReplacementEmitter[][] replacements;

    /** Asks the stage for tagged instruction {@code i}'s replacement and holds its registers. */
    private void replacementAt(int id, int i, DecodedInsn d) {
      ReplacementEmitter r = stage.replacementEmitter(d);
      if (r == null) {
        return;
      }
      if (replacements[id] == null) {
        replacements[id] = new ReplacementEmitter[blocks.get(id).insns.length];
      }
      replacements[id][i] = r;
      for (int reg = 0; reg < used.length; reg++) {
        if ((r.registersRead() >>> reg & 1) != 0) {
          use(reg);
        }
        if ((r.registersWritten() >>> reg & 1) != 0 && real(reg)) {
          used[reg] = true;
          written[reg] = true;
        }
      }
    }

    /** Inline: emits block {@code id}; every exit leaves its next pc in R_PC and jumps to done. */
    void emitBlock(int id, Block b, Label done) {
      this.id = id;
      this.b = b;
      this.done = done;
      boolean returned = false;
      for (int i = 0; i < b.insns.length; i++) {
        DecodedInsn d = b.insns[i];
        if (d.dise == null) {
          returned = insn(d, i);
          continue;
        }
        // A tagged instruction: under a flag vector that lets one of its productions match, the
        // decode stage runs it (and its replacement) in one direct call; otherwise it runs as
        // untagged code. The call is out of line (emitted after the unit's blocks, see
        // emitOutOfLine), so that while the flags keep it off the block has the shape of an
        // untagged one plus one mask test.
        OutOfLine o = new OutOfLine(id, b, done, d, i, new Label(), new Label(), new Label());
        outOfLine.add(o);
        lconst(mv, d.diseMask);
        mv.visitVarInsn(LLOAD, R_VECTOR);
        mv.visitInsn(LAND);
        lconst(mv, 0);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFNE, o.call);
        mv.visitLabel(o.plain);
        returned = insn(d, i);
        mv.visitLabel(o.after);
      }
      if (!returned) {
        exitConst(b.end);
      }
    }

    /** A tagged instruction's call into the decode stage, emitted after the unit's blocks. */
    private record OutOfLine(
        int id, Block b, Label done, DecodedInsn d, int i, Label call, Label plain, Label after) {}

    private final List<OutOfLine> outOfLine = new java.util.ArrayList<>();

    /**
     * Emits the tagged instructions' calls into the decode stage (inside the unit's try range):
     * each returns to its instruction run inline ({@link #prologue}), to the instruction after it,
     * or leaves the block ({@link #tagged}).
     */
    void emitOutOfLine() {
      for (OutOfLine o : outOfLine) {
        this.id = o.id;
        this.b = o.b;
        this.done = o.done;
        mv.visitLabel(o.call);
        mark(o.i);
        if (stage != null && stage.splitsOriginal(o.d)) {
          // The stage's prologue, then the instruction inline as untagged code.
          prologue(o.i);
          mv.visitJumpInsn(GOTO, o.plain);
          continue;
        }
        ReplacementEmitter r = replacements[o.id] == null ? null : replacements[o.id][o.i];
        if (r != null) {
          replacement(o, r);
          continue;
        }
        tagged(o.d, o.i);
        if (o.i < o.b.insns.length - 1) {
          mv.visitJumpInsn(GOTO, o.after);
        }
      }
      outOfLine.clear();
    }

    /**
     * Registers the try range of every tagged instruction's call with {@code handler} (before the
     * unit's own range, so that it takes precedence); {@code leave} is the unit's exit.
     */
    void taggedHandler(Label handler, Label leave) {
      this.leave = leave;
      for (int id = 0; id < blocks.size(); id++) {
        DecodedInsn[] insns = blocks.get(id).insns;
        for (int i = 0; i < insns.length; i++) {
          if (insns[i].dise != null) {
            if (taggedCalls[id] == null) {
              taggedCalls[id] = new Label[insns.length][];
            }
            Label[] range = {new Label(), new Label()};
            taggedCalls[id][i] = range;
            mv.visitTryCatchBlock(range[0], range[1], handler, "java/lang/RuntimeException");
          }
        }
      }
    }

    /**
     * The decode stage's part of tagged instruction {@code i} ({@code k} already holds i): the
     * registers held in locals go to x[] (the stage, its sinks and the replacement read them),
     * {@link Cpu#runTagged} runs the stage with the exact instruction count, and the registers the
     * stage may write come back. The unit goes on after it unless the replacement left for another
     * address, the guest exited, the unit went out of date or the step budget would be passed; then
     * it leaves with the instructions so far, for the dispatcher.
     */
    private void tagged(DecodedInsn d, int i) {
      int len = b.insns.length;
      boolean last = i == len - 1;
      storeWritten();
      Label[] range = taggedCalls[id][i];
      mv.visitLabel(range[0]);
      mv.visitVarInsn(ALOAD, CPU_L);
      loadInsn(id, i);
      loadCount(i);
      mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "runTagged", "(L" + INSN + ";J)J", false);
      mv.visitLabel(range[1]);
      mv.visitVarInsn(LSTORE, scratch);
      // n counts the block's instructions at its end: add what the stage ran beyond this one.
      mv.visitVarInsn(ALOAD, CPU_L);
      mv.visitFieldInsn(GETFIELD, CPU, "taggedSteps", "J");
      mv.visitInsn(LCONST_1);
      mv.visitInsn(LSUB);
      mv.visitVarInsn(LLOAD, R_N);
      mv.visitInsn(LADD);
      mv.visitVarInsn(LSTORE, R_N);
      reload(written(d));
      // Micro-ops may have changed the flags.
      loadVector(mv);
      Label early = new Label();
      mv.visitVarInsn(ALOAD, CPU_L);
      mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "halted", "()Z", false);
      mv.visitJumpInsn(IFNE, early);
      if (last) {
        // The block's transfer: the dispatch loop follows it (and checks staleness).
        mv.visitVarInsn(LLOAD, scratch);
        mv.visitVarInsn(LSTORE, R_PC);
        mv.visitJumpInsn(GOTO, done);
      } else {
        Label on = new Label();
        leaveUnlessAt(mv, scratch, d.npc, early);
        mv.visitVarInsn(LLOAD, R_N);
        lconst(mv, len);
        mv.visitInsn(LADD);
        mv.visitVarInsn(LLOAD, R_BUDGET);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFLE, on);
        mv.visitLabel(early);
        earlyExit(d, i);
        mv.visitLabel(on);
        return;
      }
      mv.visitLabel(early);
      earlyExit(d, i);
    }

    /**
     * The prologue of tagged instruction {@code i} ({@code k} already holds i) that the decode
     * stage splits ({@link DecodeStage#splitsOriginal}): the registers held in locals go to x[]
     * (sinks read them), {@link Cpu#runBefore} runs the micro-ops and sink calls with the exact
     * instruction count, and the flag vector is read again. No register comes back (the prologue
     * writes none) and the unit goes on to the instruction itself.
     */
    private void prologue(int i) {
      DecodedInsn d = b.insns[i];
      PrologueEmitter emitter = stage.prologueEmitter(d);
      storeWritten(emitter == null ? -1L : emitter.registersRead());
      Label[] range = taggedCalls[id][i];
      mv.visitLabel(range[0]);
      if (emitter != null) {
        // The stage's prologue as bytecode, bracketed by the count and pc it reads.
        mv.visitVarInsn(ALOAD, CPU_L);
        loadCount(i);
        lconst(mv, d.pc);
        mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "enterPrologue", "(JJ)V", false);
        emitter.emit(new EmittedUnit(id, i));
        mv.visitVarInsn(ALOAD, CPU_L);
        loadCount(i);
        mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "leavePrologue", "(J)V", false);
        mv.visitLabel(range[1]);
        loadVector(mv);
        return;
      }
      mv.visitVarInsn(ALOAD, CPU_L);
      loadInsn(id, i);
      loadCount(i);
      mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "runBefore", "(L" + INSN + ";J)V", false);
      mv.visitLabel(range[1]);
      loadVector(mv);
    }

    /**
     * The whole replacement of tagged instruction {@code o.i} ({@code k} already holds i) emitted
     * inline by the decode stage ({@link ReplacementEmitter}): the cpu's count and pc brought up to
     * date around the code before and after {@code T.INSN}, which runs as the unit's own code (a
     * copy of it here, or the plain one when it ends the block and nothing follows it). Inserted
     * instructions count in n, so after the replacement the unit goes on only while the budget
     * allows the rest of the block, as after {@link #tagged}.
     */
    private void replacement(OutOfLine o, ReplacementEmitter r) {
      DecodedInsn d = o.d;
      int i = o.i;
      boolean last = i == b.insns.length - 1;
      Label[] range = taggedCalls[id][i];
      mv.visitLabel(range[0]);
      mv.visitVarInsn(ALOAD, CPU_L);
      loadCount(i);
      lconst(mv, d.pc);
      mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "enterReplacement", "(JJ)V", false);
      mv.visitLabel(range[1]);
      r.emit(new ReplacementUnit(o, r.runsAfterOriginal()));
      if (last) {
        if (r.runsAfterOriginal()) {
          // The block's transfer ran (R_PC holds where it goes): the dispatch loop follows it.
          mv.visitVarInsn(ALOAD, CPU_L);
          loadCount(i + 1);
          mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "leavePrologue", "(J)V", false);
          mv.visitJumpInsn(GOTO, o.done);
        }
        return; // else every path went to the plain instruction
      }
      if (r.runsAfterOriginal()) {
        mv.visitVarInsn(ALOAD, CPU_L);
        loadCount(i + 1);
        mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "leavePrologue", "(J)V", false);
      }
      Label on = new Label();
      mv.visitVarInsn(LLOAD, R_N);
      lconst(mv, b.insns.length);
      mv.visitInsn(LADD);
      mv.visitVarInsn(LLOAD, R_BUDGET);
      mv.visitInsn(LCMP);
      mv.visitJumpInsn(IFLE, on);
      lconst(mv, d.npc);
      mv.visitVarInsn(LSTORE, scratch);
      earlyExit(d, i);
      mv.visitLabel(on);
      mv.visitJumpInsn(GOTO, o.after);
    }

    /** What a {@link ReplacementEmitter} sees of the unit, at its tagged instruction. */
    private final class ReplacementUnit extends EmittedUnit implements ReplacementEmitter.Unit {
      private final OutOfLine o;
      private final boolean resume;

      ReplacementUnit(OutOfLine o, boolean resume) {
        super(o.id, o.i);
        this.o = o;
        this.resume = resume;
      }

      @Override
      public void value(DecodedInsn e) {
        BlockMethod.this.value(e, o.i, SemanticsTable.of(e.exec));
      }

      @Override
      public void condition(DecodedInsn e) {
        compute(e, SemanticsTable.of(e.exec));
      }

      @Override
      public void storeX(int reg) {
        if (reg < used.length && used[reg]) {
          if (real(reg)) {
            mv.visitVarInsn(LSTORE, slot(reg));
          } else {
            mv.visitInsn(POP2);
          }
        } else {
          mv.visitVarInsn(LSTORE, scratch);
          mv.visitVarInsn(ALOAD, X);
          iconst(mv, reg);
          mv.visitVarInsn(LLOAD, scratch);
          mv.visitInsn(LASTORE);
        }
      }

      @Override
      public void store(long mask) {
        storeWritten(mask);
      }

      @Override
      public void retire() {
        mv.visitVarInsn(LLOAD, R_N);
        mv.visitInsn(LCONST_1);
        mv.visitInsn(LADD);
        mv.visitVarInsn(LSTORE, R_N);
        mv.visitVarInsn(ALOAD, CPU_L);
        mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "retireInserted", "()V", false);
      }

      @Override
      public void original() {
        mv.visitVarInsn(ALOAD, CPU_L);
        loadCount(o.i);
        mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "leavePrologue", "(J)V", false);
        BytecodeTranslator.loadVector(mv); // micro-ops may have changed the flags
        boolean last = o.i == b.insns.length - 1;
        if (last && !resume) {
          mv.visitJumpInsn(GOTO, o.plain); // the block's transfer, as untagged code
          return;
        }
        if (last) {
          // The transfer's exits leave its next pc in R_PC and come here instead of leaving.
          Label blockDone = done;
          Label transferred = new Label();
          done = transferred;
          if (!insn(o.d, o.i)) { // a block cut short ends in no transfer
            lconst(mv, b.end);
            mv.visitVarInsn(LSTORE, R_PC);
          }
          done = blockDone;
          mv.visitLabel(transferred);
        } else {
          insn(o.d, o.i);
        }
        if (resume) {
          mv.visitVarInsn(ALOAD, CPU_L);
          loadCount(o.i + 1);
          loadNext();
          mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "resumeReplacement", "(JJ)V", false);
        }
      }

      @Override
      public void loadNext() {
        if (o.i == b.insns.length - 1) {
          mv.visitVarInsn(LLOAD, R_PC);
        } else {
          lconst(mv, o.d.npc);
        }
      }
    }

    /** Pushes instruction {@code i} of block {@code block}: the unit's {@code insns[block][i]}. */
    private void loadInsn(int block, int i) {
      mv.visitVarInsn(ALOAD, THIS);
      mv.visitFieldInsn(GETFIELD, NAME, "insns", "[[L" + INSN + ";");
      iconst(mv, block);
      mv.visitInsn(AALOAD);
      iconst(mv, i);
      mv.visitInsn(AALOAD);
    }

    /** Pushes the instruction count at instruction {@code i} of the block: n + i. */
    private void loadCount(int i) {
      mv.visitVarInsn(LLOAD, R_N);
      lconst(mv, i);
      mv.visitInsn(LADD);
    }

    /** What a {@link PrologueEmitter} sees of the unit, at instruction {@code i} of block id. */
    private class EmittedUnit implements PrologueEmitter.Unit {
      private final int id;
      private final int i;

      EmittedUnit(int id, int i) {
        this.id = id;
        this.i = i;
      }

      @Override
      public MethodVisitor mv() {
        return mv;
      }

      @Override
      public void loadCpu() {
        mv.visitVarInsn(ALOAD, CPU_L);
      }

      @Override
      public void loadInsn() {
        BlockMethod.this.loadInsn(id, i);
      }

      @Override
      public void loadVector() {
        mv.visitVarInsn(LLOAD, R_VECTOR);
      }

      @Override
      public void loadX(int reg) {
        if (reg < used.length && used[reg]) {
          get(reg); // the unit's local (x0 and the x0 sink read as 0)
        } else {
          mv.visitVarInsn(ALOAD, X); // current: the unit stored what it wrote
          iconst(mv, reg);
          mv.visitInsn(LALOAD);
        }
      }

      @Override
      public void loadF(int reg) {
        fget(reg);
      }

      @Override
      public void loadConstant(Object value, String descriptor) {
        Integer index = constantIndex.get(value);
        if (index == null) {
          index = constants.size();
          constants.add(value);
          constantIndex.put(value, index);
        }
        mv.visitLdcInsn(classData(index));
        mv.visitTypeInsn(CHECKCAST, Type.getType(descriptor).getInternalName());
      }
    }

    /** Leaves the unit after tagged instruction {@code i}, at the pc in scratch. */
    private void earlyExit(DecodedInsn d, int i) {
      mv.visitVarInsn(LLOAD, R_N);
      lconst(mv, i + 1);
      mv.visitInsn(LADD);
      mv.visitVarInsn(LSTORE, R_N);
      if (observed) {
        mv.visitVarInsn(ALOAD, CPU_L);
        lconst(mv, d.pc);
        iconst(mv, i + 1);
        iconst(mv, i == b.insns.length - 1 && b.transferEnd ? 1 : 0);
        mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "observe", "(JIZ)V", false);
      }
      mv.visitVarInsn(LLOAD, scratch);
      mv.visitVarInsn(LSTORE, R_PC);
      mv.visitJumpInsn(GOTO, leave);
    }

    /** The x registers the decode stage may write when it runs {@code d} (bit r: x[r]). */
    private long written(DecodedInsn d) {
      return stage == null ? -1L : stage.registersWritten(d);
    }

    /** Reloads the cached registers of {@code mask} from x[]. */
    private void reload(long mask) {
      for (int r = 0; r < used.length && r < 64; r++) {
        if (used[r] && (mask >>> r & 1) != 0) {
          mv.visitVarInsn(ALOAD, X);
          iconst(mv, r);
          mv.visitInsn(LALOAD);
          mv.visitVarInsn(LSTORE, slot(r));
        }
      }
    }

    /** Leaves the block for {@code pc}. */
    private void exitConst(long pc) {
      lconst(mv, pc);
      exitStack();
    }

    /** Leaves the block for the pc on the stack. */
    private void exitStack() {
      mv.visitVarInsn(LSTORE, R_PC);
      mv.visitJumpInsn(GOTO, done);
    }

    /** Inline: k = 0 and the cached registers loaded (before the dispatch method's try). */
    void enter() {
      iconst(mv, 0);
      mv.visitVarInsn(ISTORE, k);
      mv.visitVarInsn(ALOAD, MEMORY);
      mv.visitMethodInsn(INVOKEVIRTUAL, MEM, "readPages", "()[[B", false);
      mv.visitVarInsn(ASTORE, pages);
      mv.visitVarInsn(ALOAD, MEMORY);
      mv.visitMethodInsn(INVOKEVIRTUAL, MEM, "writePages", "()[[B", false);
      mv.visitVarInsn(ASTORE, pages + 1);
      reloadUsed();
    }

    /** Inline: k, the index in its block of the instruction that threw. */
    int kSlot() {
      return k;
    }

    private int slot(int reg) {
      return regBase + 2 * reg;
    }

    private static boolean real(int reg) {
      return reg != 0 && reg != DecodedInsn.X0_SINK;
    }

    /**
     * Records the integer registers an instruction reads (rs1 and rs2 whatever they name: an extra
     * load is harmless) and writes (an x register rd).
     */
    private void scan(DecodedInsn d) {
      use(d.rs1);
      use(d.rs2);
      if (d.exec.operands().contains(org.dise.runtime.isa.Operand.RD)) {
        use(d.rd);
        if (real(d.rd)) {
          written[d.rd] = true;
        }
      }
    }

    private void use(int reg) {
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
        if (written[r] && (mask >>> r & 1) != 0) {
          mv.visitVarInsn(ALOAD, X);
          iconst(mv, r);
          mv.visitVarInsn(LLOAD, slot(r));
          mv.visitInsn(LASTORE);
        }
      }
    }

    /** Reloads every cached register from x[] (after a handler that wrote there). */
    void reloadUsed() {
      for (int r = 0; r < used.length; r++) {
        if (used[r]) {
          mv.visitVarInsn(ALOAD, X);
          iconst(mv, r);
          mv.visitInsn(LALOAD);
          mv.visitVarInsn(LSTORE, slot(r));
        }
      }
    }

    private void get(int reg) {
      if (real(reg)) {
        mv.visitVarInsn(LLOAD, slot(reg));
      } else {
        mv.visitInsn(LCONST_0);
      }
    }

    /** Stores the long on the stack in rd (dropped for x0). */
    private void put(DecodedInsn d) {
      if (real(d.rd)) {
        mv.visitVarInsn(LSTORE, slot(d.rd));
      } else {
        mv.visitInsn(POP2);
      }
    }

    private void mark(int i) {
      iconst(mv, i);
      mv.visitVarInsn(ISTORE, k);
    }

    /**
     * The memory fast path of a load of {@code size} bytes at {@code x[rs1] + imm}: the page array
     * is indexed inline and the bytes read from the page, as {@code mem.lX} would return them (an
     * int for 1-4 bytes, sign-extended, a long for 8); an address above 4 GiB, a page that is not
     * readable or not there yet, or an access across the page end calls {@code mem.lX}, which
     * faults or completes exactly as the interpreter's access.
     */
    private void load(DecodedInsn d, int size, String slow, String slowDesc) {
      int a = scratch;
      Label slowPath = new Label();
      Label done = new Label();
      pageOf(d, a, pages, size, slowPath);
      mv.visitVarInsn(ALOAD, scratch + 4);
      mv.visitVarInsn(ILOAD, scratch + 5);
      switch (size) {
        case 1 -> mv.visitInsn(BALOAD);
        case 2 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "get16", "([BI)I", false);
        case 4 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "get32", "([BI)I", false);
        default -> mv.visitMethodInsn(INVOKESTATIC, MEM, "get64", "([BI)J", false);
      }
      mv.visitJumpInsn(GOTO, done);
      mv.visitLabel(slowPath);
      mv.visitVarInsn(ALOAD, MEMORY);
      mv.visitVarInsn(LLOAD, a);
      memCall(slow, slowDesc);
      mv.visitLabel(done);
    }

    /**
     * The fast path of a store of {@code size} bytes of the long on the stack: pages holding
     * decoded code are not in the writable array, so self-modifying code takes {@code mem.sX}
     * (which raises {@link org.dise.runtime.mem.Memory.CodeModified}), as do faults.
     */
    private void store(DecodedInsn d, int size, String slow) {
      int a = scratch;
      int v = scratch + 2;
      mv.visitVarInsn(LSTORE, v);
      Label slowPath = new Label();
      Label done = new Label();
      pageOf(d, a, pages + 1, size, slowPath);
      mv.visitVarInsn(ALOAD, scratch + 4);
      mv.visitVarInsn(ILOAD, scratch + 5);
      mv.visitVarInsn(LLOAD, v);
      switch (size) {
        case 1 -> {
          mv.visitInsn(L2I);
          mv.visitInsn(BASTORE);
        }
        case 2 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "put16", "([BIJ)V", false);
        case 4 -> mv.visitMethodInsn(INVOKESTATIC, MEM, "put32", "([BIJ)V", false);
        default -> mv.visitMethodInsn(INVOKESTATIC, MEM, "put64", "([BIJ)V", false);
      }
      mv.visitJumpInsn(GOTO, done);
      mv.visitLabel(slowPath);
      mv.visitVarInsn(ALOAD, MEMORY);
      mv.visitVarInsn(LLOAD, a);
      mv.visitVarInsn(LLOAD, v);
      memCall(slow, "(JJ)V");
      mv.visitLabel(done);
    }

    /**
     * Computes the address into local {@code a}, then the page (scratch+4) and offset (scratch+5)
     * from the page array in local {@code array}, jumping to {@code slow} when the fast path does
     * not apply.
     */
    private void pageOf(DecodedInsn d, int a, int array, int size, Label slow) {
      get(d.rs1);
      if (d.imm != 0) {
        lconst(mv, d.imm);
        mv.visitInsn(LADD);
      }
      mv.visitVarInsn(LSTORE, a);
      mv.visitVarInsn(LLOAD, a);
      iconst(mv, 32);
      mv.visitInsn(LUSHR);
      mv.visitInsn(LCONST_0);
      mv.visitInsn(LCMP);
      mv.visitJumpInsn(IFNE, slow);
      mv.visitVarInsn(ALOAD, array);
      mv.visitVarInsn(LLOAD, a);
      iconst(mv, org.dise.runtime.mem.Memory.PAGE_BITS);
      mv.visitInsn(LUSHR);
      mv.visitInsn(L2I);
      mv.visitInsn(AALOAD);
      mv.visitInsn(DUP);
      mv.visitVarInsn(ASTORE, scratch + 4);
      mv.visitJumpInsn(IFNULL, slow);
      mv.visitVarInsn(LLOAD, a);
      mv.visitInsn(L2I);
      iconst(mv, (int) org.dise.runtime.mem.Memory.PAGE_MASK);
      mv.visitInsn(IAND);
      mv.visitVarInsn(ISTORE, scratch + 5);
      if (size > 1) {
        mv.visitVarInsn(ILOAD, scratch + 5);
        iconst(mv, org.dise.runtime.mem.Memory.PAGE_SIZE - size);
        mv.visitJumpInsn(IF_ICMPGT, slow);
      }
    }

    private void memCall(String m, String desc) {
      mv.visitMethodInsn(INVOKEVIRTUAL, MEM, m, desc, false);
    }

    /**
     * Emits an instruction's {@link Semantics} method on its operands as the table lists them
     * (copied in place by {@link SemanticsInliner}), leaving the result on the stack.
     */
    private void compute(DecodedInsn d, SemanticsTable.Entry e) {
      List<SemanticsInliner.Operand> args = new java.util.ArrayList<>();
      if (e.fpu()) {
        args.add(this::fpu);
      }
      if (e.pc()) {
        args.add(() -> lconst(mv, d.pc));
      }
      for (org.dise.runtime.isa.Operand o : e.sources()) {
        args.add(
            switch (o) {
              case RS1 -> () -> get(d.rs1);
              case RS2 -> () -> get(d.rs2);
              case FRS1 -> () -> fget(d.rs1);
              case FRS2 -> () -> fget(d.rs2);
              case FRS3 -> () -> fget(d.rs3);
              default -> () -> lconst(mv, d.imm); // imm, uimm, shamt
            });
      }
      if (e.rm()) {
        args.add(() -> rm(d));
      }
      SemanticsInliner.emit(mv, e.method(), e.descriptor(), args, scratch);
    }

    /** rd or frd = the instruction's method. */
    private void value(DecodedInsn d, int i, SemanticsTable.Entry e) {
      if (e.rm()) {
        mark(i); // a dynamic rounding mode may be illegal
      }
      compute(d, e);
      if (e.dest() == org.dise.runtime.isa.Operand.FRD) {
        fput(d.rd);
      } else {
        put(d);
      }
    }

    /** A conditional branch: leaves the block for the taken or the next pc. */
    private void branch(DecodedInsn d, SemanticsTable.Entry e) {
      compute(d, e);
      Label taken = new Label();
      mv.visitJumpInsn(IFNE, taken);
      exitConst(d.npc);
      mv.visitLabel(taken);
      exitConst(d.pc + d.imm);
    }

    /** An A instruction: the cpu keeps the reservation; rd gets the old value. */
    private void atomic(DecodedInsn d, int i) {
      mark(i);
      mv.visitVarInsn(ALOAD, CPU_L);
      get(d.rs1);
      get(d.rs2);
      iconst(mv, d.opcode);
      mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "atomic", "(JJI)J", false);
      put(d);
    }

    private void fget(int reg) {
      mv.visitVarInsn(ALOAD, F);
      iconst(mv, reg);
      mv.visitInsn(LALOAD);
    }

    /** f[reg] = the long on the stack. */
    private void fput(int reg) {
      int tmp = scratch;
      mv.visitVarInsn(LSTORE, tmp);
      mv.visitVarInsn(ALOAD, F);
      iconst(mv, reg);
      mv.visitVarInsn(LLOAD, tmp);
      mv.visitInsn(LASTORE);
    }

    private void boxS() {
      mv.visitMethodInsn(INVOKESTATIC, FPU, "boxS", "(I)J", false);
    }

    private void fpu() {
      mv.visitVarInsn(ALOAD, CPU_L);
      mv.visitFieldInsn(GETFIELD, CPU, "fpu", "L" + FPU + ";");
    }

    /** The rounding mode: a constant, or frm read (and checked) when the instruction runs. */
    private void rm(DecodedInsn d) {
      if (d.rm == 7) {
        mv.visitVarInsn(ALOAD, CPU_L);
        iconst(mv, d.raw);
        mv.visitMethodInsn(INVOKEVIRTUAL, CPU, "dynamicRm", "(I)I", false);
      } else {
        iconst(mv, d.rm); // 5 and 6 are illegal: translatable() leaves those alone
      }
    }

    /** Emits instruction {@code i}; true when it returned (ended the block). */
    private boolean insn(DecodedInsn d, int i) {
      SemanticsTable.Entry e = SemanticsTable.of(d.exec);
      switch (e.kind()) {
        case VALUE -> {
          value(d, i, e);
          return false;
        }
        case BRANCH -> {
          branch(d, e);
          return true;
        }
        case ATOMIC -> {
          atomic(d, i);
          return false;
        }
        default -> {}
      }
      switch (d.exec) {
        case JAL -> {
          lconst(mv, d.npc);
          put(d);
          exitConst(d.pc + d.imm);
          return true;
        }
        case JALR -> {
          int tmp = scratch;
          compute(d, e);
          mv.visitVarInsn(LSTORE, tmp); // before rd is written: rd may be rs1
          lconst(mv, d.npc);
          put(d);
          mv.visitVarInsn(LLOAD, tmp);
          exitStack();
          return true;
        }
        case LB, LBU -> {
          mark(i);
          load(d, 1, "lb", "(J)I");
          if (d.exec == Op.LB) {
            mv.visitInsn(I2B);
            mv.visitInsn(I2L);
          } else {
            mv.visitInsn(I2L);
            lconst(mv, 0xffL);
            mv.visitInsn(LAND);
          }
          put(d);
        }
        case LH, LHU -> {
          mark(i);
          load(d, 2, "lh", "(J)I");
          mv.visitInsn(I2L);
          if (d.exec == Op.LHU) {
            lconst(mv, 0xffffL);
            mv.visitInsn(LAND);
          }
          put(d);
        }
        case LW, LWU -> {
          mark(i);
          load(d, 4, "lw", "(J)I");
          mv.visitInsn(I2L);
          if (d.exec == Op.LWU) {
            lconst(mv, 0xffffffffL);
            mv.visitInsn(LAND);
          }
          put(d);
        }
        case LD -> {
          mark(i);
          load(d, 8, "ld", "(J)J");
          put(d);
        }
        case SB, SH, SW, SD -> {
          mark(i);
          get(d.rs2);
          store(
              d,
              switch (d.exec) {
                case SB -> 1;
                case SH -> 2;
                case SW -> 4;
                default -> 8;
              },
              d.exec.mnemonic());
        }
        case FLD -> {
          mark(i);
          load(d, 8, "ld", "(J)J");
          fput(d.rd);
        }
        case FLW -> {
          mark(i);
          load(d, 4, "lw", "(J)I");
          boxS();
          fput(d.rd);
        }
        case FSD, FSW -> {
          mark(i);
          fget(d.rs2);
          store(d, d.exec == Op.FSD ? 8 : 4, d.exec == Op.FSD ? "sd" : "sw");
        }
        case FENCE, ON_TRIG_INST, OFF_TRIG_INST -> {}
        default ->
            throw new IllegalArgumentException(
                "not translatable: " + d.exec.mnemonic()); // translatable() keeps these out
      }
      return false;
    }
  }
}

package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.plan.Plan;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.SemanticsTable;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * The code of a unit's blocks, inline in its dispatch method ({@link BytecodeTranslator}): each
 * block's instructions ({@link InsnEmitter}) on the registers the unit holds in locals ({@link
 * UnitRegisters}), and for a tagged instruction a mask test on the flag vector with, out of line,
 * the decode stage's part: a call into it, or its {@link Plan} emitted inline as a prologue or a
 * whole replacement ({@link PlanEmitter}). A fault leaves the registers as the instructions before
 * it left them, so the handler's store is the precise state.
 */
final class BlockEmitter {
  private static final String CTX = "org/dise/runtime/cpu/UnitContext";
  private static final String INSN = "org/dise/runtime/isa/DecodedInsn";

  // The dispatch method's locals (BytecodeTranslator.R_*), then k, scratch and two slots per
  // guest register.
  private static final int CPU_L = BytecodeTranslator.R_CPU;
  private static final int R_PC = BytecodeTranslator.R_PC;
  private static final int R_VECTOR = BytecodeTranslator.R_VECTOR;

  /** Whether the unit reports to the block observer. */
  private final boolean observed;

  /** The decode stage the unit is translated under (null: none). */
  private final DecodeStage stage;

  private int id;
  private Block b;

  /** Whether emitted plans count their runs ({@link BlockCompiler#countPlanRuns}). */
  boolean countPlanRuns;

  /** The class data: what emitted prologues load as constants, by index. */
  List<Object> constants = new ArrayList<>();

  private final Map<Object, Integer> constantIndex = new IdentityHashMap<>();

  /** Where an early exit goes (the dispatch loop's exit: unit steps, store, return R_PC). */
  private Label leave;

  /**
   * Where the slow path of an untagged instruction's load or store leaves the unit (null: it calls
   * the Memory method; {@link MemoryAccess}).
   */
  private Label slowExit;

  /** The slow paths of untagged loads and stores leave the unit at {@code exit} from now on. */
  void slowExits(Label exit) {
    this.slowExit = exit;
  }

  /** Whether some load or store leaves at the slow exit, which then must be emitted. */
  boolean leavesAtSlowExit() {
    return memory.exits();
  }

  /** Per block, per instruction: the try range of a tagged instruction's call, or null. */
  private final Label[][][] taggedCalls;

  private final int k = BytecodeTranslator.R_K;
  private final int scratch = k + 1;

  private final MethodVisitor mv;
  private final List<Block> blocks;
  private final UnitRegisters regs;
  private final MemoryAccess memory;
  private final InsnEmitter insns;

  /**
   * The unit's blocks inline in the dispatch method {@code mv}: guest registers in its locals for
   * the whole unit, loaded at entry ({@link #enter}) and stored at every exit.
   */
  BlockEmitter(
      MethodVisitor mv, List<Block> blocks, boolean observed, DecodeStage stage, boolean inMemory) {
    this.observed = observed;
    this.stage = stage;
    this.mv = mv;
    this.blocks = blocks;
    this.taggedCalls = new Label[blocks.size()][][];
    int pages = scratch + 6;
    this.regs =
        new UnitRegisters(
            mv, BytecodeTranslator.R_X, BytecodeTranslator.R_F, scratch, scratch + 8, inMemory);
    this.memory = new MemoryAccess(mv, regs, BytecodeTranslator.R_MEM, scratch, pages);
    this.insns = new InsnEmitter(mv, regs, memory, CPU_L, R_PC, k, scratch);
    boolean[] loops =
        UnitRegisters.loopRegs == 0
            ? new boolean[blocks.size()]
            : UnitRegisters.loopsAll ? loopBodies(blocks) : selfLoops(blocks);
    for (int id = 0; id < blocks.size(); id++) {
      for (DecodedInsn d : blocks.get(id).insns) {
        regs.scan(d, loops[id]);
      }
    }
    this.plans = new PlanEmitter(mv);
    this.replacements = new Plan[blocks.size()][];
    for (int id = 0; id < blocks.size(); id++) {
      DecodedInsn[] insns = blocks.get(id).insns;
      for (int i = 0; stage != null && i < insns.length; i++) {
        if (insns[i].dise != null && !stage.splitsOriginal(insns[i])) {
          replacementAt(id, i, insns[i]);
        }
      }
    }
    regs.choose();
  }

  private final PlanEmitter plans;

  /**
   * The blocks of the unit's loop bodies: every block from the target of a backward edge (a
   * successor known at translation at the same or an earlier place in the unit's fixed order) to
   * the block it leaves from. Every cycle of the unit holds such an edge, so every block on a cycle
   * is one (and so may be a block between them that is on none).
   */
  static boolean[] loopBodies(List<Block> blocks) {
    Map<Long, Integer> ids = new HashMap<>();
    for (int i = 0; i < blocks.size(); i++) {
      ids.put(blocks.get(i).start, i);
    }
    boolean[] in = new boolean[blocks.size()];
    for (int j = 0; j < blocks.size(); j++) {
      for (long to : successors(blocks.get(j))) {
        Integer k = ids.get(to);
        for (int i = k == null ? j + 1 : k; i <= j; i++) {
          in[i] = true;
        }
      }
    }
    return in;
  }

  /** The blocks that branch back to their own start ({@link Block#loopsToItself}). */
  static boolean[] selfLoops(List<Block> blocks) {
    boolean[] self = new boolean[blocks.size()];
    for (int i = 0; i < blocks.size(); i++) {
      self[i] = blocks.get(i).loopsToItself();
    }
    return self;
  }

  /**
   * The successors of {@code b} known at translation: its branch or jump target, its next block.
   */
  static long[] successors(Block b) {
    DecodedInsn last = b.insns[b.insns.length - 1];
    boolean falls = last.exec != Op.JAL && last.exec != Op.JALR;
    return falls ? new long[] {last.target(), b.end} : new long[] {last.target()};
  }

  /** Per block, per instruction: a tagged instruction's plan emitted inline, or null. */
  private final Plan[][] replacements;

  /** Asks the stage for tagged instruction {@code i}'s plan and holds its registers. */
  private void replacementAt(int id, int i, DecodedInsn d) {
    Plan r = stage.plan(d);
    if (r == null || !PlanEmitter.emittable(r)) {
      return;
    }
    if (replacements[id] == null) {
      replacements[id] = new Plan[blocks.get(id).insns.length];
    }
    replacements[id][i] = r;
    long read = PlanEmitter.reads(r);
    long written = PlanEmitter.writes(r);
    for (int reg = 0; reg < regs.used.length; reg++) {
      if ((read >>> reg & 1) != 0) {
        regs.use(reg);
      }
      if ((written >>> reg & 1) != 0) {
        regs.write(reg);
      }
    }
  }

  /**
   * Inline: emits block {@code id}; every exit leaves its next pc in R_PC and jumps to done, but
   * with {@code edges} (not null) those to the unit's own blocks, which it emits. True when some
   * exit goes to done.
   */
  boolean emitBlock(int id, Block b, Label done, InsnEmitter.Edges edges) {
    this.id = id;
    this.b = b;
    insns.done = done;
    insns.edges = edges;
    insns.leftToDone = false;
    boolean returned = false;
    for (int i = 0; i < b.insns.length; i++) {
      DecodedInsn d = b.insns[i];
      if (d.dise == null) {
        // A unit whose blocks the observer sees calls instead: leaving would end the block early.
        memory.exitTo(observed ? null : slowExit);
        returned = insns.insn(d, i);
        memory.exitTo(null);
        continue;
      }
      // A tagged instruction: under a flag vector that lets one of its productions match, the
      // decode stage runs it (and its replacement) in one direct call; otherwise it runs as
      // untagged code. The call is out of line (emitted after the unit's blocks, see
      // emitOutOfLine), so that while the flags keep it off the block has the shape of an
      // untagged one plus one mask test.
      OutOfLine o = new OutOfLine(id, b, done, d, i, new Label(), new Label(), new Label());
      outOfLine.add(o);
      BytecodeTranslator.lconst(mv, d.diseMask);
      mv.visitVarInsn(LLOAD, R_VECTOR);
      mv.visitInsn(LAND);
      BytecodeTranslator.lconst(mv, 0);
      mv.visitInsn(LCMP);
      mv.visitJumpInsn(IFNE, o.call);
      UnitFrames.anchor(mv, o.plain); // out-of-line code comes back to both
      returned = insns.insn(d, i);
      UnitFrames.anchor(mv, o.after);
    }
    if (!returned) {
      insns.exitConst(b.end);
    }
    insns.edges = null; // the code out of line leaves through done
    return insns.leftToDone || outOfLine(id);
  }

  /**
   * Whether block {@code id}, the last emitted, has code out of line (which may leave via done).
   */
  boolean outOfLine(int id) {
    return !outOfLine.isEmpty() && outOfLine.get(outOfLine.size() - 1).id == id;
  }

  /** A tagged instruction's call into the decode stage, emitted after the unit's blocks. */
  private record OutOfLine(
      int id, Block b, Label done, DecodedInsn d, int i, Label call, Label plain, Label after) {}

  private final List<OutOfLine> outOfLine = new ArrayList<>();

  /**
   * Emits the tagged instructions' calls into the decode stage (inside the unit's try range): each
   * returns to its instruction run inline ({@link #prologue}), to the instruction after it, or
   * leaves the block ({@link #tagged}).
   */
  /** Whether {@link #emitOutOfLine} has code to emit (the unit has tagged instructions). */
  boolean hasOutOfLine() {
    return !outOfLine.isEmpty();
  }

  void emitOutOfLine() {
    for (OutOfLine o : outOfLine) {
      this.id = o.id;
      this.b = o.b;
      insns.done = o.done;
      mv.visitLabel(o.call);
      insns.mark(o.i);
      if (stage != null && stage.splitsOriginal(o.d)) {
        // The stage's prologue, then the instruction inline as untagged code.
        prologue(o);
        mv.visitJumpInsn(GOTO, o.plain);
        continue;
      }
      Plan r = replacements[o.id] == null ? null : replacements[o.id][o.i];
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
   * unit's own range, so that it takes precedence); {@code leave} is the unit's exit. False when
   * the unit has no tagged instruction: then nothing reaches the handler.
   */
  boolean taggedHandler(Label handler, Label leave) {
    this.leave = leave;
    boolean any = false;
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
          any = true;
        }
      }
    }
    return any;
  }

  /**
   * The decode stage's part of tagged instruction {@code i} ({@code k} already holds i): the
   * registers held in locals go to x[] (the stage, its sinks and the replacement read them), {@link
   * Cpu#runTagged} runs the stage with the exact instruction count, and the registers the stage may
   * write come back. The unit goes on after it unless the replacement left for another address, the
   * guest exited, the unit went out of date or the step budget would be passed; then it leaves with
   * the instructions so far, for the dispatcher.
   */
  private void tagged(DecodedInsn d, int i) {
    int len = b.insns.length;
    boolean last = i == len - 1;
    regs.storeWritten();
    Label[] range = taggedCalls[id][i];
    mv.visitLabel(range[0]);
    mv.visitVarInsn(ALOAD, CPU_L);
    loadInsn(id, i);
    loadCount(i);
    mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "runTagged", "(L" + INSN + ";J)J", false);
    mv.visitLabel(range[1]);
    mv.visitVarInsn(LSTORE, scratch);
    // n counts the block's instructions at its end: add what the stage ran beyond this one.
    mv.visitVarInsn(ALOAD, CPU_L);
    mv.visitFieldInsn(GETFIELD, CTX, "taggedSteps", "J");
    mv.visitInsn(LCONST_1);
    mv.visitInsn(LSUB);
    BytecodeTranslator.addSteps(mv);
    regs.reload(written(d));
    // Micro-ops may have changed the flags.
    BytecodeTranslator.loadVector(mv);
    Label early = new Label();
    mv.visitVarInsn(ALOAD, CPU_L);
    mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "halted", "()Z", false);
    mv.visitJumpInsn(IFNE, early);
    if (last) {
      // The block's transfer: the dispatch loop follows it, unless the stage's call took the unit
      // out of date (the dispatch switch tests interrupts only: BytecodeTranslator.pending).
      BytecodeTranslator.leaveIfStale(mv, early);
      mv.visitVarInsn(LLOAD, scratch);
      mv.visitVarInsn(LSTORE, R_PC);
      mv.visitJumpInsn(GOTO, insns.done);
    } else {
      Label on = new Label();
      BytecodeTranslator.leaveUnlessAt(mv, scratch, d.npc, early);
      BytecodeTranslator.ifFits(mv, len, on);
      mv.visitLabel(early);
      earlyExit(d, i);
      mv.visitLabel(on);
      return;
    }
    mv.visitLabel(early);
    earlyExit(d, i);
  }

  /**
   * The prologue of tagged instruction {@code o.i} ({@code k} already holds i) that the decode
   * stage splits ({@link DecodeStage#splitsOriginal}): the registers held in locals go to x[]
   * (sinks read them), {@link Cpu#runBefore} runs the micro-ops and sink calls with the exact
   * instruction count, and the flag vector is read again. No register comes back (the prologue
   * writes none) and the unit goes on to the instruction itself.
   */
  private void prologue(OutOfLine o) {
    int i = o.i;
    DecodedInsn d = o.d;
    Plan emitter = stage.plan(d);
    if (emitter != null && !emitter.isPrologue()) {
      emitter = null; // the stage splits what its plan does not: call it
    }
    regs.storeWritten(emitter == null ? -1L : PlanEmitter.handlerReads(emitter));
    Label[] range = taggedCalls[id][i];
    mv.visitLabel(range[0]);
    if (emitter != null) {
      // The stage's prologue as bytecode, bracketed by the count and pc it reads (if it reads
      // them: PlanEmitter.synced), the flag vector read again if its micro-ops may change it.
      boolean synced = PlanEmitter.synced(emitter);
      enter(synced, "emittedPrologues", d, i);
      plans.emit(emitter, d, new EmittedUnit(o, null, synced), true);
      if (synced) {
        mv.visitVarInsn(ALOAD, CPU_L);
        loadCount(i);
        mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "leavePrologue", "(J)V", false);
      }
      mv.visitLabel(range[1]);
      if (synced || PlanEmitter.counts(emitter)) {
        BytecodeTranslator.loadVector(mv);
      }
      return;
    }
    mv.visitVarInsn(ALOAD, CPU_L);
    loadInsn(id, i);
    loadCount(i);
    mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "runBefore", "(L" + INSN + ";J)V", false);
    mv.visitLabel(range[1]);
    BytecodeTranslator.loadVector(mv);
  }

  /**
   * The whole replacement of tagged instruction {@code o.i} ({@code k} already holds i), the decode
   * stage's plan emitted inline ({@link PlanEmitter}): the cpu's count and pc brought up to date
   * around the code before and after {@code T.INSN}, which runs as the unit's own code (a copy of
   * it here, or the plain one when it ends the block and nothing follows it). Inserted instructions
   * count in n, so after the replacement the unit goes on only while the budget allows the rest of
   * the block, as after {@link #tagged}.
   */
  private void replacement(OutOfLine o, Plan r) {
    DecodedInsn d = o.d;
    int i = o.i;
    boolean last = i == b.insns.length - 1;
    boolean synced = PlanEmitter.synced(r);
    Label[] range = taggedCalls[id][i];
    mv.visitLabel(range[0]);
    enter(synced, "emittedReplacements", d, i);
    mv.visitLabel(range[1]);
    plans.emit(r, d, new EmittedUnit(o, r, synced), false);
    if (last) {
      if (r.runsAfterOriginal()) {
        // The block's transfer ran (R_PC holds where it goes): the dispatch loop follows it.
        if (synced) {
          mv.visitVarInsn(ALOAD, CPU_L);
          loadCount(i + 1);
          mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "leavePrologue", "(J)V", false);
        }
        mv.visitJumpInsn(GOTO, o.done);
      }
      return; // else every path went to the plain instruction
    }
    if (synced && r.runsAfterOriginal()) {
      mv.visitVarInsn(ALOAD, CPU_L);
      loadCount(i + 1);
      mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "leavePrologue", "(J)V", false);
    }
    Label on = new Label();
    BytecodeTranslator.ifFits(mv, b.insns.length, on);
    BytecodeTranslator.lconst(mv, d.npc);
    mv.visitVarInsn(LSTORE, scratch);
    earlyExit(d, i);
    mv.visitLabel(on);
    mv.visitJumpInsn(GOTO, o.after);
  }

  /**
   * Before an emitted plan at instruction {@code i}: {@code ctx.counter++} if the unit counts plan
   * runs ({@link #countPlanRuns}); when {@code synced}, {@link UnitContext#enterPlan} (the cpu's
   * count and pc brought up to date). With neither, a {@code nop}: the tagged call's try range must
   * not be empty (C1 emits nothing for it).
   */
  private void enter(boolean synced, String counter, DecodedInsn d, int i) {
    if (countPlanRuns) {
      mv.visitVarInsn(ALOAD, CPU_L);
      PlanEmitter.addOne(mv, CTX, counter);
    }
    if (!synced) {
      if (!countPlanRuns) {
        mv.visitInsn(NOP);
      }
      return;
    }
    mv.visitVarInsn(ALOAD, CPU_L);
    loadCount(i);
    BytecodeTranslator.lconst(mv, d.pc);
    mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "enterPlan", "(JJ)V", false);
  }

  /** Pushes instruction {@code i} of block {@code block}: the unit's {@code insns[block][i]}. */
  private void loadInsn(int block, int i) {
    BytecodeTranslator.loadInsns(mv);
    BytecodeTranslator.iconst(mv, block);
    mv.visitInsn(AALOAD);
    BytecodeTranslator.iconst(mv, i);
    mv.visitInsn(AALOAD);
  }

  /** Pushes the instruction count at instruction {@code i} of the block: n + i. */
  private void loadCount(int i) {
    BytecodeTranslator.pushSteps(mv);
    if (i != 0) {
      BytecodeTranslator.lconst(mv, i);
      mv.visitInsn(LADD);
    }
  }

  /**
   * What an emitted {@link Plan} sees of the unit, at tagged instruction {@code o}: for a whole
   * replacement ({@code whole} not null) also the inserted instructions, register writes and {@code
   * T.INSN} run as the unit's own code. {@code synced}: the cpu's count and pc are brought up to
   * date around the plan's code ({@link PlanEmitter#synced}).
   */
  private final class EmittedUnit implements PlanEmitter.Unit {
    private final OutOfLine o;

    /** The whole replacement emitted, or null for a prologue. */
    private final Plan whole;

    private final boolean synced;

    EmittedUnit(OutOfLine o, Plan whole, boolean synced) {
      this.o = o;
      this.whole = whole;
      this.synced = synced;
    }

    @Override
    public void loadCpu() {
      mv.visitVarInsn(ALOAD, CPU_L);
      mv.visitFieldInsn(GETFIELD, CTX, "cpu", "Lorg/dise/runtime/cpu/Cpu;");
    }

    @Override
    public void loadInsn() {
      BlockEmitter.this.loadInsn(o.id, o.i);
    }

    @Override
    public void loadVector() {
      mv.visitVarInsn(LLOAD, R_VECTOR);
    }

    @Override
    public UnitRegisters registers() {
      return regs;
    }

    @Override
    public void loadConstant(Object value, String internalName) {
      Integer index = constantIndex.get(value);
      if (index == null) {
        index = constants.size();
        constants.add(value);
        constantIndex.put(value, index);
      }
      ConstantDynamic constant = BytecodeTranslator.classData(index, value);
      mv.visitLdcInsn(constant);
      if (!constant.getDescriptor().equals(Type.getObjectType(internalName).getDescriptor())) {
        mv.visitTypeInsn(CHECKCAST, internalName);
      }
    }

    @Override
    public void value(DecodedInsn e) {
      insns.value(e, o.i, SemanticsTable.of(e.exec));
    }

    @Override
    public void condition(DecodedInsn e) {
      insns.compute(e, SemanticsTable.of(e.exec));
    }

    @Override
    public void retire(int k) {
      BytecodeTranslator.addSteps(mv, k);
      for (int j = 0; synced && j < k; j++) {
        mv.visitVarInsn(ALOAD, CPU_L);
        mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "retireInserted", "()V", false);
      }
    }

    @Override
    public void addUnsynced(boolean after) {
      if (!synced) {
        loadCount(after ? o.i + 1 : o.i);
        mv.visitInsn(LADD);
      }
    }

    @Override
    public void original() {
      if (synced) {
        mv.visitVarInsn(ALOAD, CPU_L);
        loadCount(o.i);
        mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "leavePrologue", "(J)V", false);
      }
      if (synced || PlanEmitter.counts(whole)) {
        BytecodeTranslator.loadVector(mv); // micro-ops may have changed the flags
      }
      boolean last = o.i == b.insns.length - 1;
      boolean resume = whole.runsAfterOriginal(); // the replacement goes on after T.INSN
      if (last && !resume) {
        mv.visitJumpInsn(GOTO, o.plain); // the block's transfer, as untagged code
        return;
      }
      if (last) {
        // The transfer's exits leave its next pc in R_PC and come here instead of leaving.
        Label blockDone = insns.done;
        Label transferred = new Label();
        insns.done = transferred;
        if (!insns.insn(o.d, o.i)) { // a block cut short ends in no transfer
          BytecodeTranslator.lconst(mv, b.end);
          mv.visitVarInsn(LSTORE, R_PC);
        }
        insns.done = blockDone;
        mv.visitLabel(transferred);
      } else {
        insns.insn(o.d, o.i);
      }
      if (resume && synced) {
        mv.visitVarInsn(ALOAD, CPU_L);
        loadCount(o.i + 1);
        loadNext();
        mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "resumeReplacement", "(JJ)V", false);
      }
    }

    @Override
    public void loadNext() {
      if (o.i == b.insns.length - 1) {
        mv.visitVarInsn(LLOAD, R_PC);
      } else {
        BytecodeTranslator.lconst(mv, o.d.npc);
      }
    }
  }

  /** Leaves the unit after tagged instruction {@code i}, at the pc in scratch. */
  private void earlyExit(DecodedInsn d, int i) {
    BytecodeTranslator.addSteps(mv, i + 1);
    if (observed) {
      mv.visitVarInsn(ALOAD, CPU_L);
      BytecodeTranslator.lconst(mv, d.pc);
      BytecodeTranslator.iconst(mv, i + 1);
      BytecodeTranslator.iconst(mv, i == b.insns.length - 1 && b.transferEnd ? 1 : 0);
      mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "observe", "(JIZ)V", false);
    }
    mv.visitVarInsn(LLOAD, scratch);
    mv.visitVarInsn(LSTORE, R_PC);
    BytecodeTranslator.exitKind(mv, UnitContext.EXIT_TAGGED);
    mv.visitJumpInsn(GOTO, leave);
  }

  /** Stores every register the unit's code wrote to {@code x[]} (at an exit). */
  void storeWritten() {
    regs.storeWritten();
  }

  /** The x registers the decode stage may write when it runs {@code d} (bit r: x[r]). */
  private long written(DecodedInsn d) {
    return stage == null ? -1L : stage.registersWritten(d);
  }

  /** Inline: k = 0 and the cached registers loaded (before the dispatch method's try). */
  void enter() {
    BytecodeTranslator.iconst(mv, 0);
    mv.visitVarInsn(ISTORE, k);
    memory.enter();
    regs.reloadUsed();
  }

  /** Inline: k, the index in its block of the instruction that threw. */
  int kSlot() {
    return k;
  }
}

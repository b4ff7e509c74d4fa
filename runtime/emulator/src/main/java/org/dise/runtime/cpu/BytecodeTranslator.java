package org.dise.runtime.cpu;

import static org.objectweb.asm.Opcodes.*;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.SemanticsTable;
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

  /** What the unit calls and writes: its hart's {@link UnitContext}, never the Cpu itself. */
  private static final String CTX = "org/dise/runtime/cpu/UnitContext";

  private static final String MEM = "org/dise/runtime/mem/Memory";
  private static final String FPU = "org/dise/runtime/cpu/Fpu";
  private static final String INSN = "org/dise/runtime/isa/DecodedInsn";

  /** The descriptor of a unit's {@code insns} field: each block's decoded instructions. */
  private static final String INSNS = "[[L" + INSN + ";";

  static final String NAME = CompiledBlocks.UNIT_CLASS_NAME.replace('.', '/');

  /** The units' superclass (an abstract class: the dispatcher's call goes through the vtable). */
  private static final String COMPILED = "org/dise/runtime/cpu/CompiledBlocks";

  /**
   * What a unit's class is written from, for every attempt at it: its blocks, the decode stage it
   * is translated under, the class data its emitted plans load ({@code constants}, filled as it is
   * written), the application code's size limit and, in {@code methodBytes}, the dispatch method's
   * size and of that the application's ({@link Defined}), which {@link #runMethod} writes; with
   * {@code calls}, call sites ({@link #callSite}); with {@code inMemory}, registers in {@code x[]};
   * with {@code countPlanRuns}, the emitted plans' runs counted ({@link
   * BlockCompiler#countPlanRuns}).
   */
  private record Translation(
      List<Block> blocks,
      boolean observed,
      DecodeStage stage,
      List<Object> constants,
      int limit,
      int[] methodBytes,
      boolean calls,
      boolean inMemory,
      boolean countPlanRuns) {}

  /**
   * The unit's class written again with ASM's frames: after {@code frames} (the first attempt's)
   * left no frames for a unit with constants, or when emitted frames could not be relied on (a
   * fallback, counted).
   */
  private static byte[] withAsmFrames(Translation t, UnitFrames.Mode frames) throws TooLarge {
    if (frames == UnitFrames.Mode.EMITTED) {
      UnitFrames.FALLBACKS.incrementAndGet();
    }
    t.constants().clear();
    return classBytes(t, UnitFrames.Mode.ASM);
  }

  /** {@code MethodHandles.classDataAt}: a constant of the unit's class data, resolved once. */
  private static final Handle CLASS_DATA_AT =
      new Handle(
          H_INVOKESTATIC,
          "java/lang/invoke/MethodHandles",
          "classDataAt",
          "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;I)"
              + "Ljava/lang/Object;",
          false);

  /**
   * Defines the unit's class, without call sites, as a run's defaults translate it, and returns its
   * instance.
   */
  static CompiledBlocks define(List<Block> blocks, boolean observed, DecodeStage stage)
      throws Exception {
    return define(
            blocks, observed, stage, HUGE_METHOD, false, UnitRegisters.DEFAULT_IN_MEMORY, false)
        .code();
  }

  /**
   * How units' classes get their stack map frames (system property {@code acf.unitFrames}: {@code
   * asm} by default, {@code emitted} or {@code false}; tests set it). ASM's frame computation is
   * 85% of generating a unit (SQLite: 0.45 of 0.55 s); without frames the JVM's inference verifier
   * takes most of that back (docs/benchmarks.md, "SQLite's CPU by thread"); written by the
   * emitters' own model ({@link UnitFrames}) they cost a pass over the code, which SQLite gains
   * from, but chess and interp ran slower with them (docs/benchmarks.md, "Units write their own
   * stack map frames"), so they are opt-in.
   */
  static UnitFrames.Mode unitFrames = UnitFrames.Mode.of(EmulatorProperties.UNIT_FRAMES.value());

  /** Where units' class files are written (system property {@code acf.dumpUnits}), or null. */
  private static volatile Path dumpDir = dumpDir(EmulatorProperties.DUMP_UNITS.value());

  private static Path dumpDir(String value) {
    return value.isEmpty() ? null : Path.of(value);
  }

  private static final AtomicInteger DUMPED = new AtomicInteger();

  /**
   * With {@code acf.dumpUnits=DIR}: writes the unit's class file as {@code DIR/unit-N-PC.class} (N
   * its number in this run, PC its first block's address in hex), for {@code javap -c -p}; a
   * directory that cannot be written is said once on stderr and the run goes on without dumps.
   */
  private static void dump(List<Block> blocks, byte[] bytes) {
    Path dir = dumpDir;
    if (dir == null) {
      return;
    }
    String name =
        "unit-" + DUMPED.incrementAndGet() + "-" + Long.toHexString(blocks.get(0).start) + ".class";
    try {
      Files.createDirectories(dir);
      Files.write(dir.resolve(name), bytes);
    } catch (IOException | RuntimeException e) {
      dumpDir = null;
      System.err.println("acf: -Dacf.dumpUnits=" + dir + ": cannot write " + name + ": " + e);
    }
  }

  /**
   * A defined unit, the bytes of its dispatch method, and of those the application's: all but the
   * code out of line for the ACF's tagged instructions (their prologues and replacements).
   */
  record Defined(CompiledBlocks code, int methodBytes, int applicationBytes) {}

  /**
   * Defines the unit's class, throwing {@link TooLarge} when its dispatch method reaches {@code
   * limit} bytes (at most {@link #HUGE_METHOD}); with {@code calls}, a call out of the unit runs
   * its callee's unit from the call site ({@link #callSite}); with {@code inMemory}, the guest
   * registers stay in {@code x[]} ({@link UnitRegisters}); with {@code countPlanRuns}, the unit
   * counts the runs of the plans it emits ({@link BlockCompiler#countPlanRuns}).
   */
  static Defined define(
      List<Block> blocks,
      boolean observed,
      DecodeStage stage,
      int limit,
      boolean calls,
      boolean inMemory,
      boolean countPlanRuns)
      throws Exception {
    // TooLarge propagates: the caller splits the unit.
    List<Object> constants = new ArrayList<>();
    int[] methodBytes = new int[2];
    Translation t =
        new Translation(
            blocks, observed, stage, constants, limit, methodBytes, calls, inMemory, countPlanRuns);
    UnitFrames.Mode frames = unitFrames;
    byte[] bytes = classBytes(t, frames);
    dump(blocks, bytes);
    // The emitted prologues' constants are the class's data: the unit holds them strongly.
    MethodHandles.Lookup lookup;
    try {
      lookup = defineUnit(bytes, constants);
    } catch (VerifyError e) {
      if (frames != UnitFrames.Mode.EMITTED) {
        throw e;
      }
      // The emitted frames were wrong where the model could not tell: ASM's instead.
      bytes = withAsmFrames(t, frames);
      lookup = defineUnit(bytes, constants);
    }
    DecodedInsn[][] insns = new DecodedInsn[blocks.size()][];
    for (int i = 0; i < blocks.size(); i++) {
      insns[i] = blocks.get(i).insns;
    }
    CompiledBlocks code =
        (CompiledBlocks)
            lookup
                .lookupClass()
                .getDeclaredConstructor(DecodedInsn[][].class)
                .newInstance((Object) insns);
    return new Defined(code, methodBytes[0], methodBytes[1]);
  }

  private static MethodHandles.Lookup defineUnit(byte[] bytes, List<Object> constants)
      throws IllegalAccessException {
    return MethodHandles.lookup()
        .defineHiddenClassWithClassData(
            bytes, List.copyOf(constants), true, MethodHandles.Lookup.ClassOption.NESTMATE);
  }

  /** The class file of a unit (public for tests that inspect or verify it). */
  static byte[] classBytes(List<Block> blocks, boolean observed) throws TooLarge {
    return classBytes(blocks, observed, null);
  }

  /**
   * The class file of a unit translated under decode stage {@code stage}: its tagged instructions
   * call it directly (see {@link BlockEmitter}).
   */
  static byte[] classBytes(List<Block> blocks, boolean observed, DecodeStage stage)
      throws TooLarge {
    return classBytes(
        new Translation(
            blocks,
            observed,
            stage,
            new ArrayList<>(),
            HUGE_METHOD,
            new int[2],
            false,
            UnitRegisters.DEFAULT_IN_MEMORY,
            false),
        unitFrames);
  }

  /**
   * As {@link #classBytes(List, boolean, DecodeStage)}, adding to {@code t.constants()} the objects
   * its emitted plans load ({@link PlanEmitter.Unit#loadConstant}): the class's data; too large
   * from {@code t.limit()} bytes of application code or HotSpot's limit for the whole dispatch
   * method (the sizes in {@code t.methodBytes()}); with stack map frames as {@code frames} says
   * ({@link #unitFrames}).
   */
  private static byte[] classBytes(Translation t, UnitFrames.Mode frames) throws TooLarge {
    List<Block> blocks = t.blocks();
    List<Object> constants = t.constants();
    int[] methodBytes = t.methodBytes();
    // Without frames (acf.unitFrames=false) the class is a Java 6 one, which the JVM verifies by
    // inference; a unit whose emitted plans load constants (ldc of a dynamic constant needs a
    // Java 11 class file) is written again with ASM's frames.
    boolean plain = frames == UnitFrames.Mode.NONE && constants.isEmpty();
    boolean emitted = frames == UnitFrames.Mode.EMITTED;
    ClassWriter cw =
        new ClassWriter(
            plain || emitted
                ? ClassWriter.COMPUTE_MAXS
                : ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
          @Override
          protected String getCommonSuperClass(String a, String b) {
            return "java/lang/Object"; // only Throwable handlers merge; no class loading here
          }
        };
    cw.visit(plain ? V1_6 : V17, ACC_FINAL | ACC_SUPER, NAME, null, COMPILED, null);
    cw.visitField(ACC_PRIVATE | ACC_FINAL, "insns", INSNS, null, null).visitEnd();
    cw.visitField(ACC_PRIVATE | ACC_VOLATILE, "stale", "Z", null, null).visitEnd();

    MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "([[L" + INSN + ";)V", null, null);
    init.visitCode();
    init.visitVarInsn(ALOAD, 0);
    init.visitMethodInsn(INVOKESPECIAL, COMPILED, "<init>", "()V", false);
    init.visitVarInsn(ALOAD, 0);
    init.visitVarInsn(ALOAD, 1);
    init.visitFieldInsn(PUTFIELD, NAME, "insns", INSNS);
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

    int[] blockBytes = new int[blocks.size()];
    boolean[] unsure = new boolean[1];
    try {
      runMethod(cw, t, blockBytes, emitted, unsure);
    } catch (RuntimeException e) {
      if (!emitted) {
        throw e;
      }
      unsure[0] = true; // the frame model met code whose types it cannot follow: ASM's frames
    }
    if (plain && !constants.isEmpty() || unsure[0]) {
      return withAsmFrames(t, frames);
    }
    // The limit bounds the application's code, so that an ACF's prologues do not make units (and
    // joins) smaller than in a plain run; HotSpot's limit bounds the whole method.
    if (methodBytes[1] >= t.limit() || methodBytes[0] >= HUGE_METHOD) {
      throw new TooLarge(blockBytes, methodBytes[0], methodBytes[1]);
    }
    if (!constants.isEmpty()) {
      // C1 will not compile a method with an unresolved dynamic constant (it waits for C2): the
      // class's initialisation resolves them all before the unit first runs.
      MethodVisitor clinit = cw.visitMethod(ACC_STATIC, "<clinit>", "()V", null, null);
      clinit.visitCode();
      for (int i = 0; i < constants.size(); i++) {
        clinit.visitLdcInsn(classData(i, constants.get(i)));
        clinit.visitInsn(POP);
      }
      clinit.visitInsn(RETURN);
      clinit.visitMaxs(0, 0);
      clinit.visitEnd();
    }
    MethodVisitor lk = cw.visitMethod(ACC_PRIVATE | ACC_STATIC, "lookup", "(J)I", null, null);
    UnitFrames lkFrames =
        emitted ? new UnitFrames(NAME, ACC_PRIVATE | ACC_STATIC, "lookup", "(J)I", lk) : null;
    if (lkFrames != null) {
      lk = lkFrames;
    }
    lk.visitCode();
    lookup(lk, blocks);
    lk.visitInsn(IRETURN);
    lk.visitMaxs(0, 0);
    lk.visitEnd();
    if (lkFrames != null && lkFrames.failed()) {
      return withAsmFrames(t, frames);
    }
    cw.visitEnd();
    return cw.toByteArray();
  }

  /**
   * Entry {@code index} of the unit's class data, {@code value}, as one constant pool entry per
   * index: of {@code value}'s own class where the unit can name it ({@link
   * PlanEmitter#directOwner}), so that no cast follows each load (a tagged branch's prologue loads
   * five or six), else of {@code Object}.
   */
  static ConstantDynamic classData(int index, Object value) {
    String owner = PlanEmitter.directOwner(value);
    String type = owner == null ? "Ljava/lang/Object;" : Type.getObjectType(owner).getDescriptor();
    return new ConstantDynamic("_", type, CLASS_DATA_AT, index);
  }

  // Locals of run(int id, UnitContext cpu, long[] x, long[] f, Memory mem, long budget).
  static final int R_THIS = 0;
  static final int R_ID = 1;
  static final int R_CPU = 2;
  static final int R_X = 3;
  static final int R_F = 4;
  static final int R_MEM = 5;
  static final int R_BUDGET = 6;

  /**
   * The instruction count n, as a countdown: R_LIMIT is the budget clamped to an int at entry
   * ({@link CompiledBlocks#stepBudget}), R_LEFT what it leaves, and n = limit - left. An int
   * countdown, so that the test before each block ({@code left < len}) and the count at its end
   * ({@code iinc}) take their constants as immediates under C1 (a long's constant takes a register)
   * and a loop carries one int for the count.
   */
  static final int R_LEFT = 8;

  static final int R_LIMIT = 9;
  static final int R_PC = 10;
  static final int R_VECTOR = 12;

  /** Then k, scratch, and the guest registers (BlockEmitter's layout). */
  static final int R_K = 14;

  /** HotSpot compiles no method of more than 8000 bytes of bytecode (DontCompileHugeMethods). */
  static final int HUGE_METHOD = 8000;

  /**
   * A unit whose dispatch method would be too large for HotSpot to compile: split it. Carries what
   * each block took of the method (its own code plus its share of the code out of line and of the
   * entry, exit and fault handling), so that the caller can cut the unit into pieces that fit in
   * one more generation each rather than halving it until they do.
   */
  static final class TooLarge extends Exception {
    final int[] blockBytes;

    /** The bytes of the whole method. */
    final int methodBytes;

    /** Of those, the application's ({@link Defined#applicationBytes}). */
    final int applicationBytes;

    TooLarge(int[] blockBytes, int methodBytes, int applicationBytes) {
      super(null, null, false, false);
      this.blockBytes = blockBytes;
      this.methodBytes = methodBytes;
      this.applicationBytes = applicationBytes;
    }
  }

  /**
   * The dispatch loop: runs block {@code id}, then its successor while it is in the unit. The
   * blocks are inline, and the guest registers the unit uses live in its locals from entry to exit,
   * so control passing between the unit's blocks costs a compare and a jump. Its size in bytes, and
   * of those the application's, go to {@code t.methodBytes()}.
   */
  private static void runMethod(
      ClassWriter cw, Translation t, int[] blockBytes, boolean emitted, boolean[] unsure) {
    List<Block> blocks = t.blocks();
    String desc = "(IL" + CTX + ";[J[JL" + MEM + ";J)J";
    MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "run", desc, null, null);
    UnitFrames frames = emitted ? new UnitFrames(NAME, ACC_PUBLIC, "run", desc, mv) : null;
    if (frames != null) {
      mv = frames;
    }
    Label tryStart = new Label();
    Label tryEnd = new Label();
    Label handler = new Label();
    // The handler covers the instructions that can throw (FaultRanges), not the whole unit; with
    // emitted frames (which declare the handler's frame when its range is declared), the whole
    // unit.
    boolean narrow = frames == null && faultRangesAtCalls;
    if (narrow) {
      mv = new FaultRanges(mv, tryStart, tryEnd, handler);
    }
    mv.visitCode();
    Map<Long, Integer> ids = new HashMap<>();
    for (int i = 0; i < blocks.size(); i++) {
      ids.put(blocks.get(i).start, i);
    }
    mv.visitVarInsn(LLOAD, R_BUDGET);
    mv.visitMethodInsn(INVOKESTATIC, COMPILED, "stepBudget", "(J)I", false);
    mv.visitInsn(DUP);
    mv.visitVarInsn(ISTORE, R_LIMIT);
    mv.visitVarInsn(ISTORE, R_LEFT);
    lconst(mv, 0);
    mv.visitVarInsn(LSTORE, R_PC);
    // Only the decode stage changes the flag vector, and only when the unit calls it: one read of
    // the cpu's copy here (0 without a stage), and one after each call.
    loadVector(mv);
    BlockEmitter code = new BlockEmitter(mv, blocks, t.observed(), t.stage(), t.inMemory());
    code.constants = t.constants();
    code.countPlanRuns = t.countPlanRuns();
    // Loads and stores leave the unit on their slow path (MemoryAccess); with emitted frames, whose
    // model has no frame for this exit, they call the Memory method.
    Label slowExit = new Label();
    if (frames == null) {
      code.slowExits(slowExit);
    }
    code.enter();

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
    boolean tagged = code.taggedHandler(partHandler, leave);
    // A call into another unit has its own handler too: the callee stored its registers and
    // named the faulting instruction; the caller only adds its own count.
    Label callHandler = new Label();
    CallSite[] calls = new CallSite[blocks.size()];
    boolean anyCall = false;
    for (int i = 0; i < blocks.size(); i++) {
      DecodedInsn last = blocks.get(i).insns[blocks.get(i).insns.length - 1];
      if (t.calls() && isCall(last)) {
        calls[i] =
            new CallSite(
                new Label(), new Label(), new Label(), UnitContext.exitKindOf(last), last.npc);
        mv.visitTryCatchBlock(
            calls[i].from, calls[i].to, callHandler, "java/lang/RuntimeException");
        anyCall = true;
      }
    }
    if (!narrow) {
      mv.visitTryCatchBlock(tryStart, tryEnd, handler, "java/lang/RuntimeException");
    }
    if (frames != null) {
      frames.declareState(); // what handlers see, and what the dispatch loop carries
    }
    mv.visitLabel(tryStart);
    UnitFrames.anchor(mv, loop);
    mv.visitVarInsn(ILOAD, R_ID);
    mv.visitTableSwitchInsn(0, blocks.size() - 1, dflt, cases);
    for (int i = 0; i < blocks.size(); i++) {
      Block b = blocks.get(i);
      DecodedInsn last = b.insns[b.insns.length - 1];
      int len = b.insns.length;
      UnitFrames.anchor(mv, cases[i]);
      boolean selfLoop = b.loopsToItself();
      Label top = new Label();
      UnitFrames.anchor(mv, top);
      // if (n + len > budget) { cpu.unitSteps = n; return start; }
      Label fits = new Label();
      ifFits(mv, len, fits);
      exitKind(mv, UnitContext.EXIT_BUDGET);
      setUnitSteps(mv);
      code.storeWritten();
      lconst(mv, b.start);
      mv.visitInsn(LRETURN);
      mv.visitLabel(fits);
      Label blockDone = new Label();
      InsnEmitter.Edges edges =
          directEdges ? new Edges(mv, i, b, t.observed(), ids, cases, leave) : null;
      boolean toDone = code.emitBlock(i, b, blockDone, edges);
      // Whether the pc at blockDone may start a block of the unit: not when direct edges took
      // them all, unless the decode stage's code out of line chose it.
      boolean mayStay = edges == null || code.outOfLine(i);
      if (!toDone && !mayStay && calls[i] == null) {
        continue; // every exit of the block was a direct edge
      }
      mv.visitLabel(blockDone);
      retire(mv, b, t.observed());
      if (selfLoop && mayStay) {
        // A block that branches to itself becomes a JVM loop, which HotSpot compiles as one.
        Label out = new Label();
        leaveUnlessAt(mv, R_PC, b.start, out);
        mv.visitVarInsn(ALOAD, R_CPU);
        mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "interruptPending", "()Z", false);
        mv.visitJumpInsn(IFEQ, top);
        mv.visitLabel(out);
      }
      // Successors known at translation time get their ids as constants.
      long taken = last.target();
      Integer takenId = taken >= 0 ? ids.get(taken) : null;
      Integer fallId = last.exec == Op.JAL || last.exec == Op.JALR ? null : ids.get(b.end);
      if (takenId != null && mayStay) {
        Label no = new Label();
        mv.visitVarInsn(LLOAD, R_PC);
        lconst(mv, taken);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFNE, no);
        jumpTo(mv, i, takenId, cases[takenId], leave);
        mv.visitLabel(no);
      }
      if (fallId != null && mayStay) {
        Label no = new Label();
        mv.visitVarInsn(LLOAD, R_PC);
        lconst(mv, b.end);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFNE, no);
        jumpTo(mv, i, fallId, cases[fallId], leave);
        mv.visitLabel(no);
      }
      exitKind(mv, UnitContext.exitKindOf(last));
      CallSite call = calls[i];
      if (last.exec == Op.JALR) {
        mv.visitVarInsn(LLOAD, R_PC);
        mv.visitMethodInsn(INVOKESTATIC, NAME, "lookup", "(J)I", false);
        if (call != null) {
          // In the unit: as any transfer; else the callee's unit is called from here.
          mv.visitInsn(DUP);
          mv.visitVarInsn(ISTORE, R_ID);
          mv.visitJumpInsn(IFGE, check);
          mv.visitJumpInsn(GOTO, call.site);
          continue;
        }
      } else if (call != null && takenId == null) {
        mv.visitJumpInsn(GOTO, call.site);
        continue;
      } else {
        iconst(mv, -1);
      }
      mv.visitVarInsn(ISTORE, R_ID);
      mv.visitJumpInsn(GOTO, check);
    }
    Label blocksEnd = new Label();
    mv.visitLabel(blocksEnd);
    // The ACF's code out of line, measured so that the unit limits count the application's only.
    Label outOfLineEnd = code.hasOutOfLine() ? new Label() : null;
    code.emitOutOfLine();
    if (outOfLineEnd != null) {
      mv.visitLabel(outOfLineEnd);
    }
    for (int i = 0; i < blocks.size(); i++) {
      if (calls[i] != null) {
        Block b = blocks.get(i);
        Integer contId = ids.get(b.insns[b.insns.length - 1].npc);
        callSite(mv, code, calls[i], contId == null ? null : cases[contId], contId, leave);
      }
    }
    mv.visitLabel(dflt);
    setUnitSteps(mv);
    code.storeWritten();
    mv.visitVarInsn(LLOAD, R_PC);
    mv.visitInsn(LRETURN);
    // if (id < 0 || cpu.interruptPending()) { cpu.unitSteps = n; return pc; }
    mv.visitLabel(check);
    mv.visitVarInsn(ILOAD, R_ID);
    mv.visitJumpInsn(IFLT, leave);
    exitKind(mv, UnitContext.EXIT_CHECK);
    pending(mv);
    mv.visitJumpInsn(IFEQ, loop);
    mv.visitLabel(leave);
    setUnitSteps(mv);
    code.storeWritten();
    mv.visitVarInsn(LLOAD, R_PC);
    mv.visitInsn(LRETURN);
    mv.visitLabel(tryEnd);
    if (code.leavesAtSlowExit()) {
      // A load or store the fast path could not do: the instructions before it retired, the
      // registers go to x[], and the run loop interprets from its pc (UnitContext.slowExit; the
      // pc returned carries SLOW_EXIT_BIT).
      mv.visitLabel(slowExit);
      exitKind(mv, UnitContext.EXIT_SLOW_ACCESS);
      setUnitStepsBeforeCurrent(mv);
      code.storeWritten();
      mv.visitVarInsn(ALOAD, R_CPU);
      mv.visitInsn(ICONST_1);
      mv.visitFieldInsn(PUTFIELD, CTX, "slowExit", "Z");
      loadCurrentInsn(mv);
      mv.visitFieldInsn(GETFIELD, INSN, "pc", "J");
      lconst(mv, UnitContext.SLOW_EXIT_BIT);
      mv.visitInsn(LOR);
      mv.visitInsn(LRETURN);
    }
    // catch (RuntimeException e): the block that threw counts the instructions before the
    // faulting one, which the interpreter reports.
    // A handler's entry must not be reached by normal flow (C1 refuses to compile such a
    // method), so both handlers jump to the shared part.
    Label common = new Label();
    if (tagged) { // else no code: nothing reaches it, and dead code would need a frame
      mv.visitLabel(partHandler);
      mv.visitJumpInsn(GOTO, common);
    }
    mv.visitLabel(handler);
    // A unit that writes no register stores nothing here: without the NOP, handler and common
    // would share a bytecode index that partHandler's goto reaches, and C1 refuses the method.
    mv.visitInsn(NOP);
    // The registers as the instructions before the faulting one left them: precise state.
    code.storeWritten();
    mv.visitLabel(common);
    setUnitStepsBeforeCurrent(mv);
    mv.visitVarInsn(ALOAD, R_CPU);
    loadCurrentInsn(mv);
    mv.visitFieldInsn(PUTFIELD, CTX, "faultInsn", "L" + INSN + ";");
    mv.visitInsn(ATHROW);
    // catch (RuntimeException e) around a call into another unit: the caller's count comes
    // back, and the instructions it ran before the call count as retired.
    if (anyCall) { // else nothing reaches it
      mv.visitLabel(callHandler);
      mv.visitVarInsn(ALOAD, R_CPU);
      pushSteps(mv);
      mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "leaveCall", "(J)V", false);
      mv.visitVarInsn(ALOAD, R_CPU);
      mv.visitInsn(DUP);
      mv.visitFieldInsn(GETFIELD, CTX, "unitSteps", "J");
      pushSteps(mv);
      mv.visitInsn(LADD);
      mv.visitFieldInsn(PUTFIELD, CTX, "unitSteps", "J");
      mv.visitInsn(ATHROW);
    }
    Label end = new Label();
    mv.visitLabel(end);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    unsure[0] = frames != null && frames.failed();
    int acf = outOfLineEnd == null ? 0 : outOfLineEnd.getOffset() - blocksEnd.getOffset();
    t.methodBytes()[0] = end.getOffset();
    t.methodBytes()[1] = end.getOffset() - acf;
    blockShares(cases, blocksEnd.getOffset(), end.getOffset() - acf, blockBytes);
  }

  /**
   * cpu.unitSteps = n + k: the block's instructions before the one the unit is at (k in R_K) have
   * retired, for a fault or a slow exit.
   */
  private static void setUnitStepsBeforeCurrent(MethodVisitor mv) {
    mv.visitVarInsn(ALOAD, R_CPU);
    pushSteps(mv);
    mv.visitVarInsn(ILOAD, R_K);
    mv.visitInsn(I2L);
    mv.visitInsn(LADD);
    mv.visitFieldInsn(PUTFIELD, CTX, "unitSteps", "J");
  }

  /** Pushes the unit's instructions, {@code this.insns}, indexed by block id, then index. */
  static void loadInsns(MethodVisitor mv) {
    mv.visitVarInsn(ALOAD, R_THIS);
    mv.visitFieldInsn(GETFIELD, NAME, "insns", INSNS);
  }

  /**
   * Pushes the instruction the unit is at: {@code insns[id][k]}, k the index the emitters keep in
   * R_K for a fault or a slow exit.
   */
  private static void loadCurrentInsn(MethodVisitor mv) {
    loadInsns(mv);
    mv.visitVarInsn(ILOAD, R_ID);
    mv.visitInsn(AALOAD);
    mv.visitVarInsn(ILOAD, R_K);
    mv.visitInsn(AALOAD);
  }

  /**
   * Each block's bytes of a dispatch method of {@code total} bytes of application code whose blocks
   * start at {@code cases} (in order) and end at {@code blocksEnd}: its own code, scaled up so that
   * the rest of the method (entry, exits, handler) is shared among the blocks in proportion.
   */
  private static void blockShares(Label[] cases, int blocksEnd, int total, int[] blockBytes) {
    int inline = Math.max(1, blocksEnd - cases[0].getOffset());
    for (int i = 0; i < cases.length; i++) {
      int next = i + 1 < cases.length ? cases[i + 1].getOffset() : blocksEnd;
      long own = next - cases[i].getOffset();
      blockBytes[i] = (int) Math.max(1, own * total / inline);
    }
  }

  /**
   * Whether a block's transfer to a block of its unit jumps to it where the transfer is (system
   * property {@code acf.directEdges}; tests set it): a branch's taken and fall-through sides, a
   * {@code jal}, a block's fall-through. Otherwise every exit leaves the next pc in a local, and
   * the code after the block compares it with the successors' addresses ({@link #jumpTo}).
   */
  static boolean directEdges = EmulatorProperties.DIRECT_EDGES.value();

  /**
   * Whether a unit's fault handler covers only the instructions that can throw ({@link
   * FaultRanges}; system property {@code acf.faultRanges}, {@code calls} by default) rather than
   * the whole unit ({@code unit}).
   */
  static boolean faultRangesAtCalls = EmulatorProperties.FAULT_RANGES.value().equals("calls");

  /**
   * A block's direct edges ({@link #directEdges}): where its transfer is, the block's instructions
   * are counted, the observer told, and control goes to the successor's code, a forward edge at
   * once, a backward edge (or a self-loop) after the check of {@link #jumpTo}, which leaves with
   * the successor's address as the next pc.
   */
  private record Edges(
      MethodVisitor mv,
      int from,
      Block b,
      boolean observed,
      Map<Long, Integer> ids,
      Label[] cases,
      Label leave)
      implements InsnEmitter.Edges {
    @Override
    public boolean reaches(long pc) {
      return ids.containsKey(pc);
    }

    @Override
    public void jump(long pc) {
      int to = ids.get(pc);
      retire(mv, b, observed);
      if (to != from) {
        iconst(mv, to);
        mv.visitVarInsn(ISTORE, R_ID);
      }
      if (to > from) {
        mv.visitJumpInsn(GOTO, cases[to]);
        return;
      }
      Label out = new Label();
      exitKind(mv, UnitContext.EXIT_CHECK);
      pending(mv);
      mv.visitJumpInsn(IFEQ, cases[to]);
      mv.visitLabel(out);
      lconst(mv, pc);
      mv.visitVarInsn(LSTORE, R_PC);
      mv.visitJumpInsn(GOTO, leave);
    }
  }

  /**
   * At the end of block {@code b}: n += its length, and the observer told when {@code observed}.
   */
  private static void retire(MethodVisitor mv, Block b, boolean observed) {
    int len = b.insns.length;
    addSteps(mv, len);
    if (observed) {
      mv.visitVarInsn(ALOAD, R_CPU);
      lconst(mv, b.insns[len - 1].pc);
      iconst(mv, len);
      iconst(mv, b.transferEnd ? 1 : 0);
      mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "observe", "(JIZ)V", false);
    }
  }

  /**
   * Goes from block {@code from} to its successor {@code to}, known at translation, with a direct
   * jump to the successor's code rather than through the dispatch switch (one indirect jump for
   * every transfer in the unit, which the host's branch predictor sees as one site). A forward edge
   * jumps at once: the blocks are in a fixed order, so every cycle of the unit's control flow holds
   * a backward edge, and a backward edge (or a block's own loop, or a {@code jalr}) first leaves
   * the unit when an interrupt is pending ({@link #pending}), as the dispatch does. R_ID names the
   * block for the fault handler either way.
   */
  private static void jumpTo(MethodVisitor mv, int from, int to, Label target, Label leave) {
    iconst(mv, to);
    mv.visitVarInsn(ISTORE, R_ID);
    if (to <= from) {
      exitKind(mv, UnitContext.EXIT_CHECK);
      pending(mv);
      mv.visitJumpInsn(IFNE, leave);
    }
    mv.visitJumpInsn(GOTO, target);
  }

  /**
   * A block ending in a guest call ({@code jal} or {@code jalr} with a link register) whose callee
   * is not in the unit: {@code site} is where its exit goes, the call's JVM range is {@code from}
   * to {@code to}, {@code kind} the exit kind when the call leaves after all, and {@code
   * returnAddress} where the callee's return comes back to.
   */
  private record CallSite(Label site, Label from, Label to, int kind, long returnAddress) {}

  /** True for a transfer that writes a link register: a call (the RISC-V calling convention). */
  static boolean isCall(DecodedInsn last) {
    return (last.exec == Op.JAL || last.exec == Op.JALR) && UnitRegisters.real(last.rd);
  }

  /**
   * A call out of the unit, R_PC holding the callee's address: when {@link UnitContext#callee}
   * finds it translated, the caller's registers go to x[] and the callee's unit runs as a JVM call
   * with what is left of the budget, its count added to n. When it comes back to the call's return
   * address, that block is in the unit ({@code cont}), the unit is current and nothing is pending,
   * the caller reloads its registers and goes on there: the guest's return came back into the
   * caller's code without the dispatcher, the host stack serving as a return stack that is checked
   * against the actual target. Any other pc leaves the unit (x[] is already current).
   */
  private static void callSite(
      MethodVisitor mv, BlockEmitter code, CallSite call, Label cont, Integer contId, Label leave) {
    Label noCall = new Label();
    Label out = new Label();
    mv.visitLabel(call.site);
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitVarInsn(LLOAD, R_PC);
    pushLeft(mv);
    mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "callee", "(JJ)L" + COMPILED + ";", false);
    mv.visitInsn(DUP);
    mv.visitJumpInsn(IFNULL, noCall);
    code.storeWritten();
    mv.visitVarInsn(ALOAD, R_CPU);
    pushSteps(mv);
    mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "enterCall", "(J)V", false);
    mv.visitLabel(call.from);
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitFieldInsn(GETFIELD, CTX, "calleeId", "I");
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitVarInsn(ALOAD, R_X);
    mv.visitVarInsn(ALOAD, R_F);
    mv.visitVarInsn(ALOAD, R_MEM);
    pushLeft(mv);
    mv.visitMethodInsn(
        INVOKEVIRTUAL, COMPILED, "run", "(IL" + CTX + ";[J[JL" + MEM + ";J)J", false);
    mv.visitVarInsn(LSTORE, R_PC);
    // A callee whose unit ended before its return: followed from here, keeping this frame.
    Label back = new Label();
    mv.visitVarInsn(LLOAD, R_PC);
    lconst(mv, call.returnAddress);
    mv.visitInsn(LCMP);
    mv.visitJumpInsn(IFEQ, back);
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitVarInsn(LLOAD, R_PC);
    lconst(mv, call.returnAddress);
    pushLeft(mv);
    mv.visitVarInsn(ALOAD, R_X);
    mv.visitVarInsn(ALOAD, R_F);
    mv.visitVarInsn(ALOAD, R_MEM);
    mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "follow", "(JJJ[J[JL" + MEM + ";)J", false);
    mv.visitVarInsn(LSTORE, R_PC);
    mv.visitLabel(back);
    mv.visitLabel(call.to);
    mv.visitVarInsn(ALOAD, R_CPU);
    pushSteps(mv);
    mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "leaveCall", "(J)V", false);
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitFieldInsn(GETFIELD, CTX, "unitSteps", "J");
    addSteps(mv);
    if (cont != null) {
      leaveUnlessAt(mv, R_PC, call.returnAddress, out);
      mv.visitVarInsn(ALOAD, R_CPU);
      mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "resumes", "()Z", false);
      mv.visitJumpInsn(IFEQ, out);
      code.enter();
      loadVector(mv);
      iconst(mv, contId);
      mv.visitVarInsn(ISTORE, R_ID);
      mv.visitJumpInsn(GOTO, cont);
    }
    // Leaves with the callee's pc; x[] holds the registers (the locals are out of date).
    mv.visitLabel(out);
    setUnitSteps(mv);
    mv.visitVarInsn(LLOAD, R_PC);
    mv.visitInsn(LRETURN);
    mv.visitLabel(noCall);
    mv.visitInsn(POP);
    exitKind(mv, call.kind);
    mv.visitJumpInsn(GOTO, leave);
  }

  /** With {@link UnitContext#EXIT_STATS}: the unit records why it is about to return. */
  static void exitKind(MethodVisitor mv, int kind) {
    if (UnitContext.EXIT_STATS) {
      mv.visitVarInsn(ALOAD, R_CPU);
      iconst(mv, kind);
      mv.visitFieldInsn(PUTFIELD, CTX, "exitKind", "I");
    }
  }

  /**
   * Pushes whether an interrupt is pending: the test on a backward edge and at the dispatch switch.
   * Staleness needs no test there: one host thread runs the hart, so a unit goes out of date while
   * it runs only through what it calls (its own store into code leaves through the Memory method's
   * exception or the slow exit; a callee or the decode stage may invalidate it, and {@link
   * #leaveUnlessAt} tests the flag after those calls), and no block leads into an out-of-date unit
   * (the blocks are taken out of it when it is marked).
   */
  private static void pending(MethodVisitor mv) {
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "interruptPending", "()Z", false);
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

  /** R_VECTOR = the decode stage's flag vector as the cpu keeps it. */
  static void loadVector(MethodVisitor mv) {
    mv.visitVarInsn(ALOAD, R_CPU);
    mv.visitMethodInsn(INVOKEVIRTUAL, CTX, "vectorBit", "()J", false);
    mv.visitVarInsn(LSTORE, R_VECTOR);
  }

  /** cpu.unitSteps = n. */
  private static void setUnitSteps(MethodVisitor mv) {
    mv.visitVarInsn(ALOAD, R_CPU);
    pushSteps(mv);
    mv.visitFieldInsn(PUTFIELD, CTX, "unitSteps", "J");
  }

  /** Pushes n, the instructions the unit has retired (a long): limit - left. */
  static void pushSteps(MethodVisitor mv) {
    mv.visitVarInsn(ILOAD, R_LIMIT);
    mv.visitVarInsn(ILOAD, R_LEFT);
    mv.visitInsn(ISUB);
    mv.visitInsn(I2L);
  }

  /** Pushes what is left of the budget (a long): budget - n, clamped as at entry. */
  static void pushLeft(MethodVisitor mv) {
    mv.visitVarInsn(ILOAD, R_LEFT);
    mv.visitInsn(I2L);
  }

  /** n += k. */
  static void addSteps(MethodVisitor mv, int k) {
    if (k >= Short.MIN_VALUE + 1 && k <= Short.MAX_VALUE) {
      mv.visitIincInsn(R_LEFT, -k);
    } else {
      mv.visitVarInsn(ILOAD, R_LEFT);
      iconst(mv, k);
      mv.visitInsn(ISUB);
      mv.visitVarInsn(ISTORE, R_LEFT);
    }
  }

  /** n += the long on the stack (at most what is left of the budget). */
  static void addSteps(MethodVisitor mv) {
    mv.visitInsn(L2I);
    mv.visitVarInsn(ILOAD, R_LEFT);
    mv.visitInsn(SWAP);
    mv.visitInsn(ISUB);
    mv.visitVarInsn(ISTORE, R_LEFT);
  }

  /** Jumps to {@code fits} when {@code k} more instructions stay within the budget. */
  static void ifFits(MethodVisitor mv, int k, Label fits) {
    mv.visitVarInsn(ILOAD, R_LEFT);
    iconst(mv, k);
    mv.visitJumpInsn(IF_ICMPGE, fits);
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
   * the unit has not gone stale: the condition shared by the places where the unit goes on after a
   * call that may have marked it (the instruction after a tagged one, a callee's return) and,
   * without direct edges, a block looping to itself. The caller emits its own last condition (a
   * pending interrupt, the budget).
   */
  static void leaveUnlessAt(MethodVisitor mv, int pcVar, long expected, Label leave) {
    mv.visitVarInsn(LLOAD, pcVar);
    lconst(mv, expected);
    mv.visitInsn(LCMP);
    mv.visitJumpInsn(IFNE, leave);
    leaveIfStale(mv, leave);
  }

  /** Jumps to {@code leave} when the unit went out of date (after a call that may mark it). */
  static void leaveIfStale(MethodVisitor mv, Label leave) {
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
}

package org.dise.runtime.cpu;

import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.mem.Memory;

/**
 * One RV64IMAFDC hart with Zicsr and Zifencei: its architectural state ({@link HartState}), the
 * hooks installed on it (decode stage, observers, block compiler, scheduler, kernel) and the run
 * control that guest threads, timers and faults go through. The work is in rooms of their own: the
 * decode and block caches ({@link DecodeCache}), the interpreter ({@link Interpreter}) and what
 * translated code may call and write ({@link UnitContext}).
 */
public final class Cpu extends HartState implements GuestState {
  /**
   * Units of this process written again with ASM's stack map frames because their own ({@code
   * acf.unitFrames=emitted}) could not be relied on ({@link UnitFrames}).
   */
  public static long unitFrameFallbacks() {
    return UnitFrames.FALLBACKS.get();
  }

  // The interpreter and translated code read and write these fields of the run directly.
  final Memory mem;
  SyscallHandler syscalls;
  long instret;
  boolean halted;
  private int exitCode;
  GuestFault fault;
  long breakpoint = -1;
  BlockCompiler compiler;
  DecodeStage decodeStage;

  /** Sees every executed application block (the phase tracker); null costs nothing. */
  BlockObserver observer;

  /** Sees every committed instruction (a timing model); null costs nothing (see setter). */
  RetireObserver retireObserver;

  private final DecodeCache cache;
  private final UnitContext unit;
  final Interpreter interpreter;

  /** Application instructions run since the last transfer reported to {@link #observer}. */
  private long observedPending;

  int translateThreshold;

  /**
   * Chained entries into a block from another unit at which the dispatcher asks the compiler to
   * join the two units ({@link BlockCompiler#join}); 0: never.
   */
  int joinAt;

  /**
   * The instruction count at which the threshold falls to its own value (0: it has): a young
   * process translates only its hottest blocks, since the translator's first use costs a fresh JVM
   * tens of milliseconds (spec/emulator.md, "Translation warm-up").
   */
  long translateFrom;

  /**
   * How many times the threshold a block must run to be translated while the process is young: a
   * loop that hot pays for the translator at once (chess ran 40% longer when nothing was translated
   * before the warm-up's end), while a short program's blocks never get there.
   */
  static final int YOUNG_FACTOR = 20;

  /** The threshold that applies once the warm-up is over. */
  private int agedThreshold;

  /** The threshold as set, before {@link #scaleThreshold} raised it. */
  private int baseThreshold;

  public Cpu(Memory mem, SyscallHandler syscalls) {
    this.mem = mem;
    this.syscalls = syscalls;
    this.cache = new DecodeCache(mem, this);
    this.unit = new UnitContext(this, cache);
    this.interpreter = new Interpreter(this, cache, unit);
    mem.setCodeWriteListener(cache::invalidatePage);
  }

  @Override
  public Memory memory() {
    return mem;
  }

  @Override
  public long[] x() {
    return x;
  }

  @Override
  public long[] f() {
    return f;
  }

  public void setSyscallHandler(SyscallHandler handler) {
    this.syscalls = handler;
  }

  /** Instructions retired so far. */
  public long instret() {
    return instret;
  }

  /**
   * What the run has counted so far, besides {@link #instret()}: how much ran translated and how
   * translated code reached the decode stage. The counters stay plain fields of the interpreter,
   * unit context and decode cache (the run loop and translated code bump them); this reads them
   * together.
   *
   * @param translatedInstructions instructions that ran in translated (compiled) blocks; a fault's
   *     block counts whole
   * @param unitEntries times the interpreter entered translated code (instructions per entry: the
   *     locality)
   * @param chainedEntries unit entries that came straight from the previous unit's exit (chaining,
   *     in {@link #run}): a unit that returned goes on into the translated block at its next pc
   *     without the dispatcher's checks (they hold for translated code: it runs whole blocks,
   *     tagged instructions included, within the budget), unless an interrupt or breakpoint is
   *     pending or the block is not translated or does not fit the budget. The block cache holds
   *     only current blocks, so code written since is never reached.
   * @param decodedCount static instructions decoded into the cache (re-decodes included)
   * @param taggedCalls times translated code called the decode stage for a tagged instruction
   * @param prologueCalls times translated code ran a decode stage prologue (not emitted inline)
   * @param emittedPrologueRuns times translated code ran a prologue emitted inline ({@link
   *     PlanEmitter}), counted only by units translated while {@link BlockCompiler#countPlanRuns}
   *     was on (acf bench -v, tests); else 0
   * @param emittedReplacementRuns times translated code ran a replacement emitted inline ({@link
   *     PlanEmitter}), counted as {@code emittedPrologueRuns} is
   * @param nestedCalls guest calls that translated code made straight into the callee's unit, on
   *     the host stack, without the dispatcher ({@link UnitContext#callee})
   * @param nestedReturns of those, the returns that went on in the caller's unit at the return
   *     address
   * @param exitKinds why units returned to the dispatcher, by kind (name to count; empty unless
   *     {@code -Dacf.exitStats=true}), and how many of those the dispatcher could not chain to a
   *     translated block
   * @param unitsJoined units translated again as one at a hot edge between them ({@code
   *     acf.joinUnits}, {@link BlockCompiler#join})
   * @param joinsRefused joins refused for good, the joined unit being over the limits
   */
  public record Counters(
      long translatedInstructions,
      long unitEntries,
      long chainedEntries,
      long decodedCount,
      long taggedCalls,
      long prologueCalls,
      long emittedPrologueRuns,
      long emittedReplacementRuns,
      long nestedCalls,
      long nestedReturns,
      java.util.Map<String, Long> exitKinds,
      long unitsJoined,
      long joinsRefused) {}

  /** The run's {@link Counters} as they stand now. */
  public Counters counters() {
    return new Counters(
        interpreter.translatedInstructions,
        interpreter.unitEntries,
        interpreter.chainedEntries,
        cache.decodedCount,
        unit.taggedCalls,
        unit.prologues,
        unit.emittedPrologues,
        unit.emittedReplacements,
        unit.nestedCalls,
        unit.nestedReturns,
        interpreter.exitKinds(),
        compiler == null ? 0 : compiler.joined(),
        compiler == null ? 0 : compiler.joinsRefused());
  }

  /** Stops the guest with this exit status (from exit/exit_group). */
  public void halt(int status) {
    halted = true;
    exitCode = status;
  }

  public boolean halted() {
    return halted;
  }

  public int exitCode() {
    return exitCode;
  }

  public GuestFault fault() {
    return fault;
  }

  /** True when {@link #requestInterrupt} asked a running guest to stop (for translated code). */
  public boolean interruptPending() {
    return unit.interruptRequested;
  }

  /** Asks a running {@link #run} to return soon with {@link StopReason#INTERRUPTED}. */
  public void requestInterrupt() {
    userInterrupt = true;
    unit.interruptRequested = true;
  }

  /** Drops a request that arrived after the run it was meant for had already stopped. */
  public void clearInterrupt() {
    userInterrupt = false;
    unit.interruptRequested = false;
  }

  // ---------------------------------------------------------------- guest threads

  /**
   * An interrupt asked for by {@link #requestInterrupt} (another host thread), as opposed to a
   * thread switch the kernel asked for: both stop the run loop through {@link
   * UnitContext#interruptRequested}, so that the loop and translated code test one field.
   */
  volatile boolean userInterrupt;

  /** Set by the kernel (on the emulating thread): the running guest thread gives up the hart. */
  boolean switchRequested;

  /** The guest's threads, once it has more than one; null costs {@link #run} one test per call. */
  private Scheduler scheduler;

  /** Instructions left in the running thread's quantum. */
  private long quantumLeft;

  /**
   * Makes this hart time-share guest threads (the kernel calls it when the guest creates its second
   * thread): from now on {@link #run} switches threads every quantum and whenever the kernel {@link
   * #requestSwitch asks}.
   */
  public void setScheduler(Scheduler s) {
    this.scheduler = s;
    this.quantumLeft = s == null ? 0 : s.quantum();
  }

  public Scheduler scheduler() {
    return scheduler;
  }

  /** The objects mapped in this hart's address space (the process's link map); null if unknown. */
  private org.dise.runtime.elf.LinkMap linkMap;

  /**
   * Tells the hart which ELF objects its address space holds, so that a profile sink can unwind the
   * guest's stack with their call frame information (spec/profiles.md, "Calling context").
   */
  public void setLinkMap(org.dise.runtime.elf.LinkMap linkMap) {
    this.linkMap = linkMap;
  }

  /** The objects mapped in this hart's address space, or null when nobody said. */
  @Override
  public org.dise.runtime.elf.LinkMap linkMap() {
    return linkMap;
  }

  /**
   * Asks {@link #run} to switch threads once the system call being handled returns (the thread
   * blocked, yielded or ended). Only the kernel, on the emulating thread, calls this.
   */
  public void requestSwitch() {
    switchRequested = true;
    unit.interruptRequested = true;
  }

  /**
   * The guest thread on the hart (its Linux thread id; the process id until the kernel says
   * otherwise): what {@code T.TID} passes to a sink.
   */
  private int threadId;

  public int threadId() {
    return threadId;
  }

  /**
   * The kernel put thread {@code tid} on the hart: a decode stage is told of a change (its sinks
   * keep per-thread state, such as calling-context stacks).
   */
  public void setThreadId(int tid) {
    int from = threadId;
    threadId = tid;
    if (from != tid && decodeStage != null) {
      decodeStage.threadSwitched(this, from, tid);
    }
  }

  /**
   * The kernel runs a blocked system call again from its ecall once it may go on: that ecall
   * retired when the call first ran, so this execution is taken back off the count (a call that
   * blocks counts one instruction, as it would had it not blocked).
   */
  public void unretireEcall() {
    instret--;
  }

  /** The current {@link #run} call's start, budget, and what other harts ran on this core in it. */
  private long runStart;

  private long runMax;
  private long coreCharged;

  /**
   * Other processes ran {@code n} instructions on this core while this hart's {@link #run} call
   * gave it up (the scheduler ran them): they count against that call's budget, so that one
   * instruction limit bounds a whole process tree.
   */
  public void chargeCore(long n) {
    coreCharged += n;
  }

  /** What is left of the current {@link #run} call's budget, the other processes' share taken. */
  public long budgetLeft() {
    return runMax - (instret - runStart) - coreCharged;
  }

  /**
   * {@link #run} with guest threads: runs the current thread until its quantum ends or it gives up
   * the hart, then lets the scheduler pick the next. Switches happen only between whole
   * instructions counted exactly (a quantum is a number of retired instructions, and translated
   * code runs only blocks that fit in what is left of it), so where they fall depends on the
   * program alone, never on the host, the slicing of the caller or what was translated.
   */
  private StopReason runThreads(long maxSteps) {
    final long start = instret;
    runStart = start;
    runMax = maxSteps;
    coreCharged = 0;
    while (true) {
      if (switchRequested) {
        switchRequested = false;
        unit.interruptRequested = userInterrupt;
        StopReason r = scheduler.reschedule(this, false);
        quantumLeft = scheduler.quantum();
        if (r != null) {
          switchRequested = r != StopReason.EXITED; // no thread to run: pick again next time
          return r;
        }
      }
      long done = instret - start + coreCharged;
      if (done >= maxSteps) {
        return StopReason.STEP_LIMIT;
      }
      if (quantumLeft <= 0) {
        StopReason r = scheduler.reschedule(this, true);
        quantumLeft = scheduler.quantum();
        if (r != null) {
          switchRequested = r != StopReason.EXITED;
          return r;
        }
      }
      long before = instret;
      StopReason r = interpreter.runHart(Math.min(maxSteps - done, quantumLeft));
      quantumLeft -= instret - before;
      if (r != StopReason.STEP_LIMIT) {
        return r;
      }
    }
  }

  /**
   * Installs (or, with null, removes) the decode-stage hook. The decode cache is emptied so that
   * every instruction is decoded again and offered to {@link DecodeStage#attach}.
   */
  public void setDecodeStage(DecodeStage stage) {
    this.decodeStage = stage;
    this.vectorBit = stage == null ? 0 : stage.vectorBit();
    flushDecodeCache();
  }

  /**
   * The decode stage's flag vector as a one-bit mask ({@link DecodeStage#vectorBit}), kept here so
   * that the dispatcher and translated code read a field at every unit entry and after every call
   * into the stage, instead of asking it. The stage sets it whenever the vector changes.
   */
  long vectorBit;

  /**
   * Called by the decode stage whenever its flag vector changes ({@link DecodeStage#vectorBit}).
   */
  public void setVectorBit(long bit) {
    this.vectorBit = bit;
  }

  /**
   * Installs (or, with null, removes) the block observer. Translations made so far lack the
   * observer's calls, so the block cache is emptied; translations made later carry them only while
   * an observer is installed, so code runs without them when there is none.
   */
  public void setBlockObserver(BlockObserver o) {
    this.observer = o;
    this.observedPending = 0;
    if (compiler != null) {
      compiler.setObserved(o != null);
    }
    flushDecodeCache();
  }

  public BlockObserver blockObserver() {
    return observer;
  }

  /**
   * Installs (or, with null, removes) the retire observer. With one, everything runs in the
   * interpreter (translated code does not report instructions): the block compiler is dropped for
   * good, and the decode cache is emptied so that no translation made before is entered again.
   */
  public void setRetireObserver(RetireObserver o) {
    this.retireObserver = o;
    if (o != null) {
      this.compiler = null;
      this.joinAt = 0;
      this.translateThreshold = 0;
      this.translateFrom = 0;
    }
    flushDecodeCache();
  }

  public RetireObserver retireObserver() {
    return retireObserver;
  }

  /**
   * Reports {@code count} application instructions ending at {@code endPc} to the observer (called
   * by the interpreter and by translated code): a branch or jump ({@code transfer}) ends a
   * footprint event weighted by every instruction since the previous one, so the events do not
   * depend on how execution was split into blocks and parts of blocks.
   */
  public void observe(long endPc, int count, boolean transfer) {
    observedPending += count;
    if (transfer) {
      observer.block(endPc, (int) Math.min(Integer.MAX_VALUE, observedPending));
      observedPending = 0;
    }
  }

  /** The block compiler, or null when everything is interpreted. */
  public BlockCompiler blockCompiler() {
    return compiler;
  }

  public DecodeStage decodeStage() {
    return decodeStage;
  }

  /**
   * Executes exactly one instruction (for the decode-stage hook: the original instruction or one of
   * a replacement sequence), with {@code d.pc} as its address; returns the next pc. The instruction
   * counts in {@link #instret()}. If it exits the guest, {@link #halted()} says so; if it faults,
   * the fault is recorded and {@link NestedFault} unwinds to {@link #run}.
   */
  public long executeOne(DecodedInsn d) {
    return interpreter.executeOne(d);
  }

  /** What translated code sees of this hart. */
  UnitContext unitContext() {
    return unit;
  }

  /** Unwinds a fault raised inside {@link #executeOne} to the enclosing {@link #run}. */
  public static final class NestedFault extends RuntimeException {
    NestedFault() {
      super(null, null, false, false);
    }
  }

  /** Translates blocks that run {@code threshold} times to Java (null or 0 to interpret only). */
  public void setBlockCompiler(BlockCompiler compiler, int threshold) {
    setBlockCompiler(compiler, threshold, 0);
  }

  /**
   * As {@link #setBlockCompiler(BlockCompiler, int)}, but until the process has retired {@code
   * warmup} instructions only a block that runs {@link #YOUNG_FACTOR} times the threshold is
   * translated; then counting starts afresh at the threshold's own value.
   */
  public void setBlockCompiler(BlockCompiler compiler, int threshold, long warmup) {
    this.compiler = threshold > 0 ? compiler : null;
    if (this.compiler != null) {
      unit.maxCallDepth = compiler.callDepth();
    }
    this.joinAt = this.compiler == null ? 0 : compiler.joinAt();
    cache.unitsChanged(); // the link table is filled only without joins (Interpreter)
    this.agedThreshold = threshold;
    this.baseThreshold = threshold;
    boolean young = this.compiler != null && warmup > instret;
    this.translateThreshold =
        young ? (int) Math.min(Integer.MAX_VALUE, (long) threshold * YOUNG_FACTOR) : threshold;
    this.translateFrom = young ? warmup : 0;
  }

  /**
   * Ends the warm-up (the interpreter calls this once the process has retired {@link
   * #translateFrom} instructions): the threshold falls to its own value and every block not
   * translated yet counts from zero, so that the warm code crosses the threshold block by block as
   * in a run without a warm-up. Queuing every block already past the threshold at once formed
   * regions from one large connected set cut every {@code MAX_UNIT} blocks, which split hot loops
   * across units (chess 3 took 84% longer after a 100K warm-up, docs/benchmarks.md).
   */
  void endWarmup() {
    if (compiler.hasReady()) {
      // Blocks queued at the young threshold, before their counts go.
      compiler.installReady(this, instret);
    }
    translateFrom = 0;
    translateThreshold = agedThreshold;
    cache.forEachBlock(
        b -> {
          if (b.code == null) {
            b.count = 0;
          }
        });
  }

  /**
   * Makes the threshold that applies once the warm-up is over {@code factor} times the threshold as
   * set ({@link BlockCompiler} raises it with the bytecode translated so far). A block already past
   * the old threshold was queued then; one below it now needs the new one.
   */
  void scaleThreshold(int factor) {
    if (compiler == null) {
      return;
    }
    agedThreshold = (int) Math.min(Integer.MAX_VALUE, (long) baseThreshold * factor);
    if (translateFrom == 0) {
      translateThreshold = agedThreshold;
    }
  }

  /** Makes {@link #run} stop before executing the instruction at {@code addr} (-1: none). */
  public void setBreakpoint(long addr) {
    breakpoint = addr;
  }

  // ---------------------------------------------------------------- decode cache

  /** The decoded instruction at {@code addr}, decoding it on first use. */
  public DecodedInsn decodedAt(long addr) {
    return cache.decodedAt(addr);
  }

  /** The block starting at {@code pc}, built on first use. */
  Block blockAt(long pc) {
    return cache.blockAt(pc);
  }

  /** The block the cache holds at {@code pc}, or null (never builds one). */
  Block cachedBlock(long pc) {
    return cache.cachedBlock(pc);
  }

  /** Runs of a block before it is translated (0: the interpreter runs everything). */
  int translateThreshold() {
    return translateThreshold;
  }

  /** True while {@code b} is the block the cache holds for its address. */
  boolean isCurrent(Block b) {
    return cache.isCurrent(b);
  }

  /** A unit was installed: the run loop's link table no longer holds the blocks' translations. */
  void unitsChanged() {
    cache.unitsChanged();
  }

  /** fence.i: forget every decoded instruction. */
  public void flushDecodeCache() {
    cache.flush();
  }

  /** Every cached page's decoded instructions (for the DISE engine to attach its data). */
  public void forEachDecoded(java.util.function.Consumer<DecodedInsn> action) {
    cache.forEachDecoded(action);
  }

  // ---------------------------------------------------------------- the interpreter

  /**
   * The value of {@link #instret()} at which the kernel wants the hart back between two
   * instructions (a timer's expiry), or {@link Long#MAX_VALUE}: {@link #run} stops its inner loop
   * there, exactly, in interpreted and translated code alike (the same budget that ends a step
   * limit), and calls {@link SyscallHandler#event}.
   */
  long eventAt = Long.MAX_VALUE;

  /** Asks for {@link SyscallHandler#event} when {@link #instret()} reaches {@code at}. */
  public void setEventAt(long at) {
    eventAt = at;
  }

  public long eventAt() {
    return eventAt;
  }

  /** The address a memory fault touched (si_addr); the pc for other faults. */
  long faultAddress;

  public long faultAddress() {
    return faultAddress;
  }

  /** Forgets the last fault (the kernel delivered it to a guest handler). */
  public void clearFault() {
    fault = null;
  }

  /**
   * Executes up to {@code maxSteps} instructions; returns why it stopped. State is kept, so a later
   * call continues where this one ended. A timer's expiry ({@link #setEventAt}) and a fault are
   * offered to the kernel, which may deliver a signal to a guest handler and let the run go on.
   */
  public StopReason run(long maxSteps) {
    return scheduler == null ? interpreter.runHart(maxSteps) : runThreads(maxSteps);
  }

  /**
   * A synchronous exception other than a memory fault (ebreak, misaligned atomic, bad CSR), or a
   * system call the kernel will not let run on: thrown from {@link SyscallHandler#ecall}, it stops
   * the guest with a fault at the ecall, which does not retire.
   */
  public static final class TrapException extends RuntimeException {
    final int signal;

    public TrapException(String why, int signal) {
      super(why, null, false, false);
      this.signal = signal;
    }
  }
}

package org.dise.runtime.cpu;

import static org.dise.runtime.isa.Opcodes.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dise.runtime.isa.Csr;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Decoder;
import org.dise.runtime.isa.IllegalInstructionException;
import org.dise.runtime.isa.Op;
import org.dise.runtime.mem.Memory;
import org.dise.runtime.mem.MemoryFault;

/**
 * One RV64IMAFDC hart with Zicsr and Zifencei: registers, the decode cache, and the interpreter.
 *
 * <p>Instructions are fetched through a cache of pre-decoded instructions with one array per code
 * page; a write to a cached page (self-modifying code) or {@code fence.i} empties the page's
 * entries so they are decoded again.
 */
public final class Cpu {
  /** Index of DISE-private register {@code $dr0} in {@link #x} (Section 3.1). */
  public static final int DISE_REG_BASE = 33;

  /** How many DISE-private registers replacement code may name ({@code $dr0..$dr7}). */
  public static final int DISE_REGS = 8;

  /**
   * Integer registers; index 32 absorbs writes to x0 (see {@link DecodedInsn#X0_SINK}); the
   * DISE-private registers follow, so inserted instructions address them like any register.
   */
  public final long[] x = new long[DISE_REG_BASE + DISE_REGS];

  /** Floating-point registers as raw 64-bit patterns (singles NaN-boxed). */
  public final long[] f = new long[32];

  public final Fpu fpu = new Fpu();
  public long pc;

  private final Memory mem;
  private SyscallHandler syscalls;

  private final DecodedInsn[][] codePages = new DecodedInsn[(int) (Memory.LIMIT >>> 12)][];
  private final List<Integer> cachedPages = new ArrayList<>();

  /** Blocks by start address, per page (parallel to codePages). */
  private final Block[][] blockPages = new Block[(int) (Memory.LIMIT >>> 12)][];

  private static final int MAX_BLOCK = 64;

  private long instret;
  private long reservation = -1;
  private boolean halted;
  private int exitCode;
  private GuestFault fault;
  private volatile boolean interruptRequested;
  private long breakpoint = -1;
  private long decodedCount;
  private BlockCompiler compiler;
  private DecodeStage decodeStage;

  /** Sees every executed application block (the phase tracker); null costs nothing. */
  private BlockObserver observer;

  /** Sees every committed instruction (a timing model); null costs nothing (see setter). */
  private RetireObserver retireObserver;

  /** Application instructions run since the last transfer reported to {@link #observer}. */
  private long observedPending;

  /** A block to run instead of looking one up (executeOne). */
  private Block forced;

  private int translateThreshold;
  private long translatedInstructions;
  private long unitEntries;

  /** Set by translated code: the index in its block of the instruction that threw. */
  public int faultIndex;

  /** Set by translated code: instructions retired in the last unit run. */
  public long unitSteps;

  /** Set by translated code: instructions run before a tagged one the decode stage must take. */
  public int partSteps;

  /** Set by {@link #runTagged}: the instructions the decode stage ran (inserted ones included). */
  public long taggedSteps;

  private long interpretedBlocks;

  /** Set by translated code: the instruction that threw. */
  public DecodedInsn faultInsn;

  public Cpu(Memory mem, SyscallHandler syscalls) {
    this.mem = mem;
    this.syscalls = syscalls;
    mem.setCodeWriteListener(this::invalidatePage);
  }

  public Memory memory() {
    return mem;
  }

  public void setSyscallHandler(SyscallHandler handler) {
    this.syscalls = handler;
  }

  /** Instructions retired so far. */
  public long instret() {
    return instret;
  }

  /** Instructions that ran in translated (compiled) blocks; a fault's block counts whole. */
  public long translatedInstructions() {
    return translatedInstructions;
  }

  /** Times the interpreter entered translated code (instructions per entry: the locality). */
  public long unitEntries() {
    return unitEntries;
  }

  /** Number of static instructions decoded into the cache (re-decodes included). */
  public long decodedCount() {
    return decodedCount;
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
    return interruptRequested;
  }

  /** Asks a running {@link #run} to return soon with {@link StopReason#INTERRUPTED}. */
  public void requestInterrupt() {
    userInterrupt = true;
    interruptRequested = true;
  }

  /** Drops a request that arrived after the run it was meant for had already stopped. */
  public void clearInterrupt() {
    userInterrupt = false;
    interruptRequested = false;
  }

  // ---------------------------------------------------------------- guest threads

  /**
   * An interrupt asked for by {@link #requestInterrupt} (another host thread), as opposed to a
   * thread switch the kernel asked for: both stop the run loop through {@link #interruptRequested},
   * so that the loop and translated code test one field.
   */
  private volatile boolean userInterrupt;

  /** Set by the kernel (on the emulating thread): the running guest thread gives up the hart. */
  private boolean switchRequested;

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
  public org.dise.runtime.elf.LinkMap linkMap() {
    return linkMap;
  }

  /**
   * Asks {@link #run} to switch threads once the system call being handled returns (the thread
   * blocked, yielded or ended). Only the kernel, on the emulating thread, calls this.
   */
  public void requestSwitch() {
    switchRequested = true;
    interruptRequested = true;
  }

  /** Saves the running thread's registers, pc and FP state into {@code c}. */
  public void saveContext(HartContext c) {
    System.arraycopy(x, 0, c.x, 0, 32);
    System.arraycopy(f, 0, c.f, 0, 32);
    c.fflags = fpu.fflags;
    c.frm = fpu.frm;
    c.pc = pc;
  }

  /**
   * Loads a thread's registers, pc and FP state. The LR/SC reservation is dropped, as a context
   * switch does on hardware, so that a thread preempted between lr and sc sees its sc fail.
   */
  public void loadContext(HartContext c) {
    System.arraycopy(c.x, 0, x, 0, 32);
    System.arraycopy(c.f, 0, f, 0, 32);
    fpu.fflags = c.fflags;
    fpu.frm = c.frm;
    pc = c.pc;
    reservation = -1;
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
    while (true) {
      if (switchRequested) {
        switchRequested = false;
        interruptRequested = userInterrupt;
        StopReason r = scheduler.reschedule(this, false);
        quantumLeft = scheduler.quantum();
        if (r != null) {
          switchRequested = r != StopReason.EXITED; // no thread to run: pick again next time
          return r;
        }
      }
      long done = instret - start;
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
      StopReason r = runHart(Math.min(maxSteps - done, quantumLeft));
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
      this.translateThreshold = 0;
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
    // Control transfers are what profiling productions replace most (calls, branches): they
    // cannot fault or exit, so they skip the interpreter's set-up.
    long next;
    if (retireObserver != null && !halted) {
      retireObserver.retire(d, this);
      return executeOneObserved(d);
    }
    switch (d.opcode) {
      case JAL -> {
        x[d.rd] = d.npc;
        next = Semantics.jal(d.pc, d.imm);
      }
      case JALR -> {
        next = Semantics.jalr(x[d.rs1], d.imm);
        x[d.rd] = d.npc;
      }
      case BEQ -> next = Semantics.beq(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      case BNE -> next = Semantics.bne(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      case BLT -> next = Semantics.blt(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      case BGE -> next = Semantics.bge(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      case BLTU -> next = Semantics.bltu(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      case BGEU -> next = Semantics.bgeu(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      default -> next = -1;
    }
    if (next != -1 && !halted) {
      instret++;
      pc = next;
      return next;
    }
    return executeForced(d);
  }

  /** executeOne under a retire observer: the interpreter (which reports) must not report again. */
  private long executeOneObserved(DecodedInsn d) {
    RetireObserver r = retireObserver;
    retireObserver = null;
    try {
      return executeOne(d);
    } finally {
      retireObserver = r;
    }
  }

  private long executeForced(DecodedInsn d) {
    forced = new Block(new DecodedInsn[] {d});
    pc = d.pc;
    // What the decode stage runs (inserted instructions, T.INSN) is not an application block:
    // the dispatcher reports the matched instruction itself.
    BlockObserver o = observer;
    observer = null;
    StopReason r;
    try {
      r = runHart(1);
    } finally {
      observer = o;
    }
    forced = null;
    if (r == StopReason.FAULT) {
      throw new NestedFault();
    }
    return pc;
  }

  /**
   * Runs a tagged instruction through the decode stage, for translated code that reached it with
   * {@code retired} instructions of its unit run so far (not yet in {@link #instret()}): the stage
   * and its sinks see the exact count, as in the interpreter. Returns the next pc and leaves the
   * instructions the stage ran in {@link #taggedSteps}, for the unit to count; if it faults, the
   * instructions that retired before the fault stay counted, as in the interpreter.
   */
  public long runTagged(DecodedInsn d, long retired) {
    taggedCalls++;
    instret += retired;
    long before = instret;
    pc = d.pc;
    try {
      long next = decodeStage.execute(d, this);
      taggedSteps = instret - before;
      instret -= taggedSteps;
      return next;
    } finally {
      instret -= retired;
    }
  }

  /**
   * Runs the prologue of a tagged instruction that the decode stage splits ({@link
   * DecodeStage#splitsOriginal}), for translated code that reached it with {@code retired}
   * instructions of its unit run so far: the stage and its sinks see the exact count and pc, as in
   * {@link #runTagged}; the caller then runs the instruction itself.
   */
  public void runBefore(DecodedInsn d, long retired) {
    prologues++;
    instret += retired;
    pc = d.pc;
    try {
      decodeStage.before(d, this);
    } finally {
      instret -= retired;
    }
  }

  private long prologues;

  private long emittedPrologues;

  /**
   * Before a prologue emitted inline ({@link PrologueEmitter}) by translated code that reached its
   * instruction at {@code pc} with {@code retired} instructions of its unit run so far: the stage's
   * code and its sinks see the exact count and pc, as in {@link #runBefore}.
   */
  public void enterPrologue(long retired, long pc) {
    emittedPrologues++;
    instret += retired;
    this.pc = pc;
  }

  /** After a prologue emitted inline: the unit counts its own instructions again. */
  public void leavePrologue(long retired) {
    instret -= retired;
  }

  /** How many times translated code ran a prologue emitted inline ({@link PrologueEmitter}). */
  public long emittedPrologueRuns() {
    return emittedPrologues;
  }

  private long taggedCalls;

  private long emittedReplacements;

  /**
   * Before a whole replacement emitted inline ({@link ReplacementEmitter}) by translated code that
   * reached its instruction at {@code pc} with {@code retired} instructions of its unit run so far,
   * as {@link #enterPrologue}; {@link #resumeReplacement} after its {@code T.INSN}, {@link
   * #leavePrologue} before and after that.
   */
  public void enterReplacement(long retired, long pc) {
    emittedReplacements++;
    instret += retired;
    this.pc = pc;
  }

  /** After the {@code T.INSN} of a replacement emitted inline: the code after it sees the count. */
  public void resumeReplacement(long retired, long pc) {
    instret += retired;
    this.pc = pc;
  }

  /**
   * An inserted instruction of a replacement emitted inline retired (the unit counts it too, and
   * takes it back with the rest when it leaves the replacement).
   */
  public void retireInserted() {
    instret++;
  }

  /**
   * How many times translated code ran a replacement emitted inline ({@link ReplacementEmitter}).
   */
  public long emittedReplacementRuns() {
    return emittedReplacements;
  }

  /**
   * How many times translated code called the decode stage for a tagged one ({@link #runTagged}).
   */
  public long taggedCalls() {
    return taggedCalls;
  }

  /** How many times translated code ran a decode stage prologue ({@link #runBefore}). */
  public long prologueCalls() {
    return prologues;
  }

  /** Unwinds a fault raised inside {@link #executeOne} to the enclosing {@link #run}. */
  public static final class NestedFault extends RuntimeException {
    NestedFault() {
      super(null, null, false, false);
    }
  }

  /** Translates blocks that run {@code threshold} times to Java (null or 0 to interpret only). */
  public void setBlockCompiler(BlockCompiler compiler, int threshold) {
    this.compiler = threshold > 0 ? compiler : null;
    this.translateThreshold = threshold;
  }

  /** Makes {@link #run} stop before executing the instruction at {@code addr} (-1: none). */
  public void setBreakpoint(long addr) {
    breakpoint = addr;
  }

  // ---------------------------------------------------------------- decode cache

  /** The decoded instruction at {@code addr}, decoding it on first use. */
  public DecodedInsn decodedAt(long addr) {
    DecodedInsn[] page = codePage(addr);
    DecodedInsn d = page[(int) (addr & Memory.PAGE_MASK) >>> 1];
    return d != null ? d : decodeInto(page, addr);
  }

  private DecodedInsn[] codePage(long addr) {
    if (addr < 0 || addr >= Memory.LIMIT) {
      throw new MemoryFault(addr, MemoryFault.Access.EXECUTE, false);
    }
    int p = (int) (addr >>> Memory.PAGE_BITS);
    DecodedInsn[] page = codePages[p];
    if (page == null) {
      page = new DecodedInsn[Memory.PAGE_SIZE / 2];
      codePages[p] = page;
      cachedPages.add(p);
    }
    return page;
  }

  private DecodedInsn decodeInto(DecodedInsn[] page, long addr) {
    if ((addr & 1) != 0) {
      throw new MemoryFault(addr, MemoryFault.Access.EXECUTE, true);
    }
    int lo = mem.fetch16(addr);
    int raw = lo;
    if (Decoder.isLong(lo)) {
      raw = lo | (mem.fetch16(addr + 2) << 16);
      mem.markCode(addr + 2);
    }
    mem.markCode(addr);
    DecodedInsn d = Decoder.decode(addr, raw);
    if (decodeStage != null) {
      d.dise = decodeStage.attach(d);
    }
    page[(int) (addr & Memory.PAGE_MASK) >>> 1] = d;
    decodedCount++;
    return d;
  }

  /** The block starting at {@code pc}, built on first use. */
  Block blockAt(long pc) {
    if (pc >= 0 && pc < Memory.LIMIT) {
      Block[] bp = blockPages[(int) (pc >>> Memory.PAGE_BITS)];
      if (bp != null) {
        Block b = bp[(int) (pc & Memory.PAGE_MASK) >>> 1];
        if (b != null) {
          return b;
        }
      }
    }
    return buildBlock(pc);
  }

  private Block buildBlock(long pc) {
    DecodedInsn first = decodedAt(pc); // faults here belong to the guest
    List<DecodedInsn> list = new ArrayList<>();
    list.add(first);
    long pageEnd = (pc & ~Memory.PAGE_MASK) + Memory.PAGE_SIZE;
    DecodedInsn last = first;
    // Tagged instructions stay inside blocks: they take the hook only while the flag vector
    // lets one of their productions match (see Block.tagMask).
    while (!endsBlock(last) && last.npc < pageEnd && list.size() < MAX_BLOCK) {
      DecodedInsn next;
      try {
        next = decodedAt(last.npc);
      } catch (MemoryFault | IllegalInstructionException e) {
        break; // the fault belongs to whoever reaches that address
      }
      last = next;
      list.add(last);
    }
    Block b = new Block(list.toArray(new DecodedInsn[0]));
    int tagged = 0;
    for (DecodedInsn d : b.insns) {
      if (d.dise != null) {
        b.tagMask |= d.diseMask;
        tagged++;
      }
    }
    if (tagged > 0) {
      b.tagAt = new int[tagged];
      b.tagMasks = new long[tagged];
      for (int k = 0, t = 0; k < b.insns.length; k++) {
        if (b.insns[k].dise != null) {
          b.tagAt[t] = k;
          b.tagMasks[t++] = b.insns[k].diseMask;
        }
      }
    }
    int p = (int) (pc >>> Memory.PAGE_BITS);
    if (blockPages[p] == null) {
      blockPages[p] = new Block[Memory.PAGE_SIZE / 2];
    }
    blockPages[p][(int) (pc & Memory.PAGE_MASK) >>> 1] = b;
    return b;
  }

  private static boolean endsBlock(DecodedInsn d) {
    return switch (d.exec) {
      case JAL, JALR, BEQ, BNE, BLT, BGE, BLTU, BGEU, ECALL, EBREAK, FENCE_I -> true;
      default -> false;
    };
  }

  /** The block the cache holds at {@code pc}, or null (never builds one). */
  Block cachedBlock(long pc) {
    if (pc < 0 || pc >= Memory.LIMIT) {
      return null;
    }
    Block[] bp = blockPages[(int) (pc >>> Memory.PAGE_BITS)];
    return bp == null ? null : bp[(int) (pc & Memory.PAGE_MASK) >>> 1];
  }

  /** Runs of a block before it is translated (0: the interpreter runs everything). */
  int translateThreshold() {
    return translateThreshold;
  }

  /** True while {@code b} is the block the cache holds for its address. */
  boolean isCurrent(Block b) {
    Block[] bp = blockPages[(int) (b.start >>> Memory.PAGE_BITS)];
    return bp != null && bp[(int) (b.start & Memory.PAGE_MASK) >>> 1] == b;
  }

  /** Forgets a page's blocks; translated units holding one of them are marked out of date. */
  private void dropBlocks(int p) {
    Block[] blocks = blockPages[p];
    if (blocks == null) {
      return;
    }
    for (Block b : blocks) {
      if (b != null && b.code != null) {
        BlockCompiler.retire(b);
      }
    }
    Arrays.fill(blocks, null);
  }

  /** Drops the decoded instructions of one page (its code was written or unmapped). */
  private void invalidatePage(int p) {
    DecodedInsn[] page = codePages[p];
    if (page != null) {
      Arrays.fill(page, null);
    }
    // Blocks of this page, and of the previous one (its last may extend into this page).
    dropBlocks(p);
    if (p > 0) {
      dropBlocks(p - 1);
    }
    // An instruction that starts on the previous page may extend into this one.
    if (p > 0 && codePages[p - 1] != null) {
      DecodedInsn[] prev = codePages[p - 1];
      prev[prev.length - 1] = null;
    }
  }

  /** fence.i: forget every decoded instruction. */
  public void flushDecodeCache() {
    for (int p : cachedPages) {
      Arrays.fill(codePages[p], null);
      dropBlocks(p);
      mem.unmarkCode(p);
    }
  }

  /** Every cached page's decoded instructions (for the DISE engine to attach its data). */
  public void forEachDecoded(java.util.function.Consumer<DecodedInsn> action) {
    for (int p : cachedPages) {
      for (DecodedInsn d : codePages[p]) {
        if (d != null) {
          action.accept(d);
        }
      }
    }
  }

  // ---------------------------------------------------------------- the interpreter

  /**
   * The value of {@link #instret()} at which the kernel wants the hart back between two
   * instructions (a timer's expiry), or {@link Long#MAX_VALUE}: {@link #run} stops its inner loop
   * there, exactly, in interpreted and translated code alike (the same budget that ends a step
   * limit), and calls {@link SyscallHandler#event}.
   */
  private long eventAt = Long.MAX_VALUE;

  /** Asks for {@link SyscallHandler#event} when {@link #instret()} reaches {@code at}. */
  public void setEventAt(long at) {
    eventAt = at;
  }

  public long eventAt() {
    return eventAt;
  }

  /** The address a memory fault touched (si_addr); the pc for other faults. */
  private long faultAddress;

  public long faultAddress() {
    return faultAddress;
  }

  /** Forgets the last fault (the kernel delivered it to a guest handler). */
  public void clearFault() {
    fault = null;
  }

  /** fcsr: the rounding mode and the accrued exception flags (for a signal frame). */
  public int fcsr() {
    return (fpu.frm << 5) | fpu.fflags;
  }

  public void setFcsr(int v) {
    fpu.fflags = v & 0x1f;
    fpu.frm = (v >>> 5) & 7;
  }

  /**
   * Executes up to {@code maxSteps} instructions; returns why it stopped. State is kept, so a later
   * call continues where this one ended. A timer's expiry ({@link #setEventAt}) and a fault are
   * offered to the kernel, which may deliver a signal to a guest handler and let the run go on.
   */
  public StopReason run(long maxSteps) {
    return scheduler == null ? runHart(maxSteps) : runThreads(maxSteps);
  }

  /** {@link #run} for the thread on the hart now, without switching threads. */
  private StopReason runHart(long maxSteps) {
    if (forced != null) {
      return runBlocks(maxSteps); // executeOne's instruction: its caller's run handles events
    }
    while (true) {
      long start = instret;
      long toEvent = eventAt - start;
      boolean capped = toEvent < maxSteps;
      StopReason r = runBlocks(capped ? Math.max(0, toEvent) : maxSteps);
      if (r == StopReason.FAULT && fault != null && syscalls.fault(this, fault)) {
        maxSteps -= instret - start;
      } else if (capped && r == StopReason.STEP_LIMIT && instret >= eventAt) {
        maxSteps -= instret - start;
        syscalls.event(this);
      } else {
        return r;
      }
      if (halted) {
        return StopReason.EXITED;
      }
      if (maxSteps <= 0) {
        return StopReason.STEP_LIMIT;
      }
    }
  }

  private StopReason runBlocks(long maxSteps) {
    if (halted) {
      return StopReason.EXITED;
    }
    final long[] x = this.x;
    final Memory mem = this.mem;
    final boolean outerGuestStores = mem.setGuestStores(true);
    long pc = this.pc;
    long steps = 0;
    DecodedInsn d = null;
    // Position inside the current block: i is the instruction executing, n how many will run.
    int i = 0;
    int n = 0;
    try {
      while (true) {
        if (steps >= maxSteps) {
          this.pc = pc;
          return StopReason.STEP_LIMIT;
        }
        // A request that arrived before this call counts too; it is consumed by the stop. The
        // single instruction of executeOne always runs (the decode stage is mid-instruction).
        if (interruptRequested && forced == null) {
          this.pc = pc;
          if (switchRequested) {
            return StopReason.STEP_LIMIT; // runThreads switches threads
          }
          interruptRequested = false;
          userInterrupt = false;
          return StopReason.INTERRUPTED;
        }
        Block b;
        // executeOne's single instruction: a fresh block each time, never to be translated.
        final boolean oneOff = forced != null;
        try {
          if (oneOff) {
            b = forced;
            forced = null;
          } else {
            b = blockAt(pc);
          }
        } catch (MemoryFault e) {
          this.pc = pc;
          faultAddress = e.address();
          return stopOnFault(pc, null, "instruction fetch: " + e.getMessage(), GuestFault.SIGSEGV);
        } catch (IllegalInstructionException e) {
          this.fault =
              new GuestFault(
                  pc,
                  e.raw(),
                  e.size(),
                  "illegal instruction: " + e.getMessage(),
                  GuestFault.SIGILL);
          this.pc = pc;
          return StopReason.FAULT;
        }
        DecodedInsn[] insns = b.insns;
        // Where this block's run must stop for the decode stage: its first instruction that a
        // production matches under the current flag vector.
        int stop = insns.length;
        if (b.tagMask != 0 && decodeStage != null) {
          long vector = vectorBit;
          if ((b.tagMask & vector) != 0) {
            stop = firstFiring(b, vector);
          }
        }
        // Translated code runs tagged instructions itself (it calls the decode stage), so a
        // block that starts with one enters it too, and control can stay in translated code.
        if (stop == 0 && !(b.code != null && breakpoint < 0 && steps + insns.length <= maxSteps)) {
          if (breakpoint == pc) {
            breakpoint = -1;
            this.pc = pc;
            return StopReason.BREAKPOINT;
          }
          // The decode stage runs this instruction (and its replacement) via executeOne.
          this.pc = pc;
          instret += steps;
          maxSteps -= steps;
          steps = 0;
          long before = instret;
          pc = decodeStage.execute(insns[0], this);
          maxSteps -= instret - before;
          if (observer != null) {
            observe(insns[0].pc, 1, insns.length == 1 && b.transferEnd);
          }
          if (halted) {
            this.pc = pc;
            return StopReason.EXITED;
          }
          continue;
        }
        n = stop;
        if (steps + n > maxSteps) {
          n = (int) (maxSteps - steps);
        }
        if (breakpoint - b.start >= 0 && breakpoint < b.end) {
          if (breakpoint == pc) {
            breakpoint = -1;
            this.pc = pc;
            return StopReason.BREAKPOINT;
          }
          n = Math.min(n, indexOf(insns, breakpoint));
        }
        try {
          CompiledBlocks code = b.code;
          // Translated code runs whole blocks; it stops itself before a tagged instruction.
          if (code != null && breakpoint < 0 && steps + insns.length <= maxSteps) {
            // Translated code runs this block and follows control through its unit. The decode
            // stage it may call reads the instruction count: bring it up to date first.
            unitEntries++;
            instret += steps;
            maxSteps -= steps;
            steps = 0;
            try {
              while (true) {
                pc = code.run(b.codeId, this, x, f, mem, maxSteps);
                translatedInstructions += unitSteps;
                if (halted) { // a replacement the decode stage ran inside the unit exited
                  steps += unitSteps;
                  this.pc = pc;
                  return StopReason.EXITED;
                }
                // Chaining: the unit's instructions are counted at once, so the next unit (and
                // the decode stage it may call) sees the exact count, as after a dispatch.
                instret += unitSteps;
                maxSteps -= unitSteps;
                // The next unit, looked up here rather than in a method of its own: C1 left
                // that method out of line and spilled the loop's registers around each call.
                if (interruptRequested || breakpoint >= 0 || (pc >>> 32) != 0) {
                  break;
                }
                Block[] bp = blockPages[(int) (pc >>> Memory.PAGE_BITS)];
                Block next = bp == null ? null : bp[(int) (pc & Memory.PAGE_MASK) >>> 1];
                if (next == null || next.code == null || next.insns.length > maxSteps) {
                  break;
                }
                b = next;
                code = next.code;
                unitEntries++;
                chainedEntries++;
              }
            } catch (Memory.CodeModified e) {
              steps += unitSteps + 1; // the store retired
              translatedInstructions += unitSteps + 1;
              pc = faultInsn.npc;
            } catch (RuntimeException e) {
              steps += unitSteps;
              translatedInstructions += unitSteps;
              d = faultInsn;
              i = 0;
              n = 0; // nothing more to take back in the handlers below
              throw e;
            }
            continue;
          }
          if (compiler != null && !oneOff) {
            if (++b.count == translateThreshold) {
              compiler.submit(b);
            }
            // Finished translations are installed between blocks; looking every 64 interpreted
            // blocks keeps a volatile read off the interpreter's path.
            if ((++interpretedBlocks & 63) == 0 && compiler.hasReady()) {
              compiler.installReady(this);
            }
          }
          steps += n;
          pc = insns[n - 1].npc; // where a block without a taken transfer continues
          final RetireObserver retiring = retireObserver;
          block:
          for (i = 0; i < n; i++) {
            d = insns[i];
            if (retiring != null) {
              retiring.retire(d, this);
            }
            switch (d.opcode) {
              case LUI -> x[d.rd] = Semantics.lui(d.pc, d.imm);
              case AUIPC -> x[d.rd] = Semantics.auipc(d.pc, d.imm);
              case JAL -> {
                x[d.rd] = d.npc;
                pc = Semantics.jal(d.pc, d.imm);
                break block;
              }
              case JALR -> {
                long t = Semantics.jalr(x[d.rs1], d.imm);
                x[d.rd] = d.npc;
                pc = t;
                break block;
              }
              case BEQ -> {
                pc = Semantics.beq(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case BNE -> {
                pc = Semantics.bne(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case BLT -> {
                pc = Semantics.blt(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case BGE -> {
                pc = Semantics.bge(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case BLTU -> {
                pc = Semantics.bltu(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case BGEU -> {
                pc = Semantics.bgeu(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case LB -> x[d.rd] = Semantics.lb(mem, x[d.rs1] + d.imm);
              case LH -> x[d.rd] = Semantics.lh(mem, x[d.rs1] + d.imm);
              case LW -> x[d.rd] = Semantics.lw(mem, x[d.rs1] + d.imm);
              case LD -> x[d.rd] = Semantics.ld(mem, x[d.rs1] + d.imm);
              case LBU -> x[d.rd] = Semantics.lbu(mem, x[d.rs1] + d.imm);
              case LHU -> x[d.rd] = Semantics.lhu(mem, x[d.rs1] + d.imm);
              case LWU -> x[d.rd] = Semantics.lwu(mem, x[d.rs1] + d.imm);
              case SB -> Semantics.sb(mem, x[d.rs1] + d.imm, x[d.rs2]);
              case SH -> Semantics.sh(mem, x[d.rs1] + d.imm, x[d.rs2]);
              case SW -> Semantics.sw(mem, x[d.rs1] + d.imm, x[d.rs2]);
              case SD -> Semantics.sd(mem, x[d.rs1] + d.imm, x[d.rs2]);
              case ADDI -> x[d.rd] = Semantics.addi(x[d.rs1], d.imm);
              case SLTI -> x[d.rd] = Semantics.slti(x[d.rs1], d.imm);
              case SLTIU -> x[d.rd] = Semantics.sltiu(x[d.rs1], d.imm);
              case XORI -> x[d.rd] = Semantics.xori(x[d.rs1], d.imm);
              case ORI -> x[d.rd] = Semantics.ori(x[d.rs1], d.imm);
              case ANDI -> x[d.rd] = Semantics.andi(x[d.rs1], d.imm);
              case SLLI -> x[d.rd] = Semantics.slli(x[d.rs1], d.imm);
              case SRLI -> x[d.rd] = Semantics.srli(x[d.rs1], d.imm);
              case SRAI -> x[d.rd] = Semantics.srai(x[d.rs1], d.imm);
              case ADDIW -> x[d.rd] = Semantics.addiw(x[d.rs1], d.imm);
              case SLLIW -> x[d.rd] = Semantics.slliw(x[d.rs1], d.imm);
              case SRLIW -> x[d.rd] = Semantics.srliw(x[d.rs1], d.imm);
              case SRAIW -> x[d.rd] = Semantics.sraiw(x[d.rs1], d.imm);
              case ADD -> x[d.rd] = Semantics.add(x[d.rs1], x[d.rs2]);
              case SUB -> x[d.rd] = Semantics.sub(x[d.rs1], x[d.rs2]);
              case SLL -> x[d.rd] = Semantics.sll(x[d.rs1], x[d.rs2]);
              case SLT -> x[d.rd] = Semantics.slt(x[d.rs1], x[d.rs2]);
              case SLTU -> x[d.rd] = Semantics.sltu(x[d.rs1], x[d.rs2]);
              case XOR -> x[d.rd] = Semantics.xor(x[d.rs1], x[d.rs2]);
              case SRL -> x[d.rd] = Semantics.srl(x[d.rs1], x[d.rs2]);
              case SRA -> x[d.rd] = Semantics.sra(x[d.rs1], x[d.rs2]);
              case OR -> x[d.rd] = Semantics.or(x[d.rs1], x[d.rs2]);
              case AND -> x[d.rd] = Semantics.and(x[d.rs1], x[d.rs2]);
              case ADDW -> x[d.rd] = Semantics.addw(x[d.rs1], x[d.rs2]);
              case SUBW -> x[d.rd] = Semantics.subw(x[d.rs1], x[d.rs2]);
              case SLLW -> x[d.rd] = Semantics.sllw(x[d.rs1], x[d.rs2]);
              case SRLW -> x[d.rd] = Semantics.srlw(x[d.rs1], x[d.rs2]);
              case SRAW -> x[d.rd] = Semantics.sraw(x[d.rs1], x[d.rs2]);
              case MUL -> x[d.rd] = Semantics.mul(x[d.rs1], x[d.rs2]);
              case MULW -> x[d.rd] = Semantics.mulw(x[d.rs1], x[d.rs2]);
              case FLD -> f[d.rd] = Semantics.fld(mem, x[d.rs1] + d.imm);
              case FSD -> Semantics.fsd(mem, x[d.rs1] + d.imm, f[d.rs2]);
              case FLW -> f[d.rd] = Semantics.flw(mem, x[d.rs1] + d.imm);
              case FSW -> Semantics.fsw(mem, x[d.rs1] + d.imm, f[d.rs2]);
              case ECALL -> {
                // The block ends here: count exactly what retired, for the kernel and the limit.
                // The kernel may move the pc (a signal delivered on the way out, sigreturn).
                this.pc = d.npc;
                instret += steps;
                maxSteps -= steps;
                steps = 0;
                syscalls.ecall(this);
                if (halted) {
                  pc = d.pc;
                  i = n;
                  this.pc = pc;
                  return StopReason.EXITED;
                }
                pc = this.pc;
                break block;
              }
              case EBREAK -> {
                throw new TrapException("breakpoint (ebreak)", GuestFault.SIGTRAP);
              }
              case FENCE, ON_TRIG_INST, OFF_TRIG_INST -> {}
              case FENCE_I -> {
                flushDecodeCache();
                pc = d.npc;
                break block;
              }
              case CSRRW, CSRRS, CSRRC, CSRRWI, CSRRSI, CSRRCI -> {
                execCsr(d, steps - (n - 1 - i));
              }
              default -> {
                switch (d.exec.extension()) {
                  case M -> execMulDiv(d);
                  case A -> execAtomic(d);
                  default -> execFp(d);
                }
              }
            }
          }
          if (observer != null) {
            observe(insns[n - 1].pc, n, n == insns.length && b.transferEnd);
          }
        } catch (Memory.CodeModified e) {
          // insns[i], a store, wrote to decoded code and retired; what followed it in this
          // block may be stale, so continue after it with freshly decoded instructions.
          steps -= n - i - 1;
          pc = d.npc;
        }
      }
    } catch (MemoryFault e) {
      // d (insns[i]) faulted and did not retire; the ones after it never ran.
      faultAddress = e.address();
      steps -= n - i;
      pc = d.pc;
      return stopOnFault(pc, d, e.getMessage(), GuestFault.SIGSEGV);
    } catch (IllegalInstructionException e) {
      steps -= n - i; // raised while executing insns[i] (a bad CSR or rounding mode)
      pc = d.pc;
      this.fault =
          new GuestFault(
              pc, e.raw(), e.size(), "illegal instruction: " + e.getMessage(), GuestFault.SIGILL);
      this.pc = pc;
      return StopReason.FAULT;
    } catch (NestedFault e) {
      return StopReason.FAULT; // recorded, with the pc, by the nested run
    } catch (TrapException e) {
      steps -= n - i;
      pc = d.pc;
      return stopOnFault(pc, d, e.getMessage(), e.signal);
    } finally {
      instret += steps;
      mem.setGuestStores(outerGuestStores);
    }
  }

  private long chainedEntries;

  /**
   * Unit entries that came straight from the previous unit's exit (chaining, in {@link #run}): a
   * unit that returned goes on into the translated block at its next pc without the dispatcher's
   * checks (they hold for translated code: it runs whole blocks, tagged instructions included,
   * within the budget), unless an interrupt or breakpoint is pending or the block is not translated
   * or does not fit the budget. The block cache holds only current blocks, so code written since is
   * never reached.
   */
  public long chainedEntries() {
    return chainedEntries;
  }

  /** The index of the first instruction of {@code b} the decode stage takes under a vector. */
  private static int firstFiring(Block b, long vectorBit) {
    long[] masks = b.tagMasks;
    for (int t = 0; t < masks.length; t++) {
      if ((masks[t] & vectorBit) != 0) {
        return b.tagAt[t];
      }
    }
    return b.insns.length;
  }

  private static int indexOf(DecodedInsn[] insns, long addr) {
    for (int k = 0; k < insns.length; k++) {
      if (insns[k].pc == addr) {
        return k;
      }
    }
    return insns.length;
  }

  private StopReason stopOnFault(long pc, DecodedInsn d, String why, int signal) {
    if (signal != GuestFault.SIGSEGV) {
      faultAddress = pc;
    }
    this.fault = new GuestFault(pc, d != null ? d.raw : 0, d != null ? d.size : 0, why, signal);
    this.pc = pc;
    return StopReason.FAULT;
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

  private static IllegalInstructionException illegal(DecodedInsn d, String why) {
    return new IllegalInstructionException(d.raw, d.size, why);
  }

  // ---------------------------------------------------------------- M

  private void execMulDiv(DecodedInsn d) {
    long a = x[d.rs1];
    long b = x[d.rs2];
    x[d.rd] =
        switch (d.exec) {
          case MUL -> Semantics.mul(a, b);
          case MULH -> Semantics.mulh(a, b);
          case MULHSU -> Semantics.mulhsu(a, b);
          case MULHU -> Semantics.mulhu(a, b);
          case DIV -> Semantics.div(a, b);
          case DIVU -> Semantics.divu(a, b);
          case REM -> Semantics.rem(a, b);
          case REMU -> Semantics.remu(a, b);
          case MULW -> Semantics.mulw(a, b);
          case DIVW -> Semantics.divw(a, b);
          case DIVUW -> Semantics.divuw(a, b);
          case REMW -> Semantics.remw(a, b);
          case REMUW -> Semantics.remuw(a, b);
          default -> throw illegal(d, "not an M instruction");
        };
  }

  // ---------------------------------------------------------------- A

  private void execAtomic(DecodedInsn d) {
    x[d.rd] = atomic(x[d.rs1], x[d.rs2], d.opcode);
  }

  private static final Op[] OPS = Op.values();

  /**
   * Executes the A instruction {@code opcode} (an {@link Op} ordinal) at {@code addr} with rs2's
   * value {@code src}; returns what rd receives. The interpreter and translated code call this.
   */
  public long atomic(long addr, long src, int opcode) {
    Op op = OPS[opcode];
    boolean word = SemanticsTable.of(op).width() == 4;
    if ((addr & (word ? 3 : 7)) != 0) {
      throw new TrapException(
          String.format("misaligned atomic access at address 0x%x", addr), GuestFault.SIGBUS);
    }
    switch (op) {
      case LR_W, LR_D -> {
        reservation = addr;
        return word ? mem.lw(addr) : mem.ld(addr);
      }
      case SC_W, SC_D -> {
        if (reservation != addr) {
          reservation = -1;
          return 1;
        }
        if (word) {
          mem.sw(addr, src);
        } else {
          mem.sd(addr, src);
        }
        reservation = -1;
        return 0;
      }
      default -> {}
    }
    long old = word ? mem.lw(addr) : mem.ld(addr);
    long v =
        switch (op) {
          case AMOSWAP_W -> Semantics.amoswap_w(old, src);
          case AMOADD_W -> Semantics.amoadd_w(old, src);
          case AMOXOR_W -> Semantics.amoxor_w(old, src);
          case AMOAND_W -> Semantics.amoand_w(old, src);
          case AMOOR_W -> Semantics.amoor_w(old, src);
          case AMOMIN_W -> Semantics.amomin_w(old, src);
          case AMOMAX_W -> Semantics.amomax_w(old, src);
          case AMOMINU_W -> Semantics.amominu_w(old, src);
          case AMOMAXU_W -> Semantics.amomaxu_w(old, src);
          case AMOSWAP_D -> Semantics.amoswap_d(old, src);
          case AMOADD_D -> Semantics.amoadd_d(old, src);
          case AMOXOR_D -> Semantics.amoxor_d(old, src);
          case AMOAND_D -> Semantics.amoand_d(old, src);
          case AMOOR_D -> Semantics.amoor_d(old, src);
          case AMOMIN_D -> Semantics.amomin_d(old, src);
          case AMOMAX_D -> Semantics.amomax_d(old, src);
          case AMOMINU_D -> Semantics.amominu_d(old, src);
          case AMOMAXU_D -> Semantics.amomaxu_d(old, src);
          default -> throw new IllegalStateException("not an atomic: " + op.mnemonic());
        };
    if (word) {
      mem.sw(addr, v);
    } else {
      mem.sd(addr, v);
    }
    return old;
  }

  // ---------------------------------------------------------------- Zicsr

  /** A CSR instruction: the CSRs, their numbers and access are {@link Csr}'s table. */
  private void execCsr(DecodedInsn d, long stepsInFlight) {
    int number = (int) d.imm;
    Csr csr =
        Csr.byNumber(number)
            .orElseThrow(() -> illegal(d, String.format("unsupported CSR 0x%03x", number)));
    boolean immediate = d.exec == Op.CSRRWI || d.exec == Op.CSRRSI || d.exec == Op.CSRRCI;
    long operand = immediate ? d.rs1 : x[d.rs1];
    boolean writes = d.exec == Op.CSRRW || d.exec == Op.CSRRWI || d.rs1 != 0;
    long old =
        switch (csr) {
          case FFLAGS -> fpu.fflags;
          case FRM -> fpu.frm;
          case FCSR -> (fpu.frm << 5) | fpu.fflags;
          // stepsInFlight counts this instruction, which has not retired yet.
          case CYCLE, INSTRET -> instret + stepsInFlight - 1;
          case TIME -> System.nanoTime() / 100; // a 10 MHz timebase
        };
    if (writes) {
      if (!csr.writable()) {
        throw illegal(d, String.format("CSR 0x%03x is read-only", number));
      }
      long v =
          switch (d.exec) {
            case CSRRW, CSRRWI -> operand;
            case CSRRS, CSRRSI -> old | operand;
            default -> old & ~operand;
          };
      switch (csr) {
        case FFLAGS -> fpu.fflags = (int) (v & 0x1f);
        case FRM -> fpu.frm = (int) (v & 7);
        default -> { // FCSR
          fpu.fflags = (int) (v & 0x1f);
          fpu.frm = (int) ((v >>> 5) & 7);
        }
      }
    }
    x[d.rd] = old;
  }

  // ---------------------------------------------------------------- F and D

  /** The dynamic rounding mode for translated code; frm values 5-7 make the instruction illegal. */
  public int dynamicRm(int raw) {
    int rm = fpu.frm;
    if (rm > 4) {
      throw new IllegalInstructionException(raw, 4, "invalid rounding mode " + rm);
    }
    return rm;
  }

  private int rm(DecodedInsn d) {
    int rm = d.rm == 7 ? fpu.frm : d.rm;
    if (rm > 4) {
      throw illegal(d, "invalid rounding mode " + rm);
    }
    return rm;
  }

  private void execFp(DecodedInsn d) {
    final Fpu u = fpu;
    final long[] f = this.f;
    switch (d.exec) {
      case FMADD_S -> f[d.rd] = Semantics.fmadd_s(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FMSUB_S -> f[d.rd] = Semantics.fmsub_s(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FNMSUB_S -> f[d.rd] = Semantics.fnmsub_s(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FNMADD_S -> f[d.rd] = Semantics.fnmadd_s(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FADD_S -> f[d.rd] = Semantics.fadd_s(u, f[d.rs1], f[d.rs2], rm(d));
      case FSUB_S -> f[d.rd] = Semantics.fsub_s(u, f[d.rs1], f[d.rs2], rm(d));
      case FMUL_S -> f[d.rd] = Semantics.fmul_s(u, f[d.rs1], f[d.rs2], rm(d));
      case FDIV_S -> f[d.rd] = Semantics.fdiv_s(u, f[d.rs1], f[d.rs2], rm(d));
      case FSQRT_S -> f[d.rd] = Semantics.fsqrt_s(u, f[d.rs1], rm(d));
      case FSGNJ_S -> f[d.rd] = Semantics.fsgnj_s(f[d.rs1], f[d.rs2]);
      case FSGNJN_S -> f[d.rd] = Semantics.fsgnjn_s(f[d.rs1], f[d.rs2]);
      case FSGNJX_S -> f[d.rd] = Semantics.fsgnjx_s(f[d.rs1], f[d.rs2]);
      case FMIN_S -> f[d.rd] = Semantics.fmin_s(u, f[d.rs1], f[d.rs2]);
      case FMAX_S -> f[d.rd] = Semantics.fmax_s(u, f[d.rs1], f[d.rs2]);
      case FCVT_W_S -> x[d.rd] = Semantics.fcvt_w_s(u, f[d.rs1], rm(d));
      case FCVT_WU_S -> x[d.rd] = Semantics.fcvt_wu_s(u, f[d.rs1], rm(d));
      case FCVT_L_S -> x[d.rd] = Semantics.fcvt_l_s(u, f[d.rs1], rm(d));
      case FCVT_LU_S -> x[d.rd] = Semantics.fcvt_lu_s(u, f[d.rs1], rm(d));
      case FMV_X_W -> x[d.rd] = Semantics.fmv_x_w(f[d.rs1]);
      case FCLASS_S -> x[d.rd] = Semantics.fclass_s(f[d.rs1]);
      case FEQ_S -> x[d.rd] = Semantics.feq_s(u, f[d.rs1], f[d.rs2]);
      case FLT_S -> x[d.rd] = Semantics.flt_s(u, f[d.rs1], f[d.rs2]);
      case FLE_S -> x[d.rd] = Semantics.fle_s(u, f[d.rs1], f[d.rs2]);
      case FCVT_S_W -> f[d.rd] = Semantics.fcvt_s_w(u, x[d.rs1], rm(d));
      case FCVT_S_WU -> f[d.rd] = Semantics.fcvt_s_wu(u, x[d.rs1], rm(d));
      case FCVT_S_L -> f[d.rd] = Semantics.fcvt_s_l(u, x[d.rs1], rm(d));
      case FCVT_S_LU -> f[d.rd] = Semantics.fcvt_s_lu(u, x[d.rs1], rm(d));
      case FMV_W_X -> f[d.rd] = Semantics.fmv_w_x(x[d.rs1]);
      case FMADD_D -> f[d.rd] = Semantics.fmadd_d(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FMSUB_D -> f[d.rd] = Semantics.fmsub_d(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FNMSUB_D -> f[d.rd] = Semantics.fnmsub_d(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FNMADD_D -> f[d.rd] = Semantics.fnmadd_d(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FADD_D -> f[d.rd] = Semantics.fadd_d(u, f[d.rs1], f[d.rs2], rm(d));
      case FSUB_D -> f[d.rd] = Semantics.fsub_d(u, f[d.rs1], f[d.rs2], rm(d));
      case FMUL_D -> f[d.rd] = Semantics.fmul_d(u, f[d.rs1], f[d.rs2], rm(d));
      case FDIV_D -> f[d.rd] = Semantics.fdiv_d(u, f[d.rs1], f[d.rs2], rm(d));
      case FSQRT_D -> f[d.rd] = Semantics.fsqrt_d(u, f[d.rs1], rm(d));
      case FSGNJ_D -> f[d.rd] = Semantics.fsgnj_d(f[d.rs1], f[d.rs2]);
      case FSGNJN_D -> f[d.rd] = Semantics.fsgnjn_d(f[d.rs1], f[d.rs2]);
      case FSGNJX_D -> f[d.rd] = Semantics.fsgnjx_d(f[d.rs1], f[d.rs2]);
      case FMIN_D -> f[d.rd] = Semantics.fmin_d(u, f[d.rs1], f[d.rs2]);
      case FMAX_D -> f[d.rd] = Semantics.fmax_d(u, f[d.rs1], f[d.rs2]);
      case FCVT_S_D -> f[d.rd] = Semantics.fcvt_s_d(u, f[d.rs1], rm(d));
      case FCVT_D_S -> f[d.rd] = Semantics.fcvt_d_s(u, f[d.rs1], rm(d));
      case FEQ_D -> x[d.rd] = Semantics.feq_d(u, f[d.rs1], f[d.rs2]);
      case FLT_D -> x[d.rd] = Semantics.flt_d(u, f[d.rs1], f[d.rs2]);
      case FLE_D -> x[d.rd] = Semantics.fle_d(u, f[d.rs1], f[d.rs2]);
      case FCLASS_D -> x[d.rd] = Semantics.fclass_d(f[d.rs1]);
      case FCVT_W_D -> x[d.rd] = Semantics.fcvt_w_d(u, f[d.rs1], rm(d));
      case FCVT_WU_D -> x[d.rd] = Semantics.fcvt_wu_d(u, f[d.rs1], rm(d));
      case FCVT_L_D -> x[d.rd] = Semantics.fcvt_l_d(u, f[d.rs1], rm(d));
      case FCVT_LU_D -> x[d.rd] = Semantics.fcvt_lu_d(u, f[d.rs1], rm(d));
      case FCVT_D_W -> f[d.rd] = Semantics.fcvt_d_w(u, x[d.rs1], rm(d));
      case FCVT_D_WU -> f[d.rd] = Semantics.fcvt_d_wu(u, x[d.rs1], rm(d));
      case FCVT_D_L -> f[d.rd] = Semantics.fcvt_d_l(u, x[d.rs1], rm(d));
      case FCVT_D_LU -> f[d.rd] = Semantics.fcvt_d_lu(u, x[d.rs1], rm(d));
      case FMV_X_D -> x[d.rd] = Semantics.fmv_x_d(f[d.rs1]);
      case FMV_D_X -> f[d.rd] = Semantics.fmv_d_x(x[d.rs1]);
      default -> throw illegal(d, "not implemented: " + d.exec.mnemonic());
    }
  }
}

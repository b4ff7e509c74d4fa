package org.dise.runtime.cpu;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.dise.runtime.isa.Csr;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.SemanticsTable;

/**
 * Translates hot blocks for the JIT: {@link BytecodeTranslator} writes JVM bytecode with ASM, on
 * the emulating thread or, with {@link #translateThread}, on a translator thread beside it.
 * Guest-visible behaviour is the interpreter's either way.
 */
public final class BlockCompiler {
  /**
   * Most blocks in one generated class (its dispatch switch follows control among them); a unit
   * whose dispatch method passes {@link #UNIT_BYTES} is split further.
   */
  private static final int MAX_UNIT = 48;

  /**
   * The most bytes of a unit's dispatch method (system property {@code acf.unitBytes}, 500 to
   * HotSpot's 8,000-byte limit for compiled methods): a region whose method would reach it is cut.
   * C1 spends more per byte on a large method (its linear-scan allocator works over the whole
   * method, where every guest register the unit holds is a long-lived local): at 4,000 rather than
   * 8,000 it compiled SQLite's units in a third less time, and they ran no slower
   * (spec/emulator.md).
   */
  static final int UNIT_BYTES = EmulatorProperties.UNIT_BYTES.value();

  /**
   * Bytes of installed dispatch methods per step of the translation threshold (system property
   * {@code acf.footprintStep}; 0: the threshold stays as set): past each step the threshold rises
   * by its own value, so a program whose hot code is large (SQLite: 1.4 MB of bytecode at the
   * threshold as set) translates only its hotter blocks once it has translated that much, sparing
   * the translator and C1 code that runs too few times to repay them, while a program whose
   * translated code stays under one step (the examples, interp, chess: at most 0.2 MB) is never
   * affected.
   */
  static final int FOOTPRINT_STEP = EmulatorProperties.FOOTPRINT_STEP.value();

  /** Bytes of the dispatch methods installed so far. */
  private long footprint;

  /**
   * Retired instructions that earn one byte of dispatch method (system property {@code
   * acf.translateBudget}; 0: no budget): a run translates only as fast as it retires instructions,
   * so that a short run, whose hot code the translator and C1 would never repay, spends its time
   * interpreting instead, while a long run earns the credit early and translates as without a
   * budget (spec/emulator.md, "The translation budget").
   */
  private int budget = EmulatorProperties.TRANSLATE_BUDGET.value();

  /**
   * Bytes of dispatch method a budgeted run may generate before it has earned any (system property
   * {@code acf.translateGrant}; 0: none): a program whose hot code fits the grant never waits.
   */
  private long grant = EmulatorProperties.TRANSLATE_GRANT.value();

  /** Bytes of dispatch methods generated so far, those thrown away as too large included. */
  private long spent;

  /** Whether the waiting blocks include some held back for want of credit. */
  private boolean deferred;

  /** Estimates regions' sizes before they are generated. */
  private final UnitSize size = new UnitSize();

  /** Dispatch methods generated, and of those thrown away as too large. */
  private int generations;

  private int tooLarge;

  /**
   * Whether units are generated on a translator thread (system property {@code
   * acf.translateThread}) rather than on the emulating thread, which then goes on interpreting
   * while they are made: generating and defining units took 19% of SQLite 40's emulating thread and
   * 40% of a short run's (mcf 1, SQLite 2), while the second core's C1 thread was idle half the
   * time (docs/benchmarks.md, "Units generated on a translator thread"). The emulating thread still
   * forms the regions (they read the run counts it keeps) and installs the finished units at its
   * next look, each checked to be current first ({@link #install}: code written or a cache flushed
   * meanwhile leaves it out). Runs under a decode stage or a block observer, whose units read the
   * engine's state as they are generated, and runs with the translation budget or absorption, which
   * read and change installed units as they form regions, translate on the emulating thread.
   *
   * <p>By default ({@code auto}) on when the JVM has at least four processors: on two cores the
   * emulating thread's CPU fell by up to 30% on short runs but their wall time moved by -11% to
   * +11%, since three busy threads (emulating, C1, translator) share two cores that a short run
   * already keeps about 85% busy; with a core for each, what it saves is wall time.
   */
  static volatile boolean translateThread =
      switch (EmulatorProperties.TRANSLATE_THREAD.value()) {
        case "true" -> true;
        case "false" -> false;
        default -> Runtime.getRuntime().availableProcessors() >= 4;
      };

  /** The blocks handed to the translator thread in one round, and the units made of them. */
  private record Finished(List<Block> blocks, List<Unit> units) {}

  /** Rounds the translator thread finished, for the emulating thread's next look. */
  private final ConcurrentLinkedQueue<Finished> finished = new ConcurrentLinkedQueue<>();

  /** Rounds handed to the translator thread that it has not finished. */
  private final AtomicInteger translating = new AtomicInteger();

  /** The translator thread, one for the process, started when first used. */
  private static final class TranslatorThread {
    static final ExecutorService THREAD =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "acf-translator");
              t.setDaemon(true);
              return t;
            });
  }

  /** Blocks waiting for the emulating thread's next {@link #installReady}. */
  private final List<Block> waiting = new ArrayList<>();

  private final PrintStream notices;
  private volatile boolean failed;
  private final AtomicInteger compiledBlocks = new AtomicInteger();

  public BlockCompiler(PrintStream notices) {
    this.notices = notices;
  }

  /**
   * How deep guest calls between units may nest on the host stack (0: not at all, every call and
   * return goes through the dispatcher); units translated while it is 0 have no call sites.
   */
  private volatile int callDepth = UnitContext.DEFAULT_CALL_DEPTH;

  int callDepth() {
    return callDepth;
  }

  /** Sets {@link #callDepth} for the units translated from now on. */
  void setCallDepth(int depth) {
    callDepth = depth;
  }

  /** Whether units keep guest registers in x[] rather than in locals ({@link UnitRegisters}). */
  private volatile boolean registersInMemory = UnitRegisters.DEFAULT_IN_MEMORY;

  /** Sets {@link #registersInMemory} for the units translated from now on. */
  void setRegistersInMemory(boolean inMemory) {
    registersInMemory = inMemory;
  }

  /**
   * Whether units count the runs of the plans they emit inline ({@link Cpu.Counters}'s {@code
   * emittedPrologueRuns} and {@code emittedReplacementRuns}): a statistic for {@code acf bench -v}
   * and tests, off by default, since it costs an increment of the same field on every tagged
   * instruction, flag vector on or off (hot code regions: 268 M on mcf 5).
   */
  private volatile boolean countPlanRuns;

  /** Sets {@link #countPlanRuns} for the units translated from now on. */
  public void countPlanRuns(boolean on) {
    countPlanRuns = on;
  }

  /** Whether translations report their blocks to the cpu's block observer. */
  private volatile boolean observed;

  /**
   * Makes later translations call {@link Cpu#observe} (set while a block observer is installed).
   */
  void setObserved(boolean on) {
    observed = on;
  }

  /** True unless a translation has failed (then the interpreter runs everything). */
  public boolean available() {
    return !failed;
  }

  /** Dispatch methods generated so far, including those thrown away as too large. */
  public int generations() {
    return generations;
  }

  /** Generations thrown away because the dispatch method passed {@link #UNIT_BYTES}. */
  public int tooLarge() {
    return tooLarge;
  }

  /** Number of blocks translated so far. */
  public int compiledBlocks() {
    return compiledBlocks.get();
  }

  /** Queues a hot block for translation at the interpreter's next look. */
  void submit(Block b) {
    if (!available() || !translatable(b)) {
      return;
    }
    waiting.removeIf(o -> o.start == b.start);
    waiting.add(b);
  }

  /**
   * True when every instruction of the block can run in translated code: system instructions
   * (ecall, ebreak, fence.i) and the counter CSRs (cycle, time, instret) stay with the interpreter,
   * which owns the exact instruction count they need, and so do an unknown CSR and an illegal
   * static rounding mode, which it reports. The floating-point CSRs (fflags, frm, fcsr: libm saves
   * and restores them around its work) are the Fpu's state, which units reach as well.
   */
  static boolean translatable(Block b) {
    for (DecodedInsn d : b.insns) {
      if (SemanticsTable.of(d.exec).rm() && (d.rm == 5 || d.rm == 6)) {
        return false;
      }
      switch (SemanticsTable.of(d.exec).kind()) {
        case CSR -> {
          Csr csr = Csr.numbered((int) d.imm);
          if (csr == null || !csr.floatingPoint()) {
            return false;
          }
        }
        case SYSTEM -> {
          switch (d.exec) {
            case ECALL, EBREAK, FENCE_I -> {
              return false;
            }
            default -> {}
          }
        }
        default -> {}
      }
    }
    return true;
  }

  /**
   * Waits up to {@code millis} until the translator thread has finished every round handed to it
   * (the emulating thread installs them at its next look); true unless translation failed or the
   * time ran out. Without {@link #translateThread} nothing is ever pending.
   */
  public boolean awaitIdle(long millis) throws InterruptedException {
    long until = System.nanoTime() + millis * 1_000_000;
    while (translating.get() > 0 && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    return !failed && translating.get() == 0;
  }

  /** A translated unit of blocks. */
  record Unit(List<Block> blocks, CompiledBlocks code) {}

  /** Sets {@link #budget}: retired instructions per byte of dispatch method, 0 for none. */
  void setBudget(int instructionsPerByte) {
    budget = instructionsPerByte;
  }

  /** Sets {@link #grant}: bytes of dispatch method a budgeted run gets before earning any. */
  void setGrant(int bytes) {
    grant = bytes;
  }

  /** Bytes of dispatch methods generated so far (those thrown away as too large included). */
  long spent() {
    return spent;
  }

  /** True when blocks or finished units wait for {@link #installReady}. */
  boolean hasReady() {
    return !waiting.isEmpty() || !finished.isEmpty();
  }

  /**
   * Translates and installs the waiting blocks, on the emulating thread, once the process has
   * retired {@code retired} instructions: they and the warm code around them become {@link
   * Region}s, one unit each. Under a {@link #budget} nothing is translated while the bytes spent
   * exceed the credit earned; blocks held back that way are translated later hottest first (by
   * their run counts, which go on growing while they wait), one seed's region at a time while the
   * credit lasts. A round that starts in credit may overdraw it; the next waits until it is repaid.
   */
  void installReady(Cpu cpu, long retired) {
    installFinished(cpu);
    if (waiting.isEmpty()) {
      return;
    }
    if (budget > 0 && credit(retired) < 0) {
      deferred = true;
      return;
    }
    int minCount = Math.max(1, cpu.translateThreshold() / Region.WARM_DIVISOR);
    // The instructions a region may grow to by taking in earlier units: under the unit limit by
    // the size estimate; before it is learned, any (a unit that comes out too large is cut).
    double rate = bytesPerInstruction();
    long absorbInsns = rate == 0 ? Long.MAX_VALUE : (long) (UNIT_BYTES / rate) - 1;
    if (!deferred) {
      translate(Region.form(cpu, waiting, minCount, MAX_UNIT, absorb, absorbInsns), cpu);
      waiting.clear();
    } else {
      waiting.sort((a, b) -> Integer.compare(b.count, a.count));
      int taken = 0;
      while (taken < waiting.size() && credit(retired) >= 0) {
        List<Block> seed = List.of(waiting.get(taken++));
        translate(Region.form(cpu, seed, minCount, MAX_UNIT, absorb, absorbInsns), cpu);
      }
      waiting.subList(0, taken).clear();
      deferred = !waiting.isEmpty();
    }
    scaleThreshold(cpu);
  }

  private synchronized void scaleThreshold(Cpu cpu) {
    if (FOOTPRINT_STEP > 0) {
      cpu.scaleThreshold((int) Math.min(1 << 20, 1 + footprint / FOOTPRINT_STEP));
    }
  }

  /**
   * Installs the units the translator thread finished; their blocks, installed or not (a piece cut
   * from a too-large unit may leave one out), may be taken into regions again.
   */
  private void installFinished(Cpu cpu) {
    Finished f;
    boolean any = false;
    while ((f = finished.poll()) != null) {
      for (Block b : f.blocks()) {
        b.inFlight = false;
      }
      for (Unit u : f.units()) {
        install(u, cpu);
      }
      any = true;
    }
    if (any) {
      scaleThreshold(cpu);
    }
  }

  /** Bytes of dispatch method the budget allows beyond those spent (negative: in debt). */
  private long credit(long retired) {
    return grant + retired / budget - spent;
  }

  private void translate(List<List<Block>> regions, Cpu cpu) {
    if (translateThread && !observed && absorb == 0 && budget == 0 && cpu.decodeStage() == null) {
      handOver(regions, cpu);
      return;
    }
    int before = absorbed;
    for (List<Block> region : regions) {
      release(region);
    }
    if (absorbed != before) {
      cpu.unitsChanged(); // the link table must not hand out a released unit
    }
    for (List<Block> region : regions) {
      for (List<Block> piece : cut(region)) {
        compileSplitting(piece, cpu);
      }
    }
  }

  /** The size estimate's bytes per guest instruction (the translator thread may be learning). */
  private synchronized double bytesPerInstruction() {
    return size.bytesPerInstruction();
  }

  private synchronized List<List<Block>> cut(List<Block> region) {
    return size.cut(region, UNIT_BYTES, PIECE_BYTES);
  }

  /**
   * Hands one round's regions to the translator thread ({@link #translateThread}), cut into pieces
   * by the estimate as they would be here; their blocks are in flight until the units are
   * installed.
   */
  private void handOver(List<List<Block>> regions, Cpu cpu) {
    List<List<Block>> pieces = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    for (List<Block> region : regions) {
      pieces.addAll(cut(region));
      blocks.addAll(region);
    }
    if (blocks.isEmpty()) {
      return;
    }
    for (Block b : blocks) {
      b.inFlight = true;
    }
    translating.incrementAndGet();
    TranslatorThread.THREAD.execute(
        () -> {
          List<Unit> units = new ArrayList<>();
          try {
            for (List<Block> piece : pieces) {
              compileSplitting(piece, cpu, units);
            }
          } catch (Throwable e) { // an Error (out of memory): the notice, not the executor's trace
            disable(e);
          } finally {
            finished.add(new Finished(blocks, units));
            translating.decrementAndGet();
          }
        });
  }

  /**
   * The most blocks of an earlier unit a region takes in (system property {@code acf.absorbUnits};
   * 0: none, a region stops at translated blocks): see {@link Region#form}.
   */
  private int absorb = EmulatorProperties.ABSORB_UNITS.value();

  /** Sets {@link #absorb}. */
  void setAbsorb(int blocks) {
    absorb = blocks;
  }

  /** Earlier units taken into later regions so far ({@link #absorb}). */
  private int absorbed;

  /** Earlier units taken into later regions and translated again so far. */
  public int absorbed() {
    return absorbed;
  }

  /**
   * Takes the translated blocks a region took in ({@link #absorb}) out of their units before the
   * region is translated: each such unit is marked out of date (the dispatcher runs between
   * translations, so none is running), its blocks go back to untranslated until the region's units
   * are installed over them (a block dropped from a too-large piece stays interpreted), and its
   * estimated bytes leave the footprint, which counts installed units.
   */
  private void release(List<Block> region) {
    for (Block b : region) {
      CompiledBlocks old = b.code;
      if (old == null) {
        continue;
      }
      old.invalidate();
      absorbed++;
      for (Block u : b.unit) {
        if (u.code == old) {
          u.code = null;
          u.unit = null;
          u.joins++;
          footprint -= (long) (u.insns.length * size.bytesPerInstruction());
        }
      }
    }
  }

  /** Installs a unit; a unit one of whose blocks was dropped (its code changed) is out of date. */
  static void install(Unit u, Cpu cpu) {
    Block[] unit = u.blocks().toArray(new Block[0]);
    boolean stale = false;
    for (int i = 0; i < unit.length; i++) {
      stale |= !cpu.isCurrent(unit[i]);
    }
    if (stale) {
      // Its blocks stay interpreted, to be translated again once hot.
      u.code().invalidate();
      for (Block b : unit) {
        b.count = 0;
      }
      return;
    }
    for (int i = 0; i < unit.length; i++) {
      unit[i].codeId = i;
      unit[i].code = u.code();
      unit[i].unit = unit;
    }
    u.code().blocks = unit;
    cpu.unitsChanged();
  }

  /**
   * Takes a dropped block's unit out of use (its code changed, was unmapped or flushed): the unit
   * is marked out of date, and its other blocks, still current, go back to the interpreter with
   * their run counts reset, so that they are translated again once hot (with the new code around
   * them) instead of running one block per entry of the out-of-date unit for the rest of the run.
   */
  static void retire(Block b) {
    CompiledBlocks code = b.code;
    code.invalidate();
    Block[] unit = b.unit;
    if (unit == null) {
      return;
    }
    for (Block u : unit) {
      if (u.code == code) {
        u.code = null;
        u.unit = null;
        u.count = 0;
      }
    }
  }

  /**
   * Chained entries from one unit into another (counted per slot of the dispatcher's link table,
   * {@link DecodeCache#linkHeat}) at which the two units are translated again as one (system
   * property {@code acf.joinUnits}, default 100,000; 0: never). A region is formed as its blocks
   * turn hot and never takes in blocks already translated, so a hot loop can end up spread over
   * several small units that hand control to each other on every iteration (99% of mcf's unit
   * exits, 78% of chess's, docs/benchmarks.md); joining the units at such an edge, again at the
   * next hot edge of the joined unit, brings the loop into one method.
   */
  private volatile int joinAt = EmulatorProperties.JOIN_UNITS.value();

  /** {@link #joinAt}, which the cpu reads when the compiler is installed. */
  int joinAt() {
    return joinAt;
  }

  /** Sets {@link #joinAt} (0: no joins), before the compiler is installed on a cpu. */
  void setJoinAt(int entries) {
    joinAt = entries;
  }

  /**
   * Joins one block may take part in: each re-translates the whole joined unit, so a loop grows one
   * unit at a time up to the unit limits, and a block never churns through re-translations.
   */
  static final int MAX_JOINS = EmulatorProperties.MAX_JOINS.value();

  /** The most blocks of a joined unit ({@code acf.joinBlocks}). */
  static final int JOIN_BLOCKS = EmulatorProperties.JOIN_BLOCKS.value();

  /** The most bytes of a joined unit's dispatch method ({@code acf.joinBytes}). */
  static final int JOIN_BYTES = EmulatorProperties.JOIN_BYTES.value();

  /** Units joined at hot edges, and joins refused (over the limits, or a block joined enough). */
  private int joined;

  private int joinsRefused;

  /** Units joined at hot edges so far ({@link #join}). */
  public int joined() {
    return joined;
  }

  /** Joins refused for good so far: the joined unit would pass the limits. */
  public int joinsRefused() {
    return joinsRefused;
  }

  /**
   * The dispatcher chained {@link #joinAt} times into {@code to}, a block of another unit, the last
   * time from unit {@code from}: when a block of {@code from} has {@code to} as a direct successor
   * (a branch target, fall-through or plain jump; not a call, return or indirect jump, which a join
   * would not keep inside the unit), the two units' blocks are translated again as one unit and
   * installed in their place. Refused for good (the edge counts no more) when the joined unit would
   * pass {@link #JOIN_BLOCKS} blocks or {@link #JOIN_BYTES}, or one of its blocks has taken part in
   * {@link #MAX_JOINS} joins (then {@code to} is not joined again); nothing changes when a block of
   * either unit is out of date. Called by the dispatcher between two units, so neither runs. True
   * when installed.
   */
  boolean join(Cpu cpu, CompiledBlocks from, Block to) {
    Block[] a = from.blocks;
    Block[] c = to == null ? null : to.unit;
    if (failed || c == null || to.joinRefused || a == null || a == c || !directEdge(a, to.start)) {
      return false;
    }
    List<Block> blocks = new ArrayList<>(a.length + c.length);
    long insns = 0;
    boolean joinedEnough = false;
    for (Block[] unit : List.of(a, c)) {
      CompiledBlocks code = unit == a ? from : to.code;
      for (Block b : unit) {
        if (b.code != code || !cpu.isCurrent(b)) {
          return false;
        }
        joinedEnough |= b.joins >= MAX_JOINS;
        insns += b.insns.length;
        blocks.add(b);
      }
    }
    if (joinedEnough
        || blocks.size() > JOIN_BLOCKS
        || insns * bytesPerInstruction() >= JOIN_BYTES) {
      refuse(to);
      return false;
    }
    CompiledBlocks before = from;
    CompiledBlocks after = to.code;
    try {
      install(new Unit(blocks, generate(blocks, cpu, JOIN_BYTES).code()), cpu);
    } catch (BytecodeTranslator.TooLarge e) {
      refuse(to);
      return false;
    } catch (Exception | LinkageError e) {
      disable(e);
      return false;
    }
    for (Block b : blocks) {
      b.joins++;
    }
    // No block enters the two old units any more; marked out of date all the same.
    before.invalidate();
    after.invalidate();
    joined++;
    return true;
  }

  private void refuse(Block to) {
    to.joinRefused = true;
    joinsRefused++;
  }

  /**
   * True when a block of {@code unit} goes on to {@code target} by a branch, fall-through or jump.
   */
  private static boolean directEdge(Block[] unit, long target) {
    for (Block b : unit) {
      DecodedInsn last = b.insns[b.insns.length - 1];
      switch (last.exec) {
        case JALR -> {}
        case JAL -> {
          if (!UnitRegisters.real(last.rd) && last.target() == target) {
            return true;
          }
        }
        default -> {
          if (last.target() == target || b.end == target) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Generates and defines one unit's class, counting what it cost whether it fits or not: the
   * generation, the bytes of dispatch method (the footprint and the budget's spending), and each
   * block's share for {@link UnitSize}'s estimates.
   */
  private BytecodeTranslator.Defined generate(List<Block> blocks, Cpu cpu, int limit)
      throws Exception {
    try {
      BytecodeTranslator.Defined d =
          BytecodeTranslator.define(
              blocks,
              observed,
              cpu.decodeStage(),
              limit,
              callDepth > 0,
              registersInMemory,
              countPlanRuns);
      generated(blocks, d.applicationBytes(), d.methodBytes(), false);
      return d;
    } catch (BytecodeTranslator.TooLarge e) {
      generated(blocks, e.applicationBytes, e.methodBytes, true);
      throw e;
    }
  }

  /**
   * Counts one generation (the two threads may both generate: the translator thread's rounds, the
   * emulating thread's joins), under the lock that the size estimate and the footprint share.
   */
  private synchronized void generated(
      List<Block> blocks, int applicationBytes, int methodBytes, boolean thrownAway) {
    generations++;
    size.learn(blocks, applicationBytes);
    spent += methodBytes;
    if (thrownAway) {
      tooLarge++;
    } else {
      footprint += methodBytes;
    }
  }

  /**
   * Translates blocks to bytecode and installs them, in {@link #pieces} when the unit's dispatch
   * method would be too large for HotSpot to compile (a lone block that large stays interpreted).
   */
  private void compileSplitting(List<Block> blocks, Cpu cpu) {
    List<Unit> units = new ArrayList<>();
    compileSplitting(blocks, cpu, units);
    for (Unit u : units) {
      install(u, cpu);
    }
  }

  /** {@link #compileSplitting(List, Cpu)}, the units left in {@code units} for the caller. */
  private void compileSplitting(List<Block> blocks, Cpu cpu, List<Unit> units) {
    if (failed) {
      return;
    }
    try {
      // A lone block is cut no further: it only has to fit HotSpot's limit.
      int limit = blocks.size() < 2 ? BytecodeTranslator.HUGE_METHOD : UNIT_BYTES;
      BytecodeTranslator.Defined d = generate(blocks, cpu, limit);
      compiledBlocks.addAndGet(blocks.size());
      units.add(new Unit(blocks, d.code()));
    } catch (BytecodeTranslator.TooLarge e) {
      for (List<Block> piece : pieces(blocks, e.blockBytes, PIECE_BYTES)) {
        compileSplitting(piece, cpu, units);
      }
    } catch (Exception | LinkageError e) {
      disable(e);
    }
  }

  /**
   * The bytes of method a piece cut from a too-large unit aims at: below HotSpot's limit by the
   * margin that a piece's own entry, exits and handler (shared among all the blocks in the measure
   * of the whole unit) may add.
   */
  static final int PIECE_BYTES = UNIT_BYTES * 3 / 4;

  /**
   * Cuts a unit into consecutive pieces of at most {@code pieceBytes} bytes ({@link #PIECE_BYTES}
   * for a unit that came out too large; {@link UnitSize} cuts by estimate) by what each block took
   * of it ({@code blockBytes}), so that each piece is generated once more: halving a unit three
   * times the limit generated it, its halves and its quarters (sqlite threw away 0.16 s of such
   * units, docs/benchmarks.md). Halves when that gives one piece (the estimate was off); a lone
   * block is dropped (it stays interpreted).
   */
  static List<List<Block>> pieces(List<Block> blocks, int[] blockBytes, int pieceBytes) {
    List<List<Block>> pieces = new ArrayList<>();
    if (blocks.size() < 2) {
      return pieces;
    }
    int from = 0;
    long bytes = 0;
    for (int i = 0; i < blocks.size(); i++) {
      if (i > from && bytes + blockBytes[i] > pieceBytes) {
        pieces.add(blocks.subList(from, i));
        from = i;
        bytes = 0;
      }
      bytes += blockBytes[i];
    }
    pieces.add(blocks.subList(from, blocks.size()));
    if (pieces.size() == 1) {
      int half = blocks.size() / 2;
      return List.of(blocks.subList(0, half), blocks.subList(half, blocks.size()));
    }
    return pieces;
  }

  /** Translates blocks on the caller's thread; null when translation failed. */
  Unit compile(List<Block> batch) {
    try {
      CompiledBlocks code =
          BytecodeTranslator.define(
                  batch,
                  observed,
                  null,
                  BytecodeTranslator.HUGE_METHOD,
                  callDepth > 0,
                  registersInMemory,
                  countPlanRuns)
              .code();
      compiledBlocks.addAndGet(batch.size());
      return new Unit(List.copyOf(batch), code);
    } catch (BytecodeTranslator.TooLarge e) {
      return null;
    } catch (Exception | LinkageError e) {
      disable(e);
      return null;
    }
  }

  private void disable(Throwable e) {
    failed = true;
    notices.println(
        "acf: block translation disabled (" + e + "); the interpreter runs" + " everything");
  }
}

package org.dise.runtime.profiles.sink.coproc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.NamedSink;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.TaggedSink;

/**
 * The programmable profiling co-processor (Zilles and Sohi, Section 3): instructions tagged at
 * decode pass the hashed-PC filter, retire into the sample buffer, and are processed one by one at
 * the co-processor's rate by a profiling application (a subclass); the application interrupts the
 * main processor to copy results to memory, and each interrupt costs the main processor cycles.
 * Tagging itself costs the main pipeline nothing.
 */
public abstract class CoProcessor extends NamedSink implements TaggedSink {
  /**
   * The co-processor's parameters, which every application of it takes (Zilles and Sohi;
   * spec/engine.md): defaults from {@link CoprocConfig#DEFAULT} and this class.
   */
  public static List<ParamSpec> params() {
    CoprocConfig d = CoprocConfig.DEFAULT;
    return List.of(
        ParamSpec.cost(0),
        ParamSpec.integer(
            "buffer", 1, 1 << 20, String.valueOf(d.buffer()), "sample buffer entries"),
        ParamSpec.integer(
            "service_cycles",
            1,
            Integer.MAX_VALUE,
            String.valueOf(d.serviceCycles()),
            "co-processor cycles per sample"),
        ParamSpec.integer(
            "interrupt_cycles",
            0,
            Integer.MAX_VALUE,
            String.valueOf(d.interruptCycles()),
            "main-processor cycles per interrupt"),
        ParamSpec.integer(
            "copy_cycles",
            0,
            Integer.MAX_VALUE,
            String.valueOf(d.copyCycles()),
            "main-processor cycles per slot copied"),
        ParamSpec.integer(
            "slots",
            1,
            1 << 16,
            String.valueOf(d.slots()),
            "slots of the associative and data arrays"),
        ParamSpec.integer(
            "hash_bits",
            1,
            24,
            String.valueOf(d.hashBits()),
            "log2 of the PC filter's exclusion table"),
        ParamSpec.integer(
            "seed",
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            String.valueOf(d.seed()),
            "seed of the co-processor's LFSR"),
        ParamSpec.atLeast("timer_cycles", 1, "1000000", "cycles between co-processor timer ticks"),
        ParamSpec.bool("random_tagging", "true", "tag retirements at random, at an adaptive rate"),
        ParamSpec.atLeast("tag_adapt", 1, "64", "admissions before random tagging's rate doubles"));
  }

  /** {@link #params()} followed by an application's {@code groups} of parameters, in order. */
  @SafeVarargs
  static List<ParamSpec> params(List<ParamSpec>... groups) {
    List<ParamSpec> out = new java.util.ArrayList<>(params());
    for (List<ParamSpec> g : groups) {
      out.addAll(g);
    }
    return out;
  }

  /**
   * The parameters of an application's slots, each holding up to {@code values} of {@code holds}
   * (targets, values) per static instruction: how many, the replacement randomisation bound, and
   * the failed inserts before thrashing (by default {@code failDefault}).
   */
  static List<ParamSpec> slotParams(String holds, String failDefault) {
    return List.of(
        ParamSpec.integer("values", 1, 64, "4", holds + " per slot"),
        ParamSpec.integer(
            "replace_max", 0, Integer.MAX_VALUE, "255", "replacement randomisation bound"),
        ParamSpec.integer(
            "fail_threshold",
            1,
            Integer.MAX_VALUE,
            "",
            "failed inserts before thrashing (" + failDefault + ")"));
  }

  /** Samples between an application's copy-outs (by default {@code dflt}). */
  static ParamSpec interval(String dflt) {
    return ParamSpec.integer(
        "interval", 1, Long.MAX_VALUE, "", "samples between copy-outs (" + dflt + ")");
  }

  /** Whether to keep the exact profile ({@link #keepExact}); every application takes it. */
  static final ParamSpec EXACT =
      ParamSpec.bool("exact", "true", "keep an exact profile for the error");

  protected final CoprocConfig config;
  protected final PcFilter filter;
  protected final SampleBuffer buffer;

  /**
   * Whether the application keeps the exact profile of every tagged retirement, for the error (its
   * {@code exact} parameter), and that profile: pc -> value (or target) -> count.
   */
  protected final boolean keepExact;

  protected final ExactProfile exact = new ExactProfile();

  /**
   * The slot parameters ({@link #slotParams}): values (or targets) a slot holds, the replacement
   * randomisation bound, the failed inserts before thrashing; and the samples between copy-outs.
   */
  protected final int valuesPerSlot;

  protected final int replaceMax;
  protected final int failThreshold;
  protected final long interval;
  private final SampleBuffer.Consumer consumer = this::process;
  private long lfsr;
  private long filtered;
  private final Interrupts interrupts = new Interrupts();
  private long slotsCopied;
  private final long timerCycles;
  private long nextTimer;

  /** Random tagging: a retirement enters the buffer with probability 2^-tagShift. */
  private final boolean randomTagging;

  private final int tagAdapt;
  private int tagShift;
  private int tagStreak;
  private long untagged;

  /**
   * A co-processor with {@code params} filled with its application's defaults ({@code
   * ComponentSpec.withDefaults}); {@code fail_threshold} and {@code interval} left empty default to
   * {@code failSlots} and {@code intervalSlots} times the slots.
   */
  protected CoProcessor(String name, Map<String, String> params, int failSlots, int intervalSlots) {
    super(name);
    this.config = CoprocConfig.of(params);
    this.keepExact = CoprocConfig.bool(params, "exact");
    this.valuesPerSlot = (int) CoprocConfig.num(params, "values");
    this.replaceMax = (int) CoprocConfig.num(params, "replace_max");
    this.failThreshold =
        (int) CoprocConfig.num(params, "fail_threshold", (long) failSlots * config.slots());
    this.interval = CoprocConfig.num(params, "interval", (long) intervalSlots * config.slots());
    CoprocConfig.check(interval >= 1, "interval", interval, "at least 1");
    CoprocConfig.check(valuesPerSlot >= 1 && valuesPerSlot <= 64, "values", valuesPerSlot, "1..64");
    CoprocConfig.check(failThreshold >= 1, "fail_threshold", failThreshold, "at least 1");
    this.filter = new PcFilter(config.hashBits());
    this.buffer = new SampleBuffer(config.buffer(), config.serviceCycles());
    this.lfsr = config.seed() == 0 ? 1 : config.seed();
    this.timerCycles = CoprocConfig.num(params, "timer_cycles");
    CoprocConfig.check(timerCycles >= 1, "timer_cycles", timerCycles, "at least 1");
    this.nextTimer = timerCycles;
    this.randomTagging = CoprocConfig.bool(params, "random_tagging");
    this.tagAdapt = (int) CoprocConfig.num(params, "tag_adapt");
    CoprocConfig.check(tagAdapt >= 1, "tag_adapt", tagAdapt, "at least 1");
  }

  /**
   * The co-processor's timer, every {@code timer_cycles} main-processor cycles: an application that
   * has stopped receiving samples (its region of the program fully masked) still moves on.
   */
  protected void timer() {}

  public CoprocConfig config() {
    return config;
  }

  public PcFilter filter() {
    return filter;
  }

  public SampleBuffer buffer() {
    return buffer;
  }

  @Override
  public final void retire(DecodedInsn insn, long value, long address, long now) {
    observe(insn.pc, value, address);
    if (now >= nextTimer) {
      nextTimer = now + timerCycles;
      buffer.drain(now, consumer);
      timer();
    }
    if (!filter.accepts(insn.pc)) {
      filtered++;
      return;
    }
    if (!randomTagging) {
      buffer.offer(now, insn.pc, value, address, consumer);
      return;
    }
    // Random tagging (Section 3.1: the filter tags "randomly", and the LFSR "helps avoid
    // pathological behaviors caused by repetition in the program"): a buffer that fills takes
    // the retirements that come just as an entry frees, at the co-processor's own period, which
    // aliases with a load whose values repeat with the same period (7 every other time would
    // be seen always or never). Thinning at random first makes the samples a Bernoulli subset,
    // independent of the values; the rate halves when the buffer overflows and doubles again
    // after tag_adapt admissions without an overflow.
    if (tagShift > 0 && random(-1L) >>> (64 - tagShift) != 0) {
      untagged++;
      return;
    }
    if (!buffer.offer(now, insn.pc, value, address, consumer)) {
      tagShift = Math.min(tagShift + 1, 20);
      tagStreak = 0;
    } else if (++tagStreak >= tagAdapt && tagShift > 0) {
      tagShift--;
      tagStreak = 0;
    }
  }

  /** Retirements random tagging left out (they passed the PC filter). */
  public long untagged() {
    return untagged;
  }

  /**
   * Reached through {@code call(sink, value, address)} rather than a tag: the matched instruction's
   * record with the call's arguments (the replacement's stall and inserted instructions are then
   * paid as usual).
   */
  @Override
  public final void record(
      GuestState guest, DecodedInsn original, long[] args, long applicationInstructions) {
    retire(
        original,
        args.length > 0 ? args[0] : 0,
        args.length > 1 ? args[1] : 0,
        applicationInstructions);
  }

  /** Every tagged retirement, before the PC filter: where the exact profile is kept. */
  private void observe(long pc, long value, long address) {
    if (keepExact) {
      exact.add(pc, value);
    }
  }

  /** The exact profile of every tagged retirement: pc -> value (or target) -> count. */
  public Map<Long, Map<Long, Long>> exact() {
    return exact.asMap();
  }

  /** The function holding {@code pc}, or {@code ?} (also without symbols), for a table's rows. */
  static String functionAt(SymbolTable symbols, long pc) {
    return symbols == null ? "?" : symbols.lookup(pc).map(Symbol::name).orElse("?");
  }

  /** The application's routine for one sample. */
  protected abstract void process(long pc, long value, long address);

  /** Interrupts the main processor to copy {@code slots} slots to memory. */
  protected final void interrupt(int slots) {
    slotsCopied += slots;
    interrupts.charge(config.interruptCycles() + (long) config.copyCycles() * slots);
  }

  @Override
  public long takeInterruptCycles() {
    return interrupts.take();
  }

  /** A pseudo-random number in [0, bound] (a 64-bit xorshift, as a hardware LFSR would be). */
  protected final long random(long bound) {
    lfsr ^= lfsr << 13;
    lfsr ^= lfsr >>> 7;
    lfsr ^= lfsr << 17;
    return bound == -1L ? lfsr : Long.remainderUnsigned(lfsr, bound + 1);
  }

  /**
   * Processes what is still buffered and copies the live state out, as the final interrupt of a run
   * does (its cost is counted once, however often the profile is read).
   */
  protected final void finish() {
    buffer.flush(consumer);
    int live = finalCopy();
    if (live > 0) {
      interrupt(live);
    }
  }

  /** Copies the application's live state to memory; returns the slots copied. */
  protected abstract int finalCopy();

  @Override
  public long interrupts() {
    finish();
    return interrupts.count();
  }

  @Override
  public long interruptCycles() {
    finish();
    return interrupts.cycles();
  }

  /** Interrupts so far, without finishing the run. */
  protected final long interruptCount() {
    return interrupts.count();
  }

  /** Tagged retirements the PC filter turned away. */
  public long filtered() {
    return filtered;
  }

  public long slotsCopied() {
    return slotsCopied;
  }

  /** The co-processor's own figures, for the summary. */
  @Override
  public List<String> summary() {
    finish();
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            Locale.ROOT,
            "co-processor: %d tagged, %d filtered, %d left out at"
                + " random, %d buffered (buffer %d, max %d), %d dropped, %d processed; %d interrupts,"
                + " %d slots copied, %d main-processor cycles",
            buffer.offered() + filtered + untagged,
            filtered,
            untagged,
            buffer.offered(),
            buffer.capacity(),
            buffer.maxOccupancy(),
            buffer.dropped(),
            buffer.processed(),
            interrupts.count(),
            slotsCopied,
            interrupts.cycles()));
    return out;
  }
}

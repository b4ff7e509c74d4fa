package org.dise.runtime.profiles.sink.coproc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.TaggedSink;

/**
 * The programmable profiling co-processor (Zilles and Sohi, Section 3): instructions tagged at
 * decode pass the hashed-PC filter, retire into the sample buffer, and are processed one by one at
 * the co-processor's rate by a profiling application (a subclass); the application interrupts the
 * main processor to copy results to memory, and each interrupt costs the main processor cycles.
 * Tagging itself costs the main pipeline nothing.
 */
public abstract class CoProcessor implements TaggedSink {
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

  /** {@link #params()} followed by {@code more}. */
  static List<ParamSpec> params(ParamSpec... more) {
    List<ParamSpec> out = new java.util.ArrayList<>(params());
    out.addAll(List.of(more));
    return out;
  }

  protected final String name;
  protected final CoprocConfig config;
  protected final PcFilter filter;
  protected final SampleBuffer buffer;
  private final SampleBuffer.Consumer consumer = this::process;
  private long lfsr;
  private long filtered;
  private long interrupts;
  private long interruptCycles;
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
   * ComponentSpec.withDefaults}).
   */
  protected CoProcessor(String name, Map<String, String> params) {
    this.name = name;
    this.config = CoprocConfig.of(params);
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

  @Override
  public String name() {
    return name;
  }

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

  /** Every tagged retirement, before the PC filter: where an exact profile is kept. */
  protected void observe(long pc, long value, long address) {}

  /** The application's routine for one sample. */
  protected abstract void process(long pc, long value, long address);

  /** Interrupts the main processor to copy {@code slots} slots to memory. */
  protected final void interrupt(int slots) {
    interrupts++;
    slotsCopied += slots;
    long c = config.interruptCycles() + (long) config.copyCycles() * slots;
    interruptCycles += c;
    untaken += c;
  }

  /** Interrupt cycles not yet handed to a timing model ({@link #takeInterruptCycles}). */
  private long untaken;

  @Override
  public long takeInterruptCycles() {
    long c = untaken;
    untaken = 0;
    return c;
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
    return interrupts;
  }

  @Override
  public long interruptCycles() {
    finish();
    return interruptCycles;
  }

  /** Interrupts so far, without finishing the run. */
  protected final long interruptCount() {
    return interrupts;
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
            interrupts,
            slotsCopied,
            interruptCycles));
    return out;
  }
}

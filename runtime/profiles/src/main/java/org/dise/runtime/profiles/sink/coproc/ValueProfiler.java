package org.dise.runtime.profiles.sink.coproc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.metrics.WeightedRms;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.ProfileTable;

/**
 * Load value profiling on the co-processor (Zilles and Sohi, Section 5 and the appendix): a slot
 * per static load holds its pc (associative array), an active value and hit and total counters
 * (data array); a load without a slot takes one by informational replacement (a slot whose total is
 * below a pseudo-random number is replaced); the active value is re-selected when its measured
 * invariance drops; repeated failed replacements (the working set no longer fits) or many
 * replacements (thrashing) interrupt the main processor, which copies the slots to memory, masks
 * the loads it is confident about in the PC filter, and on thrashing partitions the program with
 * the filter's mask. At the end each load's value invariances are estimated from the copied
 * regions. The runtime component {@code value_profile}.
 */
public final class ValueProfiler extends CoProcessor {
  /** The catalogue's entry for this sink ({@code value_profile}): its parameters. */
  public static final ComponentSpec SPEC =
      ComponentSpec.taggedSink(
          "value_profile",
          null,
          Set.of(),
          "co-processor load value profile (tag only)",
          CoProcessor.params(
              List.of(
                  ParamSpec.atLeast(
                      "confidence", 1, "64", "samples before a slot's values are trusted"),
                  ParamSpec.atLeast("reselect_every", 1, "16", "samples between re-selections"),
                  ParamSpec.integer(
                      "reselect_pct", 0, 100, "60", "share that triggers re-selection")),
              CoProcessor.slotParams("values", "2 x slots"),
              List.of(
                  ParamSpec.atLeast("thrash_factor", 1, "4", "thrashing factor"),
                  ParamSpec.integer(
                      "high_pct", 0, 100, "90", "invariance above which a value is kept"),
                  ParamSpec.integer(
                      "low_pct", 0, 100, "10", "invariance below which a value is dropped"),
                  ParamSpec.integer(
                      "max_copies", 0, Integer.MAX_VALUE, "3", "copies of a pc's record kept"),
                  ParamSpec.integer(
                      "min_invariance_pct", 0, 100, "10", "least invariance reported"),
                  CoProcessor.interval("32 x slots"),
                  ParamSpec.integer(
                      "resample_timers",
                      1,
                      Integer.MAX_VALUE,
                      "16",
                      "timer ticks between re-samplings"),
                  ParamSpec.integer("counter_bits", 4, 32, "16", "width of the value counters"),
                  CoProcessor.EXACT)));

  /** One slot: a static load being characterised. */
  private static final class Slot {
    long pc;
    long active;
    long hits;
    long regionTotal;
    long total;
    boolean done;
    final List<long[]> regions = new ArrayList<>(); // {value, hits, total} of closed regions
  }

  /** What memory holds for one load after interrupts: its active-value regions. */
  private static final class Record {
    final List<long[]> regions = new ArrayList<>();
    long total;
    int copies;
  }

  private final int reselectEvery;
  private final int reselectPct;
  private final int thrashFactor;
  private final int confidence;
  private final int highPct;
  private final int lowPct;
  private final int maxCopies;
  private final int minInvariancePct;
  private final int resampleTimers;

  /** The largest value a slot's counters hold ({@code counter_bits} wide). */
  private final long counterMax;

  private long processedSinceInterrupt;

  private final Slot[] slots;

  /**
   * The associative array: the pc of each slot, searched by a scan as the hardware compares all
   * entries at once (a slot's entry counts only while the slot is in use).
   */
  private final long[] slotPcs;

  private int slotsInUse;
  private int nextCandidate;
  private int failed;
  private int replacementsSinceInterrupt;
  private long replacements;
  private long failedReplacements;
  private long thrashInterrupts;
  private int maxSlotsInUse;
  private final Map<Long, Record> memory = new TreeMap<>();

  /**
   * A profiler with the binding's parameters (spec/engine.md lists them and their defaults).
   *
   * @throws IllegalArgumentException naming a parameter out of range
   */
  public ValueProfiler(String name, Map<String, String> given) {
    this(name, SPEC.withDefaults(given), 0);
  }

  private ValueProfiler(String name, Map<String, String> p, int filled) {
    super(name, p, 2, 32);
    this.reselectEvery = (int) CoprocConfig.num(p, "reselect_every");
    this.reselectPct = (int) CoprocConfig.num(p, "reselect_pct");
    this.thrashFactor = (int) CoprocConfig.num(p, "thrash_factor");
    this.confidence = (int) CoprocConfig.num(p, "confidence");
    this.highPct = (int) CoprocConfig.num(p, "high_pct");
    this.lowPct = (int) CoprocConfig.num(p, "low_pct");
    this.maxCopies = (int) CoprocConfig.num(p, "max_copies");
    this.minInvariancePct = (int) CoprocConfig.num(p, "min_invariance_pct");
    this.resampleTimers = (int) CoprocConfig.num(p, "resample_timers");
    int bits = (int) CoprocConfig.num(p, "counter_bits");
    CoprocConfig.check(bits >= 4 && bits <= 32, "counter_bits", bits, "4..32");
    this.counterMax = (1L << bits) - 1;
    CoprocConfig.check(resampleTimers >= 1, "resample_timers", resampleTimers, "at least 1");
    CoprocConfig.check(reselectEvery >= 1, "reselect_every", reselectEvery, "at least 1");
    CoprocConfig.check(
        reselectPct >= 0 && reselectPct <= 100, "reselect_pct", reselectPct, "0..100");
    CoprocConfig.check(thrashFactor >= 1, "thrash_factor", thrashFactor, "at least 1");
    CoprocConfig.check(confidence >= 1, "confidence", confidence, "at least 1");
    this.slots = new Slot[config.slots()];
    this.slotPcs = new long[config.slots()];
  }

  @Override
  protected void process(long pc, long value, long address) {
    if (++processedSinceInterrupt >= interval) {
      copyOut(true); // periodic re-sampling, and the next region of a partitioned program
    }
    Slot s = lookup(pc);
    if (s != null) {
      update(s, value);
      return;
    }
    int free = freeSlot();
    if (free >= 0) {
      allocate(free, pc, value);
    } else {
      Slot c = slots[nextCandidate];
      int index = nextCandidate;
      nextCandidate = (nextCandidate + 1) % slots.length;
      // Informational replacement: a slot that has seen many samples is worth keeping.
      if (!c.done && random(replaceMax) > c.total) {
        slotsInUse--;
        allocate(index, pc, value);
      } else {
        failedReplacements++;
        failed++;
      }
    }
    if (replacementsSinceInterrupt > thrashFactor * slots.length) {
      thrash();
    } else if (failed >= failThreshold) {
      copyOut(true);
    }
  }

  /** The slot holding {@code pc}, or null. */
  private Slot lookup(long pc) {
    for (int i = 0; i < slotPcs.length; i++) {
      if (slotPcs[i] == pc && slots[i] != null) {
        return slots[i];
      }
    }
    return null;
  }

  private int freeSlot() {
    for (int i = 0; i < slots.length; i++) {
      if (slots[i] == null) {
        return i;
      }
    }
    return -1;
  }

  private void allocate(int i, long pc, long value) {
    Slot s = new Slot();
    s.pc = pc;
    s.active = value;
    s.hits = 1;
    s.regionTotal = 1;
    s.total = 1;
    slots[i] = s;
    slotPcs[i] = pc;
    slotsInUse++;
    maxSlotsInUse = Math.max(maxSlotsInUse, slotsInUse);
    replacements++;
    replacementsSinceInterrupt++;
    failed = Math.max(0, failed - 1);
  }

  private void update(Slot s, long value) {
    if (s.done) {
      return;
    }
    s.total++;
    s.regionTotal++;
    if (value == s.active) {
      s.hits++;
    }
    if (s.regionTotal >= counterMax) {
      // Saturating hit and region counters: halve both, which keeps their ratio (appendix).
      s.hits >>= 1;
      s.regionTotal >>= 1;
    }
    if (s.total >= counterMax) {
      s.done = true; // a saturated total: keep what was learned
      return;
    }
    if (value != s.active
        && s.regionTotal >= reselectEvery
        && s.hits * 100 < (long) reselectPct * s.regionTotal) {
      // The active value's invariance dropped: close its region and re-select this sample's
      // value (a random sample of the load's values, so likely a frequent one).
      s.regions.add(new long[] {s.active, s.hits, s.regionTotal});
      if (s.regions.size() >= valuesPerSlot) {
        s.done = true;
        return;
      }
      s.active = value;
      s.hits = 1;
      s.regionTotal = 1;
    }
  }

  /** An interrupt: copies the slots to memory, masks confident loads, clears the arrays. */
  private void copyOut(boolean advanceRegion) {
    int copied = copySlots();
    failed = 0;
    replacementsSinceInterrupt = 0;
    processedSinceInterrupt = 0;
    if (advanceRegion && filter.regions() > 1) {
      filter.region(filter.mask(), filter.match() + 1); // the next part of the program
    }
    interrupt(copied);
  }

  /** Copies every slot in use to memory and frees it; returns how many were copied. */
  private int copySlots() {
    int copied = 0;
    for (int i = 0; i < slots.length; i++) {
      if (slots[i] != null) {
        copy(slots[i]);
        copied++;
        slots[i] = null;
      }
    }
    slotsInUse = 0;
    return copied;
  }

  private void copy(Slot s) {
    Record r = memory.computeIfAbsent(s.pc, k -> new Record());
    r.regions.addAll(s.regions);
    if (s.regionTotal > 0) {
      r.regions.add(new long[] {s.active, s.hits, s.regionTotal});
    }
    r.total += s.total;
    r.copies++;
    // Confidence: highly invariant or highly variant loads are characterised quickly; others
    // are sampled a few times before they are masked.
    if (r.total >= confidence) {
      double best = 0;
      for (long[] g : r.regions) {
        best = Math.max(best, 100.0 * g[1] / g[2]);
      }
      if (best >= highPct || best <= lowPct || r.copies >= maxCopies) {
        filter.exclude(s.pc);
      }
    }
  }

  /**
   * The timer: when a whole timer period passed without an interrupt, this part of the program is
   * characterised (or quiet): copy out, and move to the next region of a partitioned program.
   */
  @Override
  protected void timer() {
    if (interruptCount() == interruptsAtTimer) {
      copyOut(true);
    }
    interruptsAtTimer = interruptCount();
    // Phases: every resample_timers periods, masked loads are characterised again (their
    // samples add to what memory already holds).
    if (++timers % resampleTimers == 0) {
      filter.clearExclusions();
    }
  }

  private long timers;

  private long interruptsAtTimer;

  /** Thrashing: the working set does not fit the slots; profile half as much at a time. */
  private void thrash() {
    thrashInterrupts++;
    copyOut(false);
    long mask = filter.mask();
    if (Long.bitCount(mask) < config.hashBits()) {
      filter.region(mask << 1 | 1, 0);
    }
  }

  @Override
  protected int finalCopy() {
    int copied = copySlots();
    return copied;
  }

  /**
   * The estimated invariance (0..1) of each (load pc, value) (the appendix's estimation): a value
   * is credited the hits of its own regions, and each region's misses are divided among the load's
   * other recorded values in proportion to their invariance where they were active, never more than
   * the misses (what is left belongs to values never made active).
   */
  public Map<Long, Map<Long, Double>> estimates() {
    finish();
    Map<Long, Map<Long, Double>> out = new TreeMap<>();
    memory.forEach(
        (pc, r) -> {
          // value -> {hits, samples, regions} where active
          Map<Long, long[]> own = new LinkedHashMap<>();
          long samples = 0;
          for (long[] g : r.regions) {
            long[] o = own.computeIfAbsent(g[0], k -> new long[3]);
            o[0] += g[1];
            o[1] += g[2];
            o[2]++;
            samples += g[2];
          }
          Map<Long, Double> credit = new LinkedHashMap<>();
          own.forEach((v, o) -> credit.put(v, (double) o[0]));
          for (long[] g : r.regions) {
            double misses = g[2] - g[1];
            double wanted = 0;
            for (Map.Entry<Long, long[]> e : own.entrySet()) {
              if (e.getKey() != g[0]) {
                wanted += rate(e.getValue()) * g[2];
              }
            }
            double scale = wanted > misses ? misses / wanted : 1;
            for (Map.Entry<Long, long[]> e : own.entrySet()) {
              if (e.getKey() != g[0]) {
                credit.merge(e.getKey(), scale * rate(e.getValue()) * g[2], Double::sum);
              }
            }
          }
          Map<Long, Double> est = new LinkedHashMap<>();
          long n = samples;
          credit.forEach((v, c) -> est.put(v, n == 0 ? 0 : Math.min(1.0, c / n)));
          out.put(pc, est);
        });
    return out;
  }

  /**
   * A value's invariance where it was active, {hits, samples, regions}, not counting the sample
   * that made it active in each region: that one matches by construction, so a value seen once
   * would otherwise claim 1/16 of every other region's misses, and twenty such values crowded out a
   * real 50% value (7 every other time estimated at 40%).
   */
  private static double rate(long[] own) {
    return own[1] <= own[2] ? 0 : (double) (own[0] - own[2]) / (own[1] - own[2]);
  }

  /** Slots holding a load now (never more than {@code slots}). */
  public int slotsInUse() {
    return slotsInUse;
  }

  /** The most slots ever in use at once. */
  public int maxSlotsInUse() {
    return maxSlotsInUse;
  }

  /** The weighted RMS error of the estimates against the exact profile, in percent points. */
  public double weightedRmsError() {
    return WeightedRms.error(estimates(), exact, minInvariancePct / 100.0);
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    Map<Long, Map<Long, Double>> est = estimates();
    List<List<String>> rows = new ArrayList<>();
    List<long[]> order = new ArrayList<>();
    est.forEach((pc, m) -> m.forEach((v, e) -> order.add(new long[] {pc, v})));
    order.sort(
        (a, b) ->
            a[0] != b[0]
                ? Long.compareUnsigned(a[0], b[0])
                : Double.compare(est.get(b[0]).get(b[1]), est.get(a[0]).get(a[1])));
    for (long[] k : order) {
      Record r = memory.get(k[0]);
      long n = exact.total(k[0]);
      rows.add(
          List.of(
              "0x" + Long.toHexString(k[0]),
              functionAt(symbols, k[0]),
              Long.toString(k[1]),
              pct(est.get(k[0]).get(k[1])),
              Long.toString(r.total),
              keepExact ? pct(n == 0 ? 0 : (double) exact.count(k[0], k[1]) / n) : "",
              keepExact ? Long.toString(n) : ""));
    }
    return valueTable(rows);
  }

  /**
   * A value profile's table, as the co-processor's and the sampler's both write it: per load and
   * value, its invariance among the samples and, where the exact count was kept, among all runs.
   */
  static ProfileTable valueTable(List<List<String>> rows) {
    return new ProfileTable(
        List.of(
            "pc", "function", "value", "invariance", "samples", "exact_invariance", "executions"),
        rows,
        List.of("pc", "value"),
        "samples");
  }

  /** A fraction as the tables print it: percent, two decimals. */
  static String pct(double f) {
    return String.format(Locale.ROOT, "%.2f", 100 * f);
  }

  @Override
  public List<String> summary() {
    List<String> out = new ArrayList<>(super.summary());
    out.add(
        String.format(
            Locale.ROOT,
            "value profile: %d loads characterised, %d replacements,"
                + " %d failed, %d thrash interrupts, %d regions in the PC filter%s",
            memory.size(),
            replacements,
            failedReplacements,
            thrashInterrupts,
            filter.regions(),
            keepExact
                ? String.format(Locale.ROOT, "; weighted RMS error %.2f%%", weightedRmsError())
                : ""));
    return out;
  }
}

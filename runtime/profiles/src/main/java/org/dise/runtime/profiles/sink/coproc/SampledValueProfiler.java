package org.dise.runtime.profiles.sink.coproc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.metrics.WeightedRms;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.NamedSink;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.ProfileTable;
import org.dise.runtime.sink.TaggedSink;

/**
 * The simple sampling value profiler the co-processor is compared with (Zilles and Sohi, Sections 2
 * and 5.3): every {@code period}-th tagged instruction interrupts the main processor, whose handler
 * records its (pc, value) in a table; a load's estimated invariance of a value is the value's share
 * of the load's samples. Each sample costs one interrupt. The runtime component {@code
 * sampled_value_profile}.
 */
public final class SampledValueProfiler extends NamedSink implements TaggedSink {
  /** The catalogue's entry for this sink ({@code sampled_value_profile}): its parameters. */
  public static final ComponentSpec SPEC =
      ComponentSpec.taggedSink(
          "sampled_value_profile",
          new ComponentSpec.Arity(0, 1, false, false),
          Set.of(),
          "interrupt-driven sampled value profile",
          List.of(
              ParamSpec.cost(0),
              ParamSpec.atLeast("period", 1, "100", "one sample per this many tagged instructions"),
              ParamSpec.integer(
                  "interrupt_cycles",
                  0,
                  Long.MAX_VALUE,
                  // An interrupt and the copy of the one slot it reads.
                  String.valueOf(
                      CoprocConfig.DEFAULT.interruptCycles() + CoprocConfig.DEFAULT.copyCycles()),
                  "cycles per sample's interrupt"),
              ParamSpec.integer("min_invariance_pct", 0, 100, "10", "least invariance reported"),
              ParamSpec.bool(
                  "jitter", "true", "randomise the distance between samples (mean: period)")));

  private final long period;
  private final long interruptCycles;
  private final int minInvariancePct;
  private final boolean jitter;
  private long lfsr = 0x2545F4914F6CDD1DL;
  private long countdown;
  private final Interrupts interrupts = new Interrupts();
  private final Map<Long, Map<Long, Long>> sampled = new TreeMap<>();
  private final ExactProfile exact = new ExactProfile();

  public SampledValueProfiler(String name, Map<String, String> given) {
    super(name);
    Map<String, String> p = SPEC.withDefaults(given);
    this.period = CoprocConfig.num(p, "period");
    this.interruptCycles = CoprocConfig.num(p, "interrupt_cycles");
    this.minInvariancePct = (int) CoprocConfig.num(p, "min_invariance_pct");
    CoprocConfig.check(period >= 1, "period", period, "at least 1");
    CoprocConfig.check(interruptCycles >= 0, "interrupt_cycles", interruptCycles, "at least 0");
    this.jitter = CoprocConfig.bool(p, "jitter");
    this.countdown = next();
  }

  /**
   * The distance to the next sample: {@code period}, or with jitter uniform in [1, 2 period - 1]
   * (mean {@code period}), so that a sampler does not alias with a loop whose values repeat with a
   * period dividing its own, as a fixed countdown does (it would see only every other value).
   */
  private long next() {
    if (!jitter || period == 1) {
      return period;
    }
    lfsr ^= lfsr << 13;
    lfsr ^= lfsr >>> 7;
    lfsr ^= lfsr << 17;
    return 1 + Long.remainderUnsigned(lfsr, 2 * period - 1);
  }

  @Override
  public void retire(DecodedInsn insn, long value, long address, long now) {
    exact.add(insn.pc, value);
    if (--countdown == 0) {
      countdown = next();
      interrupts.charge(interruptCycles);
      sampled.computeIfAbsent(insn.pc, k -> new HashMap<>()).merge(value, 1L, Long::sum);
    }
  }

  @Override
  public void record(
      GuestState guest, DecodedInsn original, long[] args, long applicationInstructions) {
    // Reached only through call(...): treat it as a retirement of the matched instruction.
    retire(original, args.length > 0 ? args[0] : 0, 0, applicationInstructions);
  }

  @Override
  public long takeInterruptCycles() {
    return interrupts.take();
  }

  /** One interrupt a sample. */
  @Override
  public long interrupts() {
    return interrupts.count();
  }

  @Override
  public long interruptCycles() {
    return interrupts.cycles();
  }

  /** pc -> value -> estimated invariance. */
  public Map<Long, Map<Long, Double>> estimates() {
    Map<Long, Map<Long, Double>> out = new TreeMap<>();
    sampled.forEach(
        (pc, m) -> {
          long n = m.values().stream().mapToLong(Long::longValue).sum();
          Map<Long, Double> e = new HashMap<>();
          m.forEach((v, c) -> e.put(v, (double) c / n));
          out.put(pc, e);
        });
    return out;
  }

  public Map<Long, Map<Long, Long>> exact() {
    return exact.asMap();
  }

  public double weightedRmsError() {
    return WeightedRms.error(estimates(), exact, minInvariancePct / 100.0);
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    List<List<String>> rows = new ArrayList<>();
    sampled.forEach(
        (pc, m) -> {
          long n = m.values().stream().mapToLong(Long::longValue).sum();
          long all = exact.total(pc);
          m.entrySet().stream()
              .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
              .forEach(
                  e ->
                      rows.add(
                          List.of(
                              "0x" + Long.toHexString(pc),
                              CoProcessor.functionAt(symbols, pc),
                              Long.toString(e.getKey()),
                              ValueProfiler.pct((double) e.getValue() / n),
                              Long.toString(e.getValue()),
                              ValueProfiler.pct(
                                  all == 0 ? 0 : (double) exact.count(pc, e.getKey()) / all),
                              Long.toString(all))));
        });
    return ValueProfiler.valueTable(rows);
  }

  @Override
  public List<String> summary() {
    return List.of(
        String.format(
            Locale.ROOT,
            "sampled value profile: 1 in %d, %d samples"
                + " (interrupts), %d main-processor cycles; weighted RMS error %.2f%%",
            period,
            interrupts.count(),
            interruptCycles(),
            weightedRmsError()));
  }
}

package org.dise.runtime.timing;

import java.util.Locale;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.RetireObserver;
import org.dise.runtime.isa.DecodedInsn;

/**
 * A timing measurement of one run: two cores of the same model fed by the committed instruction
 * stream. The profiled core sees everything (application and inserted instructions, replacement
 * stalls, handler calls); the application core sees only the application's instructions, which
 * profiling does not change, so it measures the same run without productions, with its own caches
 * and predictors unpolluted. Overhead = the difference over the application core's cycles.
 */
public final class TimingRun implements RetireObserver {
  private final TimingConfig config;
  private final Core profiled;
  private final Core alone;
  private final Retired record = new Retired();
  private long handlerFallbacks;
  private long interrupts;
  private long interruptCycles;

  /** Handlers run as code on a shadow hart; null: every handler is modelled. */
  private org.dise.runtime.timing.ShadowHandlers shadow;

  private Cpu cpu;

  public TimingRun(TimingConfig config) {
    this(config, true);
  }

  /**
   * A measurement; without {@code profiling} (a run with no productions: nothing is inserted,
   * replaced or called) one core serves as both, at half the cost.
   */
  public TimingRun(TimingConfig config, boolean profiling) {
    this.config = config;
    this.profiled = Core.of(config);
    this.alone = profiling ? Core.of(config) : profiled;
    this.period = config.integer("sample.period");
    this.unit = config.integer("sample.unit");
    this.warmup = config.integer("sample.warmup");
  }

  // Sampled timing (SMARTS: Wunderlich et al., ISCA 2003; spec/timing.md "Sampled timing"): in
  // every period of application instructions, `warmup` run in detail unmeasured, the next `unit`
  // in detail measured, the rest under functional warming (caches and predictors only).
  private final long period; // 0: every instruction in detail
  private final long unit;
  private final long warmup;
  private long applicationSeen;
  private boolean detailed = true;
  private boolean measuring;
  private long profiledStart;
  private long aloneStart;
  private long unitStart;
  private long measuredProfiled;
  private long measuredAlone;
  private long measuredInstructions;
  private long units;

  /** Moves the sampling state to the application instruction about to run. */
  private void advance() {
    long pos = applicationSeen++ % period;
    if (pos == 0 && measuring) {
      closeUnit();
    }
    if (pos == warmup) {
      measuring = true;
      profiledStart = profiled.cycles();
      aloneStart = alone.cycles();
      unitStart = applicationSeen - 1;
    } else if (pos == warmup + unit) {
      closeUnit();
    }
    detailed = pos < warmup + unit;
  }

  private void closeUnit() {
    if (!measuring) {
      return;
    }
    measuring = false;
    // The cycles up to the unit's last instruction (the one before the current one).
    long p = profiled.cycles() - profiledStart;
    long a = alone.cycles() - aloneStart;
    long n = applicationSeen - 1 - unitStart;
    measuredProfiled += p;
    measuredAlone += a;
    measuredInstructions += n;
    units++;
    if (n > 0) {
      double cpi = (double) p / n; // the profiled core's: the larger variance of the two
      cpiSum += cpi;
      cpiSquares += cpi * cpi;
    }
  }

  private double cpiSum;
  private double cpiSquares;

  /**
   * The half-width of the estimate's 95% confidence interval, relative to it (SMARTS: 1.96 times
   * the units' CPI standard deviation over the square root of their number, over the mean CPI); NaN
   * with fewer than two closed units.
   */
  public double confidence95() {
    if (units < 2 || cpiSum == 0) {
      return Double.NaN;
    }
    double mean = cpiSum / units;
    double var = Math.max(0, (cpiSquares - units * mean * mean) / (units - 1));
    return 1.96 * Math.sqrt(var / units) / mean;
  }

  /** Whether cycles are estimated from sampled units ({@code sample.period} > 0). */
  public boolean sampled() {
    return period > 0;
  }

  /** The units measured so far (a unit still open counts when the figures are read). */
  public long units() {
    return units + (measuring ? 1 : 0);
  }

  /** Installs this run on {@code cpu} (translation goes off: spec/timing.md, "The hook"). */
  public TimingRun attach(Cpu cpu) {
    this.cpu = cpu;
    cpu.setRetireObserver(this);
    if (shadow != null) {
      shadow.install(cpu.memory(), profiled);
    }
    return this;
  }

  /**
   * Runs the handlers of these sinks (sink {@code i} of the production set is element {@code i}) as
   * RISC-V code where they have one, unless {@code handler.code = false} (spec/timing.md, "Handlers
   * as real code"); call before or after {@link #attach}.
   *
   * @throws IllegalArgumentException naming a sink whose handler cannot be had
   */
  public TimingRun handlers(java.util.List<org.dise.runtime.timing.SinkHandler> sinks) {
    if (!config.bool("handler.code") || sinks.isEmpty()) {
      return this;
    }
    shadow =
        new org.dise.runtime.timing.ShadowHandlers(sinks, config.integer("handler.table_entries"));
    if (shadow.handlersRun() == 0) {
      shadow = null;
    } else if (cpu != null) {
      shadow.install(cpu.memory(), profiled);
    }
    return this;
  }

  /** The handlers run as code, or null. */
  public org.dise.runtime.timing.ShadowHandlers shadow() {
    return shadow;
  }

  @Override
  public void retire(DecodedInsn d, Cpu cpu) {
    Retired r = record.fill(d, cpu);
    if (period > 0) {
      if (!r.inserted) {
        advance();
      }
      if (!detailed) {
        profiled.warm(r);
        if (!r.inserted && alone != profiled) {
          alone.warm(r);
        }
        return;
      }
    }
    profiled.step(r);
    if (!r.inserted && alone != profiled) {
      alone.step(r);
    }
  }

  @Override
  public void replaced(DecodedInsn d, long stallCycles) {
    if (stallCycles > 0 && detailed) {
      profiled.stall(stallCycles);
    }
  }

  @Override
  public void handler(
      int sink,
      String name,
      long cycles,
      long[] args,
      DecodedInsn original,
      Cpu cpu,
      long applicationInstructions) {
    if (shadow != null && shadow.runs(sink)) {
      shadow.call(sink, original, cpu, applicationInstructions, args);
    } else {
      handler(sink, name, cycles, args);
    }
  }

  @Override
  public void handler(int sink, String name, long cycles, long[] args) {
    handlerFallbacks++;
    long key = 0;
    for (long a : args) {
      key = key * 31 + a;
    }
    if (detailed) {
      profiled.handler(sink, cycles, key);
    } else {
      profiled.warmHandler(sink, key);
    }
  }

  @Override
  public void interrupt(int sink, String name, long cycles) {
    interrupts++;
    interruptCycles += cycles;
    if (detailed) {
      profiled.interrupt(cycles);
    }
  }

  /** Co-processor interrupts charged to the profiled core, and their cycles. */
  public long interrupts() {
    return interrupts;
  }

  public long interruptCycles() {
    return interruptCycles;
  }

  public TimingConfig config() {
    return config;
  }

  /** The profiled run's figures (under sampled timing its cycles are the estimate). */
  public TimingReport profiled() {
    return estimated(profiled.report(), measuredProfiled + open(profiled, profiledStart));
  }

  /** The application's own figures (the run without productions). */
  public TimingReport application() {
    return estimated(alone.report(), measuredAlone + open(alone, aloneStart));
  }

  /** The cycles of the unit still open on {@code core}, 0 when none. */
  private long open(Core core, long start) {
    return measuring ? core.cycles() - start : 0;
  }

  /**
   * {@code r} with its cycles (and their attribution, in proportion) scaled from the measured units
   * to every application instruction: the measured cycles per application instruction times the
   * application instructions. Unchanged when not sampling, or before a unit began (then every
   * instruction so far ran in detail).
   */
  private TimingReport estimated(TimingReport r, long measured) {
    long insns = measuredInstructions + (measuring ? applicationSeen - unitStart : 0);
    if (period == 0 || insns == 0) {
      return r;
    }
    long cycles = Math.round((double) measured / insns * r.applicationInstructions());
    long total = 0;
    for (long a : r.attributed()) {
      total += a;
    }
    long[] scaled = new long[r.attributed().length];
    for (int i = 0; i < scaled.length; i++) {
      scaled[i] = total == 0 ? 0 : Math.round((double) r.attributed()[i] / total * cycles);
    }
    return new TimingReport(
        r.model(),
        cycles,
        scaled,
        r.applicationInstructions(),
        r.insertedInstructions(),
        r.handlerCalls(),
        r.l1iAccesses(),
        r.l1iMisses(),
        r.l1dAccesses(),
        r.l1dMisses(),
        r.l2Accesses(),
        r.l2Misses(),
        r.branches(),
        r.mispredictions(),
        r.loads(),
        r.stores(),
        r.fp(),
        r.l1dReadMisses(),
        r.l1dWriteMisses(),
        r.bubbleCycles(),
        r.handlerInstructions());
  }

  /** Extra cycles of the profiled run over the application's own, as a fraction. */
  public double overhead() {
    long base = application().cycles();
    return base == 0 ? 0 : (double) (profiled().cycles() - base) / base;
  }

  /** Handler calls charged from the sink's declared cost (not from running handler code). */
  public long modelledHandlerCalls() {
    return handlerFallbacks;
  }

  /** One line: the profiled run's cycles, CPI and MPKIs, and the overhead (the REPL's, sweep's). */
  public String summary() {
    TimingReport p = profiled();
    return String.format(
        Locale.ROOT,
        "%s: %,d cycles, CPI %.3f; MPKI L1I %.2f, L1D %.2f, L2 %.2f, branch %.2f;"
            + " overhead %.2f%%",
        config.model(),
        p.cycles(),
        p.cpi(),
        p.perKilo(p.l1iMisses()),
        p.perKilo(p.l1dMisses()),
        p.perKilo(p.l2Misses()),
        p.perKilo(p.mispredictions()),
        100 * overhead());
  }

  /** Handler calls run as RISC-V code (measured, not modelled). */
  public long measuredHandlerCalls() {
    return shadow == null ? 0 : shadow.totalCalls();
  }

  /** The readable report of {@code acf run --timing}. */
  public String describe() {
    TimingReport p = profiled();
    TimingReport a = application();
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "timing model             %s%n", config.model()));
    b.append(
        String.format(
            Locale.ROOT, "cycles, application alone %,d (CPI %.3f)%n", a.cycles(), a.cpi()));
    b.append(
        String.format(
            Locale.ROOT, "cycles, with profiling   %,d (CPI %.3f)%n", p.cycles(), p.cpi()));
    b.append(
        String.format(
            Locale.ROOT,
            "  attributed: application %,d, inserted %,d, handler %,d, stall %,d%n",
            p.applicationCycles(),
            p.insertedCycles(),
            p.handlerCycles(),
            p.stallCycles()));
    b.append(String.format(Locale.ROOT, "overhead                 %.2f%%%n", 100 * overhead()));
    b.append(
        String.format(
            Locale.ROOT,
            "MPKI (alone / profiled)  L1I %.3f / %.3f, L1D %.3f / %.3f, L2 %.3f / %.3f,"
                + " branch %.3f / %.3f%n",
            a.perKilo(a.l1iMisses()),
            p.perKilo(p.l1iMisses()),
            a.perKilo(a.l1dMisses()),
            p.perKilo(p.l1dMisses()),
            a.perKilo(a.l2Misses()),
            p.perKilo(p.l2Misses()),
            a.perKilo(a.mispredictions()),
            p.perKilo(p.mispredictions())));
    b.append(
        String.format(
            Locale.ROOT,
            "misses, application alone L1I %,d, L1D %,d of %,d accesses, L2 %,d;"
                + " mispredictions %,d of %,d%n",
            a.l1iMisses(),
            a.l1dMisses(),
            a.l1dAccesses(),
            a.l2Misses(),
            a.mispredictions(),
            a.branches()));
    if (config.model().equals("inorder")) {
      b.append(EventEnergy.of(config).describe(a, p)).append(String.format("%n"));
    }
    if (period > 0) {
      b.append(
          String.format(
              Locale.ROOT,
              "sampled timing: cycles estimated from %,d units of %,d application instructions,"
                  + " one every %,d after %,d in detail unmeasured; caches and predictors warmed"
                  + " in between (MPKIs are of every instruction); 95%% confidence +-%.1f%%%s%n",
              units(),
              unit,
              period,
              warmup,
              100 * confidence95(),
              units < 30
                  ? " (fewer than 30 units: not reliable, a shorter --timing-sample period gives"
                      + " more)"
                  : ""));
    }
    if (interrupts > 0) {
      b.append(
          String.format(
              Locale.ROOT,
              "co-processor interrupts   %,d, charged %,d cycles, each draining the pipeline%n",
              interrupts,
              interruptCycles));
    }
    if (shadow != null && shadow.totalCalls() > 0) {
      b.append(
          String.format(
              Locale.ROOT,
              "handler cycles are measured: %,d calls ran %,d handler instructions (%.1f per"
                  + " call) as RISC-V code on a shadow hart%n",
              shadow.totalCalls(),
              shadow.totalInstructions(),
              (double) shadow.totalInstructions() / shadow.totalCalls()));
      for (int i = 0; i < shadow.size(); i++) {
        if (shadow.calls(i) > 0) {
          b.append(
              String.format(
                  Locale.ROOT,
                  "  %s: %,d calls, %.1f instructions each (%s)%n",
                  shadow.name(i),
                  shadow.calls(i),
                  (double) shadow.instructions(i) / shadow.calls(i),
                  shadow.origin(i)));
        }
      }
    }
    if (handlerFallbacks > 0) {
      b.append(
          String.format(
              Locale.ROOT,
              "handler cycles are modelled, not measured: %,d calls charged their sink's cost"
                  + " plus the misses of a modelled handler's code and table entry%n",
              handlerFallbacks));
    }
    return b.toString();
  }

  /** The figures as a JSON object (summary.json's {@code timing}). */
  public String toJson() {
    String energy = "";
    if (config.model().equals("inorder")) {
      EventEnergy e = EventEnergy.of(config);
      energy =
          String.format(
              Locale.ROOT,
              ", \"energy_joules_application\": %.6g, \"energy_joules_profiled\": %.6g",
              e.of(application()).total(),
              e.of(profiled()).total());
    }
    return String.format(
        Locale.ROOT,
        "{\"model\": \"%s\", \"overhead\": %.6f, \"modelled_handler_calls\": %d,"
            + " \"interrupts\": %d, \"interrupt_cycles\": %d, \"sample_units\": %d,"
            + " \"sample_ci95\": %s%s,"
            + " \"measured_handler_calls\": %d, \"handler_instructions\": %d,"
            + " \"application\": {%s}, \"profiled\": {%s}}",
        config.model(),
        overhead(),
        handlerFallbacks,
        interrupts,
        interruptCycles,
        period > 0 ? units() : 0,
        Double.isNaN(confidence95()) ? "null" : String.format(Locale.ROOT, "%.6f", confidence95()),
        energy,
        measuredHandlerCalls(),
        shadow == null ? 0 : shadow.totalInstructions(),
        application().jsonMembers(),
        profiled().jsonMembers());
  }
}

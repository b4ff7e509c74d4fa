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

  /** Handlers run as code on a shadow hart; null: every handler is modelled. */
  private org.dise.runtime.timing.handler.ShadowHandlers shadow;

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
  public TimingRun handlers(java.util.List<org.dise.runtime.timing.handler.SinkHandler> sinks) {
    if (!config.bool("handler.code") || sinks.isEmpty()) {
      return this;
    }
    shadow =
        new org.dise.runtime.timing.handler.ShadowHandlers(
            sinks, config.integer("handler.table_entries"));
    if (shadow.handlersRun() == 0) {
      shadow = null;
    } else if (cpu != null) {
      shadow.install(cpu.memory(), profiled);
    }
    return this;
  }

  /** The handlers run as code, or null. */
  public org.dise.runtime.timing.handler.ShadowHandlers shadow() {
    return shadow;
  }

  @Override
  public void retire(DecodedInsn d, Cpu cpu) {
    Retired r = record.fill(d, cpu);
    profiled.step(r);
    if (!r.inserted && alone != profiled) {
      alone.step(r);
    }
  }

  @Override
  public void replaced(DecodedInsn d, long stallCycles) {
    if (stallCycles > 0) {
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
    profiled.handler(sink, cycles, key);
  }

  public TimingConfig config() {
    return config;
  }

  /** The profiled run's figures. */
  public TimingReport profiled() {
    return profiled.report();
  }

  /** The application's own figures (the run without productions). */
  public TimingReport application() {
    return alone.report();
  }

  /** Extra cycles of the profiled run over the application's own, as a fraction. */
  public double overhead() {
    long base = alone.cycles();
    return base == 0 ? 0 : (double) (profiled.cycles() - base) / base;
  }

  /** Handler calls charged from the sink's declared cost (not from running handler code). */
  public long modelledHandlerCalls() {
    return handlerFallbacks;
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
    return String.format(
        Locale.ROOT,
        "{\"model\": \"%s\", \"overhead\": %.6f, \"modelled_handler_calls\": %d,"
            + " \"measured_handler_calls\": %d, \"handler_instructions\": %d,"
            + " \"application\": {%s}, \"profiled\": {%s}}",
        config.model(),
        overhead(),
        handlerFallbacks,
        measuredHandlerCalls(),
        shadow == null ? 0 : shadow.totalInstructions(),
        application().jsonMembers(),
        profiled().jsonMembers());
  }
}

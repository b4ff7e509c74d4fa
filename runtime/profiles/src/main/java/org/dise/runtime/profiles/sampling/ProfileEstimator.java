package org.dise.runtime.profiles.sampling;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dise.runtime.dise.TriggerDriver;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.sink.Sink;
import org.dise.runtime.trigger.Trigger;

/**
 * Scales a sampled profile into a whole-program estimate (phase-based remote profiling paper,
 * Section 3.2): each sampled interval's part of every sink's profile, times what the trigger says
 * the interval stands for ({@link Trigger#scale}: N for periodic, P for random, the phase's
 * instructions over its sampled ones for phase-aware sampling). The parts are the differences of
 * the sinks' tables between interval boundaries.
 */
public final class ProfileEstimator implements TriggerDriver.Listener {
  private final List<Sink> sinks;
  private final SymbolTable symbols;
  private Map<String, Map<String, Long>> last;

  /** Per sampled interval, per sink, what it added. */
  private final Map<Long, Map<String, Map<String, Long>>> parts = new TreeMap<>();

  public ProfileEstimator(List<Sink> sinks, SymbolTable symbols) {
    this.sinks = sinks;
    this.symbols = symbols;
    this.last = snapshot();
  }

  @Override
  public void endInterval(long index, long instructions, boolean sampled, boolean nextSampled) {
    if (!sampled && !nextSampled) {
      return; // nothing recorded since the last look, and nothing to start from
    }
    Map<String, Map<String, Long>> now = snapshot();
    if (sampled) {
      Map<String, Map<String, Long>> part = new LinkedHashMap<>();
      for (Map.Entry<String, Map<String, Long>> s : now.entrySet()) {
        Map<String, Long> before = last.getOrDefault(s.getKey(), Map.of());
        Map<String, Long> d = new HashMap<>();
        s.getValue()
            .forEach(
                (k, v) -> {
                  long diff = v - before.getOrDefault(k, 0L);
                  if (diff != 0) {
                    d.put(k, diff);
                  }
                });
        part.put(s.getKey(), d);
      }
      parts.put(index, part);
    }
    last = now;
  }

  /** What sampled interval {@code index} added to each sink's profile, or null if unsampled. */
  public Map<String, Map<String, Long>> part(long index) {
    return parts.get(index);
  }

  /** The current profile of every sink by name, as {@code ProfileTable.weights()} gives it. */
  public Map<String, Map<String, Long>> snapshot() {
    Map<String, Map<String, Long>> out = new LinkedHashMap<>();
    for (Sink s : sinks) {
      out.put(s.name(), s.table(symbols).weights());
    }
    return out;
  }

  /** The whole-program estimate of every sink, scaled by {@code trigger}. */
  public Map<String, Map<String, Double>> estimate(Trigger trigger) {
    Map<String, Map<String, Double>> out = new LinkedHashMap<>();
    for (Sink s : sinks) {
      out.put(s.name(), new LinkedHashMap<>());
    }
    parts.forEach(
        (index, part) -> {
          double scale = trigger.scale(index);
          part.forEach(
              (sink, d) -> {
                Map<String, Double> e = out.computeIfAbsent(sink, k -> new LinkedHashMap<>());
                d.forEach((k, v) -> e.merge(k, v * scale, Double::sum));
              });
        });
    return out;
  }
}

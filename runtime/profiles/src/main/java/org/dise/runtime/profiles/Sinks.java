package org.dise.runtime.profiles;

import java.util.List;
import java.util.Map;
import org.dise.runtime.dise.Catalogue;
import org.dise.runtime.profiles.sink.AggregationMap;
import org.dise.runtime.profiles.sink.BasicBlockVectors;
import org.dise.runtime.profiles.sink.BurstTrace;
import org.dise.runtime.profiles.sink.CallPairCounter;
import org.dise.runtime.profiles.sink.CallingContext;
import org.dise.runtime.profiles.sink.HistogramMap;
import org.dise.runtime.profiles.sink.MethodCounter;
import org.dise.runtime.profiles.sink.PathCounter;
import org.dise.runtime.profiles.sink.RegionCounter;
import org.dise.runtime.profiles.sink.StreamFinder;
import org.dise.runtime.profiles.sink.Watchpoint;
import org.dise.runtime.profiles.sink.coproc.EdgeProfiler;
import org.dise.runtime.profiles.sink.coproc.SampledValueProfiler;
import org.dise.runtime.profiles.sink.coproc.ValueProfiler;
import org.dise.runtime.profiles.sink.rap.RapSink;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.Sink;
import org.dise.runtime.sink.SinkBinding;
import org.dise.runtime.sink.SinkParams;

/** Creates the runtime sink a binding names. */
public final class Sinks {
  private Sinks() {}

  /** The components this runtime implements: every sink of the catalogue. */
  public static final List<String> IMPLEMENTED =
      ProfileSinks.COMPONENTS.stream().map(ComponentSpec::name).toList();

  /** A new sink for {@code component} with its default parameters. */
  public static Sink create(String component, String name) {
    return create(new SinkBinding(name, component, 0, Map.of()));
  }

  /**
   * A new sink for a binding, configured from its parameters.
   *
   * @throws IllegalArgumentException naming the component when this runtime has none such, or the
   *     parameter whose value it cannot use
   */
  public static Sink create(SinkBinding b) {
    try {
      return configured(b);
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw m.startsWith("sink `")
          ? e
          : new IllegalArgumentException("sink `" + b.name() + "`: " + m);
    }
  }

  private static Sink configured(SinkBinding b) {
    String name = b.name();
    Map<String, String> p = b.params();
    // The catalogue's ranges first, so a configuration is refused as the compiler refuses it.
    Catalogue.require("sink", name, b.component(), p);
    return switch (b.component()) {
      case "count_map" -> new AggregationMap(name, AggregationMap.Aggregate.COUNT, 0);
      case "sum_map" -> new AggregationMap(name, AggregationMap.Aggregate.SUM, 0);
      case "min_map" -> new AggregationMap(name, AggregationMap.Aggregate.MIN, 0);
      case "max_map" -> new AggregationMap(name, AggregationMap.Aggregate.MAX, 0);
      case "avg_map" -> new AggregationMap(name, AggregationMap.Aggregate.AVG, 0);
      case "state_map" ->
          new AggregationMap(
              name, AggregationMap.Aggregate.STATE, SinkParams.number(p, "missing", 0));
      case "hist_map" ->
          "linear".equals(p.get("kind"))
              ? HistogramMap.linear(
                  name,
                  SinkParams.number(p, "lo", 0),
                  SinkParams.number(p, "hi", 0),
                  SinkParams.number(p, "step", 1))
              : HistogramMap.log2(name);
      case "rap_tree" -> new RapSink(name, p);
      case "value_profile" -> new ValueProfiler(name, p);
      case "sampled_value_profile" -> new SampledValueProfiler(name, p);
      case "edge_profile" -> new EdgeProfiler(name, p);
      case "region_counter" -> new RegionCounter(name);
      case "method_counter" -> new MethodCounter(name);
      case "call_pair_counter" -> new CallPairCounter(name);
      case "path_counter" -> new PathCounter(name);
      case "calling_context" ->
          new CallingContext(
              name,
              (int) param(b, "max_depth", CallingContext.DEFAULT_MAX_DEPTH, 1),
              !"false".equals(p.getOrDefault("unwind", "true")));
      case "watchpoint" ->
          new Watchpoint(name, param(b, "address", 0, Long.MIN_VALUE), param(b, "length", 1, 1));
      case "bbv" ->
          new BasicBlockVectors(
              name,
              param(b, "interval", BasicBlockVectors.DEFAULT_INTERVAL, 1),
              (int) param(b, "buckets", 0, 0));
      case "burst_trace" ->
          new BurstTrace(
              name,
              !"false".equals(p.getOrDefault("streams", "true")),
              (int) param(b, "capacity", BurstTrace.DEFAULT_CAPACITY, 1),
              new StreamFinder(
                  (int) param(b, "min_length", StreamFinder.MIN_LENGTH, 1),
                  (int) param(b, "max_length", StreamFinder.MAX_LENGTH, 1),
                  param(b, "coverage_pct", StreamFinder.COVERAGE_PCT, 1)));
      default ->
          throw new IllegalArgumentException(
              "sink `"
                  + name
                  + "` is bound to `"
                  + b.component()
                  + "`, which this runtime does not implement yet (it has "
                  + String.join(", ", IMPLEMENTED)
                  + ")");
    };
  }

  private static long param(SinkBinding b, String key, long dflt, long min) {
    long n;
    try {
      n = SinkParams.number(b.params(), key, dflt);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("sink `" + b.name() + "`: " + e.getMessage());
    }
    boolean wide = key.equals("interval") || key.equals("address") || key.equals("length");
    if (n < min || n > Integer.MAX_VALUE && !wide) {
      throw new IllegalArgumentException(
          "sink `"
              + b.name()
              + "`: "
              + key
              + " must be at least "
              + min
              + (wide ? "" : " and fit 31 bits")
              + ", got "
              + n);
    }
    return n;
  }
}

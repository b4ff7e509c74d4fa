package org.dise.runtime.profiles;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.profiles.sink.AggregationMap;
import org.dise.runtime.profiles.sink.BasicBlockVectors;
import org.dise.runtime.profiles.sink.BurstTrace;
import org.dise.runtime.profiles.sink.CallPairCounter;
import org.dise.runtime.profiles.sink.CallingContext;
import org.dise.runtime.profiles.sink.HistogramMap;
import org.dise.runtime.profiles.sink.MethodCounter;
import org.dise.runtime.profiles.sink.PathCounter;
import org.dise.runtime.profiles.sink.RegionCounter;
import org.dise.runtime.profiles.sink.Watchpoint;
import org.dise.runtime.profiles.sink.coproc.EdgeProfiler;
import org.dise.runtime.profiles.sink.coproc.SampledValueProfiler;
import org.dise.runtime.profiles.sink.coproc.ValueProfiler;
import org.dise.runtime.profiles.sink.rap.RapSink;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.Sink;
import org.dise.runtime.sink.SinkBinding;
import org.dise.runtime.sink.SinkProvider;

/** The profiles module's {@link SinkProvider}: every sink component of {@link Sinks}. */
public final class ProfileSinks implements SinkProvider {
  /**
   * Every sink's spec, each declared beside its code, in the order of the catalogue's table
   * (spec/acf-language.md, section 7).
   */
  static final List<ComponentSpec> COMPONENTS =
      components(
          RegionCounter.SPEC,
          MethodCounter.SPEC,
          CallPairCounter.SPEC,
          PathCounter.SPEC,
          CallingContext.SPEC,
          BasicBlockVectors.SPEC,
          BurstTrace.SPEC,
          RapSink.SPEC,
          ValueProfiler.SPEC,
          EdgeProfiler.SPEC,
          SampledValueProfiler.SPEC,
          Watchpoint.SPEC,
          AggregationMap.COUNT_SPEC);

  private static List<ComponentSpec> components(ComponentSpec... first) {
    List<ComponentSpec> all = new ArrayList<>(List.of(first));
    all.addAll(AggregationMap.VALUE_SPECS);
    all.add(HistogramMap.SPEC);
    all.add(AggregationMap.STATE_SPEC);
    return List.copyOf(all);
  }

  @Override
  public Sink create(SinkBinding binding) {
    return Sinks.create(binding);
  }

  @Override
  public List<ComponentSpec> components() {
    return COMPONENTS;
  }
}

package org.dise.runtime.sink;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.sink.coproc.EdgeProfiler;
import org.dise.runtime.sink.coproc.SampledValueProfiler;
import org.dise.runtime.sink.coproc.ValueProfiler;
import org.dise.runtime.sink.rap.RapSink;

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

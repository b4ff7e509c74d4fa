package org.dise.runtime.sink;

import java.util.List;
import java.util.Map;
import org.dise.runtime.sink.coproc.EdgeProfiler;
import org.dise.runtime.sink.coproc.SampledValueProfiler;
import org.dise.runtime.sink.coproc.ValueProfiler;
import org.dise.runtime.sink.rap.RapSink;

/** Creates the runtime sink a binding names. */
public final class Sinks {
  private Sinks() {}

  /** The components this runtime implements. */
  public static final List<String> IMPLEMENTED =
      List.of("region_counter", "method_counter", "call_pair_counter", "rap_tree",
          "value_profile", "sampled_value_profile", "edge_profile");

  /** The components that take instructions tagged at decode ({@code tag(sink)}). */
  public static final List<String> TAGGED =
      List.of("rap_tree", "value_profile", "sampled_value_profile", "edge_profile");

  /**
   * A new sink for {@code component}.
   *
   * @throws IllegalArgumentException naming the component when this runtime has none such
   */
  public static Sink create(String component, String name) {
    return create(component, name, Map.of());
  }

  /**
   * A new sink for {@code component} with the binding's parameters.
   *
   * @throws IllegalArgumentException naming the component when this runtime has none such, or
   *     the parameter a component refuses
   */
  public static Sink create(String component, String name, Map<String, String> params) {
    return switch (component) {
      case "rap_tree" -> new RapSink(name, params);
      case "value_profile" -> new ValueProfiler(name, params);
      case "sampled_value_profile" -> new SampledValueProfiler(name, params);
      case "edge_profile" -> new EdgeProfiler(name, params);
      case "region_counter" -> new RegionCounter(name);
      case "method_counter" -> new MethodCounter(name);
      case "call_pair_counter" -> new CallPairCounter(name);
      default -> throw new IllegalArgumentException("sink `" + name + "` is bound to `"
          + component + "`, which this runtime does not implement yet (it has "
          + String.join(", ", IMPLEMENTED) + ")");
    };
  }
}

package org.dise.runtime.sink;

import java.util.List;

/** Creates the runtime sink a binding names. */
public final class Sinks {
  private Sinks() {}

  /** The components this runtime implements. */
  public static final List<String> IMPLEMENTED =
      List.of("region_counter", "method_counter", "call_pair_counter");

  /**
   * A new sink for {@code component}.
   *
   * @throws IllegalArgumentException naming the component when this runtime has none such
   */
  public static Sink create(String component, String name) {
    return switch (component) {
      case "region_counter" -> new RegionCounter(name);
      case "method_counter" -> new MethodCounter(name);
      case "call_pair_counter" -> new CallPairCounter(name);
      default -> throw new IllegalArgumentException("sink `" + name + "` is bound to `"
          + component + "`, which this runtime does not implement yet (it has "
          + String.join(", ", IMPLEMENTED) + ")");
    };
  }
}

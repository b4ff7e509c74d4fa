package org.dise.runtime.sink;

import java.util.Map;

/**
 * A sink name bound to a runtime profile component with its parameters; {@code cost} is the handler
 * cycles each call is charged (Section 3.5).
 */
public record SinkBinding(String name, String component, long cost, Map<String, String> params) {
  public SinkBinding {
    params = Map.copyOf(params);
  }
}

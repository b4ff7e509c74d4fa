package org.dise.runtime.timing;

import java.util.Map;

/**
 * What the timing model needs to know of one sink of a production set to run its handler: its name,
 * its component (which picks the library handler) and its parameters (a {@code handler =} of its
 * own, a table or interval size). Sink {@code i} of the set is element {@code i}.
 */
public record SinkHandler(String name, String component, Map<String, String> params) {
  public SinkHandler {
    params = Map.copyOf(params);
  }
}

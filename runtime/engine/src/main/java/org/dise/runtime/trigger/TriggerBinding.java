package org.dise.runtime.trigger;

import java.util.Map;

/** A trigger name bound to a runtime trigger component (Section 3.4) with its parameters. */
public record TriggerBinding(String name, String component, Map<String, String> params) {
  public TriggerBinding {
    params = Map.copyOf(params);
  }
}

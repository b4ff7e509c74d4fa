package org.dise.compiler.sem;

import java.util.Map;
import org.dise.compiler.diag.Span;

/**
 * A sink or trigger bound to a runtime component with named parameters. {@code name} is unique in
 * the program (instances of a block qualify it: {@code hot_methods#1.handler}).
 */
public record Component(String name, String component, Map<String, Value> params, Span span) {
  public Component {
    params = Map.copyOf(params);
  }
}

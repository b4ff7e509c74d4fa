package org.dise.runtime.sink;

import java.util.List;
import org.dise.runtime.dise.SinkBinding;

/** The profiles module's {@link SinkProvider}: every sink component of {@link Sinks}. */
public final class ProfileSinks implements SinkProvider {
  @Override
  public Sink create(SinkBinding binding) {
    return Sinks.create(binding);
  }

  @Override
  public List<String> tagged() {
    return Sinks.TAGGED;
  }
}

package org.dise.runtime.sink;

import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Where an engine gets its sink implementations. The engine knows only the {@link Sink} interface;
 * the profiles module registers the implementations through {@link ServiceLoader}, so a deployable
 * configuration runs on the runtime modules alone and nothing imports upward.
 */
public interface SinkProvider {
  /**
   * A new sink for a binding, configured from its parameters.
   *
   * @throws IllegalArgumentException naming the sink and what cannot be used
   */
  Sink create(SinkBinding binding);

  /**
   * The sink components this provider implements, each declared beside its code, in documentation
   * order; {@link Catalogue} collects them.
   */
  List<ComponentSpec> components();

  /** The components that take tagged instructions ({@code tag(sink)}). */
  default List<String> tagged() {
    return components().stream().filter(ComponentSpec::tagged).map(ComponentSpec::name).toList();
  }

  /** Every provider on the class path, in {@link ServiceLoader} order. */
  static List<SinkProvider> all() {
    return Installed.ALL;
  }

  /** The provider on the class path: the first one {@link ServiceLoader} finds. */
  static SinkProvider installed() {
    return Installed.PROVIDER.orElseThrow(
        () ->
            new IllegalStateException(
                "no sink implementations on the class path (the acf-profiles module is missing)"));
  }

  /** Looked up once, on first use. */
  final class Installed {
    private static final List<SinkProvider> ALL =
        ServiceLoader.load(SinkProvider.class).stream().map(ServiceLoader.Provider::get).toList();
    private static final Optional<SinkProvider> PROVIDER = ALL.stream().findFirst();

    private Installed() {}
  }
}

package org.dise.runtime.sink;

import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Supplier;

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

  /**
   * Every provider: those {@link #linked} named, else those on the class path in {@link
   * ServiceLoader} order.
   */
  static List<SinkProvider> all() {
    return Installed.all();
  }

  /**
   * Names where this process's providers come from, before any is asked for, instead of the
   * class-path scan: for an application that links its sinks (acf's command line links the profiles
   * module's). The scan read the services file out of the jar, and opening a shaded jar's directory
   * for it cost every run with productions several milliseconds. {@code providers} is called once,
   * on first use, so a run that needs no sink loads none.
   */
  static void linked(Supplier<List<SinkProvider>> providers) {
    Installed.source = providers;
  }

  /** The first provider of {@link #all}. */
  static SinkProvider installed() {
    return Installed.all().stream()
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no sink implementations on the class path (the acf-profiles module is missing)"));
  }

  /** Linked, or looked up once on first use. */
  final class Installed {
    private static volatile Supplier<List<SinkProvider>> source =
        () ->
            ServiceLoader.load(SinkProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .toList();
    private static List<SinkProvider> all;

    private Installed() {}

    static synchronized List<SinkProvider> all() {
      if (all == null) {
        all = List.copyOf(source.get());
      }
      return all;
    }
  }
}

package org.dise.runtime.sink;

/**
 * What every sink keeps of its binding: the name the productions call it by. A sink extends this
 * rather than holding and returning the name itself.
 */
public abstract class NamedSink implements Sink {
  private final String name;

  protected NamedSink(String name) {
    this.name = name;
  }

  @Override
  public final String name() {
    return name;
  }
}

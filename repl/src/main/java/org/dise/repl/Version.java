package org.dise.repl;

import picocli.CommandLine.IVersionProvider;

/** Version string printed by {@code acf --version}. */
public final class Version implements IVersionProvider {
  public static final String VERSION = "0.1.0";

  @Override
  public String[] getVersion() {
    return new String[] {"acf " + VERSION + " (Java " + System.getProperty("java.version") + ")"};
  }
}

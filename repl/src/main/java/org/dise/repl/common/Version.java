package org.dise.repl.common;

import org.dise.runtime.cli.RuntimeMain;
import picocli.CommandLine.IVersionProvider;

/** Version string printed by {@code acf --version}: the build's version and commit. */
public final class Version implements IVersionProvider {
  /** The version and commit, as the build recorded them ({@code 0.1.0 (commit 1a2b3c)}). */
  public static final String VERSION = RuntimeMain.version();

  @Override
  public String[] getVersion() {
    return new String[] {"acf " + VERSION + " (Java " + System.getProperty("java.version") + ")"};
  }
}

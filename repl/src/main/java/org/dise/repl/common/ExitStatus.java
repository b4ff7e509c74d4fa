package org.dise.repl.common;

/**
 * The exit statuses of every {@code acf} command, in one small class so that commands, the REPL and
 * the LSP need not reach up to {@link Main} for them (which made a circle between {@code Main} and
 * the shell package).
 */
public final class ExitStatus {
  /** Exit status when the guest or a check failed. */
  public static final int FAILURE = org.dise.runtime.session.SessionError.FAILURE;

  /** Exit status for a usage error. */
  public static final int USAGE = org.dise.runtime.session.SessionError.USAGE;

  private ExitStatus() {}
}

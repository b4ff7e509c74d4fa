package org.dise.repl;

import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.Settings;
import picocli.CommandLine;

/**
 * Turns an unexpected exception into a one-paragraph message: a user never sees a Java stack trace
 * (set ACF_DEBUG=1 to get one).
 */
final class ErrorHandler implements CommandLine.IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(
      Exception ex, CommandLine cl, CommandLine.ParseResult parseResult) {
    if (ex instanceof org.dise.runtime.session.SessionError ue) {
      System.err.println("acf: " + ue.getMessage());
      return ue.status();
    }
    System.err.println("acf: internal error: " + ex);
    if (Settings.get("ACF_DEBUG") != null) {
      ex.printStackTrace();
    } else {
      System.err.println("acf: (set ACF_DEBUG=1 for the stack trace, and please report it)");
    }
    return ExitStatus.FAILURE;
  }
}

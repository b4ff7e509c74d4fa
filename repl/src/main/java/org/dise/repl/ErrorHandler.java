package org.dise.repl;

import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.Verbosity;
import picocli.CommandLine;

/**
 * Turns an unexpected exception into a one-paragraph message: a user never sees a Java stack trace
 * (--verbose or ACF_DEBUG=1 gives one).
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
    if (Verbosity.verbose()) {
      ex.printStackTrace();
    } else {
      System.err.println(
          "acf: (run with --verbose or ACF_DEBUG=1 for the stack trace, and please report it)");
    }
    return ExitStatus.FAILURE;
  }
}

package org.dise.repl.shell;

/** A mistake in a REPL command: printed as {@code error: message}, and the session goes on. */
final class ReplError extends RuntimeException {
  ReplError(String message) {
    super(message, null, false, false);
  }
}

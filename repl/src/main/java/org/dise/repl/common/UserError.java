package org.dise.repl.common;

import org.dise.runtime.session.SessionError;

/**
 * An error caused by the user's input, reported as a message with an exit status: the front ends'
 * name for the session's {@link SessionError} (whose {@code why} words an I/O failure).
 */
public final class UserError extends SessionError {
  public UserError(String message, int status) {
    super(message, status);
  }

  public UserError(String message) {
    super(message);
  }
}

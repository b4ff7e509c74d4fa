package org.dise.repl;

/** An error caused by the user's input, reported as a message with an exit status. */
public final class UserError extends RuntimeException {
  private final int status;

  public UserError(String message, int status) {
    super(message, null, false, false);
    this.status = status;
  }

  public UserError(String message) {
    this(message, Main.EXIT_FAILURE);
  }

  public int status() {
    return status;
  }
}

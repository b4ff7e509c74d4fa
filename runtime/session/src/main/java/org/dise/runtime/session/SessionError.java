package org.dise.runtime.session;

import java.io.IOException;

/**
 * A problem with what a session was asked to do (a missing program, an ACF that does not fit, a
 * parameter out of range), reported as one line and an exit status; never a stack trace. Front ends
 * print the message their own way ({@code acf: }, {@code error: }, {@code acf-runtime: }).
 */
public class SessionError extends RuntimeException {
  /** The status of a run or check that failed. */
  public static final int FAILURE = 1;

  /** The status of a usage error (options that do not go together, a bad value). */
  public static final int USAGE = 2;

  private final int status;

  public SessionError(String message, int status) {
    super(message, null, false, false);
    this.status = status;
  }

  public SessionError(String message) {
    this(message, FAILURE);
  }

  public int status() {
    return status;
  }

  /**
   * Why an I/O operation failed, in words: Java's NoSuchFileException and AccessDeniedException
   * carry only the path as their message, which printed as "x: cannot write: x".
   */
  public static String why(IOException e) {
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}

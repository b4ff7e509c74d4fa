package org.dise.repl;

/** An error caused by the user's input, reported as a message with an exit status. */
public final class UserError extends RuntimeException {
  private final int status;

  public UserError(String message, int status) {
    super(message, null, false, false);
    this.status = status;
  }

  public UserError(String message) {
    this(message, ExitStatus.FAILURE);
  }

  public int status() {
    return status;
  }

  /**
   * Why an I/O operation failed, in words: Java's NoSuchFileException and AccessDeniedException
   * carry only the path as their message, which printed as "x: cannot write: x".
   */
  public static String why(java.io.IOException e) {
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

package org.dise.center;

/** An upload or request the center refuses: the HTTP status and a message for the sender. */
public final class UploadException extends Exception {
  private final int status;

  public UploadException(int status, String message) {
    super(message);
    this.status = status;
  }

  public int status() {
    return status;
  }
}

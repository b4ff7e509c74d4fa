package org.dise.center;

/** The store cannot do what was asked (unreachable, busy, a newer schema); the message says why. */
public final class StoreException extends Exception {
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}

package org.dise.experiments;

/** A problem the user can fix (a bad option, a missing program, an unwritable directory). */
public final class ExperimentException extends RuntimeException {
  public ExperimentException(String message) {
    super(message);
  }
}

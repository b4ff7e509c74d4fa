package org.dise.runtime.linux;

/** A system call refused with an errno, thrown from deep inside path or descriptor handling. */
final class Refused extends Exception {
  final int errno;

  Refused(int errno) {
    super(null, null, false, false);
    this.errno = errno;
  }
}

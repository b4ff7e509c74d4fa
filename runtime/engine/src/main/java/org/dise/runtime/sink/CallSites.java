package org.dise.runtime.sink;

/**
 * A sink that wants to know, before the run, what its call sites pass: per argument position,
 * whether every call passes a static code address ({@code T.PC} or {@code T.TARGET}), so that a
 * map's key column of code addresses gets a {@code function} column beside it.
 */
public interface CallSites {
  /** {@code codeAddress[i]}: every call passes a code address as argument {@code i}. */
  void callSites(int arguments, boolean[] codeAddress);
}

package org.dise.runtime.profiles.sink;

import java.util.Arrays;

/** A map's key: 1 to 4 parts, compared as signed numbers part by part. */
final class KeyTuple implements Comparable<KeyTuple> {
  final long[] parts;
  private final int hash;

  KeyTuple(long[] args, int n) {
    this.parts = Arrays.copyOf(args, n);
    this.hash = Arrays.hashCode(parts);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyTuple k && Arrays.equals(parts, k.parts);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public int compareTo(KeyTuple o) {
    return Arrays.compare(parts, o.parts);
  }
}

package org.dise.runtime.isa;

/** Raised by the decoder for an encoding that is not a (legal) RV64GC instruction. */
public final class IllegalInstructionException extends RuntimeException {
  private final int raw;
  private final int size;

  public IllegalInstructionException(int raw, int size, String why) {
    super(why, null, false, false);
    this.raw = raw;
    this.size = size;
  }

  public int raw() {
    return raw;
  }

  public int size() {
    return size;
  }
}

package org.dise.runtime.timing;

/** The return-address stack: a call pushes its return address, a return pops its prediction. */
public final class ReturnAddressStack {
  private final long[] stack;
  private int top; // entries pushed, modulo the size: an overflow overwrites the oldest

  public ReturnAddressStack(int entries) {
    this.stack = new long[Math.max(1, entries)];
  }

  public void push(long returnAddress) {
    stack[top++ % stack.length] = returnAddress;
  }

  /** Pops a prediction; true when it was {@code target}. */
  public boolean pop(long target) {
    if (top == 0) {
      return false;
    }
    return stack[--top % stack.length] == target;
  }
}

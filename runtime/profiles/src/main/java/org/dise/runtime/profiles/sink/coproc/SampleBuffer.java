package org.dise.runtime.profiles.sink.coproc;

/**
 * The sample buffer between the main processor's retirement stage and the profiling co-processor
 * (Zilles and Sohi, Section 3.1): it holds the records of retired tagged instructions until the
 * co-processor, which takes a fixed number of cycles per sample, gets to them; a record that
 * retires into a full buffer is dropped ("profiling information need not be complete", Section
 * 3.2).
 */
public final class SampleBuffer {
  /** What the co-processor does with one sample. */
  public interface Consumer {
    void process(long pc, long value, long address);
  }

  private final long[] pc;
  private final long[] value;
  private final long[] address;
  private final long[] arrival;
  private final int serviceCycles;
  private int head;
  private int size;

  /** When the co-processor finishes the sample it is working on. */
  private long busyUntil;

  private long offered;
  private long dropped;
  private long processed;
  private int maxOccupancy;

  public SampleBuffer(int capacity, int serviceCycles) {
    this.pc = new long[capacity];
    this.value = new long[capacity];
    this.address = new long[capacity];
    this.arrival = new long[capacity];
    this.serviceCycles = serviceCycles;
  }

  /**
   * A record retiring at main-processor time {@code now}: first the co-processor catches up on what
   * it had time to process, then the record enters the buffer, or is dropped when it is full.
   * Returns false when it was dropped.
   */
  public boolean offer(long now, long insnPc, long insnValue, long insnAddress, Consumer c) {
    drain(now, c);
    offered++;
    if (size == pc.length) {
      dropped++;
      return false;
    }
    int i = (head + size) % pc.length;
    pc[i] = insnPc;
    value[i] = insnValue;
    address[i] = insnAddress;
    arrival[i] = now;
    size++;
    maxOccupancy = Math.max(maxOccupancy, size);
    return true;
  }

  /** Processes every sample the co-processor has finished by time {@code now}. */
  public void drain(long now, Consumer c) {
    while (size > 0) {
      long done = Math.max(busyUntil, arrival[head]) + serviceCycles;
      if (done > now) {
        return;
      }
      busyUntil = done;
      take(c);
    }
  }

  /** Processes everything still buffered (the end of the run). */
  public void flush(Consumer c) {
    while (size > 0) {
      busyUntil = Math.max(busyUntil, arrival[head]) + serviceCycles;
      take(c);
    }
  }

  private void take(Consumer c) {
    int i = head;
    head = (head + 1) % pc.length;
    size--;
    processed++;
    c.process(pc[i], value[i], address[i]);
  }

  public int capacity() {
    return pc.length;
  }

  public long offered() {
    return offered;
  }

  public long dropped() {
    return dropped;
  }

  public long processed() {
    return processed;
  }

  /** The fullest the buffer ever was: it never exceeds {@link #capacity()}. */
  public int maxOccupancy() {
    return maxOccupancy;
  }
}

package org.dise.runtime.timing;

/**
 * L1 I, L1 D, an optional unified L2 and memory: each access answers the cycles it takes beyond an
 * L1 hit (0 on a hit), and the misses count at each level. A dirty line an L1 evicts is written to
 * the L2 (state only: write-backs are buffered and cost no cycles, [choice] spec/timing.md).
 */
public final class MemoryHierarchy {
  final Cache l1i;
  final Cache l1d;
  final Cache l2; // null: none
  private final int l2Latency;
  private final int memoryLatency;
  private final int l1iLineBits;
  private final int l1dLineBits;
  private final boolean writeAllocate;

  /** L1 D misses by kind: the energy model prices a read miss as IMEM-R, a write miss as IMEM-W. */
  long l1dReadMisses;

  long l1dWriteMisses;

  public MemoryHierarchy(TimingConfig c) {
    l1i =
        new Cache("l1i", c.integer("l1i.size"), c.integer("l1i.ways"), c.integer("l1i.line"), true);
    l1d =
        new Cache(
            "l1d",
            c.integer("l1d.size"),
            c.integer("l1d.ways"),
            c.integer("l1d.line"),
            c.bool("l1d.write_allocate"));
    l2 =
        c.integer("l2.size") == 0
            ? null
            : new Cache(
                "l2", c.integer("l2.size"), c.integer("l2.ways"), c.integer("l2.line"), true);
    l2Latency = c.integer("l2.latency");
    memoryLatency = c.integer("memory.latency");
    l1iLineBits = l1i.lineBits();
    l1dLineBits = l1d.lineBits();
    writeAllocate = c.bool("l1d.write_allocate");
  }

  /** Cycles beyond an L1 hit to fetch the line of {@code addr}. */
  public int fetch(long addr) {
    return l1i.access(addr, false) ? 0 : next(addr, false);
  }

  /** The I-cache line number of an address (a fetch group ends at a line). */
  public long iline(long addr) {
    return addr >>> l1iLineBits;
  }

  /**
   * Cycles beyond an L1 hit for a data access of {@code size} bytes at {@code addr}; an access that
   * straddles two lines looks up both (the slower one counts).
   */
  public int data(long addr, int size, boolean write) {
    int extra = line(addr, write);
    if (size > 1 && ((addr ^ (addr + size - 1)) >>> l1dLineBits) != 0) {
      extra = Math.max(extra, line(addr + size - 1, write));
    }
    return extra;
  }

  private int line(long addr, boolean write) {
    if (l1d.access(addr, write)) {
      return 0;
    }
    if (write) {
      l1dWriteMisses++;
    } else {
      l1dReadMisses++;
    }
    if (write && !writeAllocate) {
      return 0; // the write buffer takes it to memory; the store does not wait [choice]
    }
    long victim = l1d.evictedDirty;
    int extra = next(addr, false); // the line fill reads it
    if (victim != -1 && l2 != null) {
      l2.access(victim, true);
    }
    return extra;
  }

  private int next(long addr, boolean write) {
    if (l2 == null) {
      return memoryLatency;
    }
    return l2.access(addr, write) ? l2Latency : l2Latency + memoryLatency;
  }

  /** L1 D misses of loads (line fills that read memory: IMEM-R). */
  public long l1dReadMisses() {
    return l1dReadMisses;
  }

  /** L1 D misses of stores and atomics (IMEM-W). */
  public long l1dWriteMisses() {
    return l1dWriteMisses;
  }

  public Cache l1i() {
    return l1i;
  }

  public Cache l1d() {
    return l1d;
  }

  public Cache l2() {
    return l2;
  }
}

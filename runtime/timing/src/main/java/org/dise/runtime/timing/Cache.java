package org.dise.runtime.timing;

/**
 * A set-associative cache with LRU replacement, write-back, and write-allocate or not: tags and
 * state only (the emulator holds the data). An access answers hit or miss and counts; a miss that
 * evicts a dirty line counts a write-back, which the hierarchy sends to the next level.
 */
public final class Cache {
  private final String name;
  private final int sets;
  private final int ways;
  private final int lineBits;
  private final boolean writeAllocate;

  /** Per set, {@code ways} tags (line addresses; -1: invalid), most recently used first. */
  private final long[] tags;

  private final boolean[] dirty;

  /** The line of the last access: it is its set's most recent, so a repeat hits at once. */
  private long lastLine = -1;

  private long accesses;
  private long misses;
  private long writebacks;

  /** Set by {@link #access}: the line a miss evicted dirty (-1: none). */
  long evictedDirty = -1;

  public Cache(String name, int sizeBytes, int ways, int lineBytes, boolean writeAllocate) {
    if (Integer.bitCount(lineBytes) != 1 || lineBytes < 4) {
      throw new IllegalArgumentException(
          name + ": line size " + lineBytes + " is not a power of two");
    }
    if (ways < 1 || sizeBytes % (ways * lineBytes) != 0) {
      throw new IllegalArgumentException(
          name
              + ": size "
              + sizeBytes
              + " is not a multiple of ways x line ("
              + ways
              + " x "
              + lineBytes
              + ")");
    }
    int s = sizeBytes / (ways * lineBytes);
    if (Integer.bitCount(s) != 1) {
      throw new IllegalArgumentException(
          name + ": " + s + " sets (size / (ways x line)) is not a power of two");
    }
    this.name = name;
    this.sets = s;
    this.ways = ways;
    this.lineBits = Integer.numberOfTrailingZeros(lineBytes);
    this.writeAllocate = writeAllocate;
    this.tags = new long[s * ways];
    this.dirty = new boolean[s * ways];
    java.util.Arrays.fill(tags, -1);
  }

  public String name() {
    return name;
  }

  public int lineBits() {
    return lineBits;
  }

  /**
   * Looks up the line holding {@code addr}; on a miss allocates it (unless a store to a cache
   * without write-allocate). Returns true on a hit.
   */
  public boolean access(long addr, boolean write) {
    accesses++;
    long line = addr >>> lineBits;
    evictedDirty = -1;
    int base = (int) (line & (sets - 1)) * ways;
    if (line == lastLine) {
      if (write) {
        dirty[base] = true;
      }
      return true;
    }
    long[] t = tags;
    for (int w = 0; w < ways; w++) {
      if (t[base + w] == line) {
        moveToFront(t, base, w, line, dirty[base + w] | write);
        return true;
      }
    }
    misses++;
    if (write && !writeAllocate) {
      return false; // written through to the next level; the line is not brought in
    }
    int last = base + ways - 1;
    if (t[last] != -1 && dirty[last]) {
      writebacks++;
      evictedDirty = t[last] << lineBits;
    }
    moveToFront(t, base, ways - 1, line, write); // the least recently used way is replaced
    return false;
  }

  /**
   * Puts {@code line} in way 0 of the set at {@code base} (most recently used), shifting ways 0 to
   * {@code w - 1} down one; way {@code w} is the one it hit or the one a miss replaces.
   */
  private void moveToFront(long[] t, int base, int w, long line, boolean d) {
    for (int k = w; k > 0; k--) {
      t[base + k] = t[base + k - 1];
      dirty[base + k] = dirty[base + k - 1];
    }
    t[base] = line;
    dirty[base] = d;
    lastLine = line;
  }

  /** True when the line holding {@code addr} is present (no state changes). */
  public boolean holds(long addr) {
    long line = addr >>> lineBits;
    int base = (int) (line & (sets - 1)) * ways;
    for (int w = 0; w < ways; w++) {
      if (tags[base + w] == line) {
        return true;
      }
    }
    return false;
  }

  public long accesses() {
    return accesses;
  }

  public long misses() {
    return misses;
  }

  public long writebacks() {
    return writebacks;
  }
}

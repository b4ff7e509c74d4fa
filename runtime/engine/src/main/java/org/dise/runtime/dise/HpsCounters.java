package org.dise.runtime.dise;

import java.util.List;
import org.dise.runtime.cpu.plan.Counters;

/**
 * The HPS counters and registers (first paper, Section 3.3): each counter has a configurable width,
 * a {@code zero} flag (value == 0) and a sticky {@code overflow} flag, set when {@code inc} wraps
 * from the maximum or {@code dec} from zero, cleared by {@code set}.
 */
public final class HpsCounters implements Counters {
  private final long[] value;
  private final long[] max;
  private final boolean[] overflow;
  private final long[] registers;

  public HpsCounters(int count, List<CounterSpec> specs, List<Long> registers) {
    value = new long[count];
    max = new long[count];
    overflow = new boolean[count];
    for (int i = 0; i < count; i++) {
      max[i] = 0xffff; // unconfigured counters: 16 bits, like the language's default
    }
    for (CounterSpec s : specs) {
      max[s.index()] = s.width() >= 64 ? -1L : (1L << s.width()) - 1;
      value[s.index()] = s.init() & max[s.index()];
    }
    this.registers = registers.stream().mapToLong(Long::longValue).toArray();
  }

  /** How many counters there are (indices 0 to counters() - 1). */
  public int counters() {
    return value.length;
  }

  /** How many HPS registers there are. */
  public int registers() {
    return registers.length;
  }

  public long value(int counter) {
    return value[counter];
  }

  public boolean zero(int counter) {
    return value[counter] == 0;
  }

  public boolean overflow(int counter) {
    return overflow[counter];
  }

  public boolean flag(PatternExpr.Flag f) {
    return f.overflow() ? overflow[f.counter()] : value[f.counter()] == 0;
  }

  /** Applies one micro-op. */
  public void apply(MicroOp op) {
    switch (op.kind()) {
      case INC -> inc(op.counter());
      case DEC -> dec(op.counter());
      case SET -> set(op.counter(), op.fromRegister() ? registers[(int) op.source()] : op.source());
    }
  }

  /** {@code inc_c}: wraps from the maximum to 0 and sets the sticky overflow flag. */
  @Override
  public void inc(int c) {
    changes++;
    if (value[c] == max[c]) {
      value[c] = 0;
      overflow[c] = true;
    } else {
      value[c]++;
    }
    changed();
  }

  /** {@code dec_c}: wraps from 0 to the maximum and sets the sticky overflow flag. */
  @Override
  public void dec(int c) {
    changes++;
    if (value[c] == 0) {
      value[c] = max[c];
      overflow[c] = true;
    } else {
      value[c]--;
    }
    changed();
  }

  /** {@code set_c(v)}: the value masked to the counter's width; clears overflow. */
  @Override
  public void set(int c, long v) {
    changes++;
    value[c] = v & max[c];
    overflow[c] = false;
    changed();
  }

  /**
   * Puts a counter in a given state, flags included (a debugger's {@code :set}, or a counter
   * carried over when a changed production set replaces the engine of a paused program).
   */
  public void restore(int c, long v, boolean overflowFlag) {
    changes++;
    value[c] = v & max[c];
    overflow[c] = overflowFlag;
    changed();
  }

  /** How many counters there are (the budget's, or more when a production names a higher one). */
  public int count() {
    return value.length;
  }

  /** Counter {@code c}'s width in bits. */
  public int width(int c) {
    return max[c] == -1L ? 64 : Long.bitCount(max[c]);
  }

  /** How many micro-ops have changed the counters: lets readers cache what the flags imply. */
  public long changes() {
    return changes;
  }

  private long changes;

  private Runnable listener;

  /**
   * Runs {@code r} after every change of a counter or flag (the engine keeps the cpu's copy of the
   * flag vector current with it, so translated code reads a field instead of asking).
   */
  public void onChange(Runnable r) {
    this.listener = r;
  }

  private void changed() {
    Runnable r = listener;
    if (r != null) {
      r.run();
    }
  }

  /** HPS register {@code HPS_Ri}. */
  @Override
  public long register(int i) {
    return registers[i];
  }
}

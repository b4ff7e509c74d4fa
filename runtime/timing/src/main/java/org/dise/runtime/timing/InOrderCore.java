package org.dise.runtime.timing;

/**
 * The {@code inorder} model: a single-issue five-stage pipeline like the StrongARM SA-1110's
 * (fetch, decode, execute, buffer, write-back; spec/timing.md). One instruction enters execute per
 * cycle at most; it waits there for its sources (a load's result one cycle late: the load-use
 * bubble; a multiply's after its latency); a cache miss, a divide and an emulated floating-point
 * instruction hold the pipeline; a taken transfer the front end did not follow costs the refill.
 */
public final class InOrderCore extends Core {
  /** The cycle the last instruction entered execute. */
  private long t;

  /** Ready cycles above mean "a dependent may enter execute then". */

  /** The stages after execute, which the last instruction still has to pass at the end. */
  private static final int DRAIN = 2;

  public InOrderCore(TimingConfig c) {
    super(c);
  }

  @Override
  public void step(Retired r) {
    count(r);
    long before = t;
    long issue = t + 1;
    if (!r.inserted) {
      long line = mem.iline(r.pc);
      if (line != fetchLine) {
        fetchLine = line;
        issue += mem.fetch(r.pc);
      }
    }
    long[] ready = regReady;
    issue = Math.max(issue, Math.max(ready[r.src1], Math.max(ready[r.src2], ready[r.src3])));
    long next = issue; // when the following instruction may enter execute, less one
    switch (r.unit) {
      case OpTable.LOAD, OpTable.ATOMIC -> {
        int miss = mem.data(r.addr, r.width, r.unit == OpTable.ATOMIC);
        next += miss; // a miss holds the pipeline until the line is in
        if (r.dst != 0) {
          ready[r.dst] = issue + miss + latLoad;
        }
      }
      case OpTable.STORE -> next += mem.data(r.addr, r.width, true);
      case OpTable.DIV, OpTable.FP_ADD, OpTable.FP_MUL, OpTable.FP_DIV, OpTable.FP_SQRT -> {
        int lat = latency(r.unit);
        next += lat - 1; // not pipelined (or emulated in software): the pipeline waits
        if (r.dst != 0) {
          ready[r.dst] = issue + lat;
        }
      }
      default -> {
        if (r.dst != 0) {
          ready[r.dst] = issue + latency(r.unit);
        }
        int p = predict(r);
        if (p < 0) {
          next += frontend;
          bubbleCycles += frontend;
          fetchLine = -1;
        } else if (p > 0) {
          next += p;
          bubbleCycles += p;
          fetchLine = -1;
        }
      }
    }
    ready[0] = 0;
    t = next;
    attributed[category(r)] += t - before;
  }

  @Override
  public void stall(long cycles) {
    t += cycles;
    attributed[STALL] += cycles;
    bubbleCycles += cycles;
  }

  @Override
  public void handler(int sink, long cycles, long key) {
    long c = cycles + handlerMisses(sink, key);
    t += c;
    attributed[HANDLER] += c;
    bubbleCycles += c;
  }

  @Override
  public void interrupt(long cycles) {
    t += cycles;
    attributed[HANDLER] += cycles;
    bubbleCycles += cycles;
    fetchLine = -1; // the interrupt handler's fetches left the application's line
  }

  @Override
  protected long handlerStart() {
    // The call redirects fetch once decode has it: the refill of a taken transfer.
    t += frontend;
    attributed[HANDLER] += frontend;
    return t;
  }

  @Override
  public long cycles() {
    return t + DRAIN + 1;
  }
}

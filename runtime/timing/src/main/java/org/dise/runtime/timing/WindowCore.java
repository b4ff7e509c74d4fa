package org.dise.runtime.timing;

/**
 * The {@code ooo} model: an out-of-order superscalar core (the first paper's, Section 5.1: 4-wide,
 * 12 stages, a 128-entry reorder buffer) as an instruction-window-centric model, after the
 * interval-simulation and Sniper ROB models (spec/timing.md). Each instruction gets a dispatch, an
 * issue, a completion and a commit cycle: dispatch in program order, {@code width} per cycle, once
 * the front end delivers it and the instruction {@code rob} places earlier has committed; issue
 * when its source registers are ready; completion after its unit's latency (a load's includes its
 * cache misses, so independent misses overlap inside the window and dependent ones do not); commit
 * in order, {@code width} per cycle. The miss events act on the front end: a mispredicted branch
 * restarts fetch {@code frontend} cycles after it executes, an I-cache miss stalls delivery, a
 * taken transfer ends a fetch group. Functional units are pipelined and as many as needed, except
 * the dividers, one integer and one floating-point, which are not.
 */
public final class WindowCore extends Core {
  private final int rob;
  private final long[] robCommit;
  private int robSlot;

  private long fetchReady;
  private final InOrder dispatchStage;
  private final InOrder commitStage;
  private long intDivFree;
  private long fpDivFree;
  private long pendingStall;

  public WindowCore(TimingConfig c) {
    super(c);
    int width = Math.max(1, c.integer("width"));
    rob = Math.max(1, c.integer("rob"));
    robCommit = new long[rob];
    dispatchStage = new InOrder(width);
    commitStage = new InOrder(width);
  }

  /** An in-order stage that takes {@code width} instructions a cycle (dispatch, commit). */
  private static final class InOrder {
    final int width;
    long cycle;
    int inCycle;

    InOrder(int width) {
      this.width = width;
    }

    /** Takes one instruction ready at {@code ready}; returns the cycle it passes in. */
    long enter(long ready) {
      if (ready > cycle) {
        cycle = ready;
        inCycle = 0;
      } else if (inCycle == width) {
        cycle++;
        inCycle = 0;
      }
      inCycle++;
      return cycle;
    }

    /** Cycle {@code c} is taken in full: the next instruction passes after it. */
    void closeAt(long c) {
      cycle = c;
      inCycle = width;
    }
  }

  @Override
  public void step(Retired r) {
    count(r);
    // Front end.
    long f = fetchReady;
    if (!r.inserted) {
      long line = mem.iline(r.pc);
      if (line != fetchLine) {
        fetchLine = line;
        int extra = mem.fetch(r.pc);
        if (extra > 0) {
          f = Math.max(f, dispatchStage.cycle) + extra;
          fetchReady = f;
        }
      }
    }
    // Dispatch: in order, width per cycle, into a free reorder-buffer entry.
    int slot = robSlot;
    robSlot = robSlot + 1 == rob ? 0 : robSlot + 1;
    long dispatch = dispatchStage.enter(Math.max(f, robCommit[slot]));
    // Issue and execute.
    long[] ready = regReady;
    long issue =
        Math.max(dispatch + 1, Math.max(ready[r.src1], Math.max(ready[r.src2], ready[r.src3])));
    long done;
    int p = 0;
    switch (r.unit) {
      case OpTable.LOAD, OpTable.ATOMIC ->
          done = issue + latLoad + mem.data(r.addr, r.width, r.unit == OpTable.ATOMIC);
      case OpTable.STORE -> {
        mem.data(r.addr, r.width, true); // the store buffer hides its miss [choice]
        done = issue + 1;
      }
      case OpTable.DIV -> {
        issue = Math.max(issue, intDivFree);
        done = issue + latDiv;
        intDivFree = done;
      }
      case OpTable.FP_DIV, OpTable.FP_SQRT -> {
        issue = Math.max(issue, fpDivFree);
        done = issue + latency(r.unit);
        fpDivFree = done;
      }
      case OpTable.SERIAL -> {
        issue = Math.max(issue, commitStage.cycle); // waits for everything before it
        done = issue + latAlu;
        fetchReady = Math.max(fetchReady, done);
      }
      default -> {
        done = issue + latency(r.unit);
        p = predict(r);
      }
    }
    if (r.dst != 0) {
      ready[r.dst] = done;
    }
    if (p < 0) {
      fetchReady = Math.max(fetchReady, done + frontend);
      fetchLine = -1;
    } else if (p > 0) {
      fetchReady = Math.max(fetchReady, dispatch + p);
      fetchLine = -1;
    } else if (r.taken) {
      fetchReady = Math.max(fetchReady, dispatch + 1); // a taken transfer ends the fetch group
    }
    // Commit: in order, width per cycle.
    long before = commitStage.cycle;
    long committed = commitStage.enter(done);
    robCommit[slot] = committed;
    long delta = committed - before;
    if (pendingStall > 0) {
      long s = Math.min(delta, pendingStall);
      attributed[STALL] += s;
      delta -= s;
      pendingStall = 0;
    }
    attributed[category(r)] += delta;
  }

  @Override
  public void stall(long cycles) {
    // The replaced instruction waits in decode: what follows is delivered that much later.
    fetchReady = Math.max(fetchReady, dispatchStage.cycle) + cycles;
    pendingStall += cycles;
    bubbleCycles += cycles;
  }

  @Override
  public void handler(int sink, long cycles, long key) {
    // A modelled handler serialises: it starts when everything before it has committed and the
    // front end goes on after it (spec/timing.md, "Handlers").
    serialise(cycles + handlerMisses(sink, key));
  }

  @Override
  public void interrupt(long cycles) {
    // An interrupt drains the window like a handler call and refills it after (spec/timing.md).
    serialise(cycles);
    fetchLine = -1;
  }

  /** A block of {@code cycles} that starts when everything before it committed. */
  private void serialise(long cycles) {
    long start = Math.max(commitStage.cycle, Math.max(fetchReady, dispatchStage.cycle));
    long end = start + cycles;
    long stalled = Math.min(pendingStall, Math.max(0, start - commitStage.cycle));
    attributed[STALL] += stalled;
    attributed[HANDLER] += end - commitStage.cycle - stalled;
    bubbleCycles += end - start;
    commitStage.closeAt(end);
    fetchReady = end;
    dispatchStage.closeAt(end);
    pendingStall = 0;
  }

  @Override
  protected long handlerStart() {
    // The call is an inserted transfer whose target the decode stage knows: fetch is redirected
    // as for a taken transfer that missed the BTB (2 cycles, as predict() charges one) [choice].
    fetchReady = Math.max(fetchReady, dispatchStage.cycle + 2);
    return dispatchStage.cycle;
  }

  @Override
  public long cycles() {
    return commitStage.cycle;
  }
}

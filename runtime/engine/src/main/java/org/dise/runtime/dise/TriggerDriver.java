package org.dise.runtime.dise;

import java.util.BitSet;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.isa.Op;
import org.dise.runtime.trigger.PhaseTrace;
import org.dise.runtime.trigger.PhaseTracker;
import org.dise.runtime.trigger.Trigger;

/**
 * Runs a machine under an external trigger (first paper, Section 3.4): the guest runs in slices
 * that end exactly at interval boundaries, counted in application instructions (inserted ones
 * excluded); at each boundary the trigger ends the interval and decides on the next, and the driver
 * injects {@code on_trig_inst} or {@code off_trig_inst} into the decode stream before the next
 * instruction when the decision changes (and at the start of the run), where the productions of
 * equations (1) and (2) set the sampling flag.
 */
public final class TriggerDriver {
  /** Called at every interval boundary (after the trigger heard of it). */
  public interface Listener {
    void endInterval(long index, long instructions, boolean sampled, boolean nextSampled);
  }

  private final Machine machine;
  private ProfilingEngine engine;
  private final Trigger trigger;
  private final PhaseTracker extraTracker;
  private Listener listener;
  private final BitSet sampled = new BitSet();
  private final PhaseTracker.LongList lengths = new PhaseTracker.LongList();
  private String unmatched;

  /**
   * A driver for {@code trigger}; {@code extraTracker}, when not null, tracks phases alongside (a
   * first pass records the phases this way under the exhaustive trigger).
   */
  public TriggerDriver(
      Machine machine, ProfilingEngine engine, Trigger trigger, PhaseTracker extraTracker) {
    this.machine = machine;
    this.engine = engine;
    this.trigger = trigger;
    this.extraTracker = trigger.observer() == null ? extraTracker : null;
    if (trigger.observer() != null) {
      machine.cpu().setBlockObserver(trigger.observer());
    } else if (this.extraTracker != null) {
      machine.cpu().setBlockObserver(this.extraTracker);
    }
  }

  /**
   * Hot reload under a trigger: the driver goes on with {@code next}, which has taken over the
   * previous engine's cost accounts ({@code EngineState.carryOver}), so application instructions,
   * intervals and the trigger's decisions run on. The interval under way keeps its decision, and
   * its codeword is injected again before the next instruction (the sinks hear {@code resume} or
   * {@code pause} again), so that the new set's trigger productions set the sampling flag as the
   * trigger decided. spec/engine.md, "Changing the productions of a paused program".
   */
  public void rebind(ProfilingEngine next) {
    engine = java.util.Objects.requireNonNull(next);
    if (begun && !finished) {
      pending = true;
    }
  }

  public void setListener(Listener l) {
    this.listener = l;
  }

  public Trigger trigger() {
    return trigger;
  }

  /** Application instructions: what the cpu retired less what the decode stage inserted. */
  public long applicationInstructions() {
    return machine.cpu().instret() - engine.cost().insertedInstructions();
  }

  /**
   * Runs until the guest exits or faults, or {@code maxInsns} application instructions have run (a
   * negative limit means none). Under a trigger, {@code --max-insns} counts application
   * instructions [choice]: the exhaustive first pass inserts many more instructions than a sampled
   * run, and the two must stop at the same point of the program to be compared.
   */
  public Machine.Outcome run(long maxInsns) {
    if (maxInsns != 0) {
      begin();
    }
    StopReason r;
    while (true) {
      long left = maxInsns < 0 ? Long.MAX_VALUE : maxInsns - applicationInstructions();
      if (left <= 0) {
        r = StopReason.STEP_LIMIT;
        break;
      }
      // At most `left` instructions of any kind, so at most `left` application ones.
      r = advance(left);
      if (r != StopReason.STEP_LIMIT) {
        break;
      }
    }
    finish();
    if (r == StopReason.STEP_LIMIT) {
      Cpu cpu = machine.cpu();
      return new Machine.Outcome(
          r,
          1,
          cpu.instret(),
          String.format(
              "guest stopped after %,d application instructions (--max-insns %d; %,d with the"
                  + " inserted ones) at pc 0x%x in %s",
              applicationInstructions(),
              maxInsns,
              cpu.instret(),
              cpu.pc,
              machine.symbols().describe(cpu.pc)));
    }
    return machine.outcome(r, maxInsns);
  }

  // Where the run is, kept between calls of advance so that a debugger can run in slices.
  private long index;
  private long start;
  private boolean on;
  private boolean begun;
  private boolean finished;

  /** The codeword of the interval under way is still to be injected. */
  private boolean pending;

  /** Starts the first interval, injecting its codeword, unless that happened already. */
  private void begin() {
    if (!begun) {
      begun = true;
      start = applicationInstructions();
      on = trigger.sample(0);
      inject(on);
    }
  }

  /**
   * Runs at most {@code budget} more instructions (of any kind), ending intervals and injecting
   * codewords at their boundaries; returns early when the guest stops (exit, fault, breakpoint,
   * interrupt). May be called again to go on, for a REPL that runs in slices; {@link #finish} ends
   * the last interval.
   */
  public StopReason advance(long budget) {
    begin();
    Cpu cpu = machine.cpu();
    if (pending && budget > 0) {
      // The previous slice ended on a boundary: this slice's first instruction carries the
      // codeword, as the run's first one carries the first codeword.
      pending = false;
      inject(on);
    }
    if (cpu.fault() != null) {
      return StopReason.FAULT; // the codeword's replacement faulted
    }
    long interval = trigger.interval();
    long from = cpu.instret();
    while (true) {
      long left = budget == Long.MAX_VALUE ? Long.MAX_VALUE : budget - (cpu.instret() - from);
      if (left <= 0) {
        return StopReason.STEP_LIMIT;
      }
      if (pending) {
        pending = false;
        inject(on);
        if (cpu.fault() != null) {
          return StopReason.FAULT;
        }
        continue;
      }
      long toBoundary = start + interval - applicationInstructions();
      StopReason r = cpu.run(Math.min(left, toBoundary));
      if (r != StopReason.STEP_LIMIT) {
        return r;
      }
      long app = applicationInstructions();
      if (app - start < interval) {
        continue; // inserted instructions used part of the slice, or the budget ran out
      }
      end(index, app - start, on);
      boolean next = trigger.sample(index + 1);
      if (listener != null) {
        listener.endInterval(index, app - start, on, next);
      }
      index++;
      start = app;
      // Injected before the next application instruction, not here: when the budget (the
      // REPL's slice, --max-insns) ends on the boundary, no codeword runs past it, and the
      // guest stopped for good there runs none for an interval that never starts.
      pending |= next != on;
      on = next;
    }
  }

  /** Ends the last (possibly shorter) interval; once, when the guest has stopped for good. */
  public void finish() {
    if (finished) {
      return;
    }
    finished = true;
    begin();
    long app = applicationInstructions();
    if (app > start || index == 0) {
      end(index, app - start, on);
      if (listener != null) {
        listener.endInterval(index, app - start, on, false);
      }
    }
  }

  /** Whether {@link #finish} ended the run's last interval. */
  public boolean finished() {
    return finished;
  }

  /** Whether the interval under way is sampled. */
  public boolean sampling() {
    return on;
  }

  /** Application instructions into the interval under way. */
  public long intoInterval() {
    return applicationInstructions() - start;
  }

  // What a progress display reads from another thread: written once per interval.
  private volatile long completed;
  private volatile boolean sampledNow;
  private volatile int lastPhase = -1;

  /**
   * A one-line description of where the run is, for a progress display on another thread: intervals
   * completed, whether the current one is sampled, and the last interval's phase.
   */
  public String progress() {
    return "interval "
        + completed
        + (sampledNow ? " (sampled)" : "")
        + (lastPhase >= 0 ? ", phase " + lastPhase : "");
  }

  private void end(long index, long instructions, boolean on) {
    trigger.endInterval(index, instructions);
    completed = index + 1;
    PhaseTrace phases = trigger.phases();
    if (phases != null && phases.intervals() > index) {
      lastPhase = phases.phase(index);
    }
    if (extraTracker != null) {
      extraTracker.endInterval();
    }
    sampled.set((int) index, on);
    lengths.add(instructions);
  }

  private void inject(boolean on) {
    sampledNow = on;
    Op codeword = on ? Op.ON_TRIG_INST : Op.OFF_TRIG_INST;
    long app = applicationInstructions();
    if (on) {
      Cpu cpu = machine.cpu();
      engine.sinks().forEach(s -> s.resume(cpu, app));
    } else {
      engine.sinks().forEach(s -> s.pause(app));
    }
    if (!engine.inject(codeword) && unmatched == null) {
      unmatched = codeword.mnemonic();
    }
  }

  /**
   * The first injected codeword that matched no production (the trigger could not set the sampling
   * flag: the ACF lacks the productions of equations (1) and (2)), or null.
   */
  public String codewordUnmatched() {
    return unmatched;
  }

  /** Intervals run (the last may be shorter than the interval length). */
  public long intervals() {
    return lengths.size();
  }

  public boolean sampled(long index) {
    return sampled.get((int) index);
  }

  /** How many of the intervals run were sampled. */
  public long sampledIntervals() {
    return sampled.cardinality();
  }

  public long length(long index) {
    return lengths.get((int) index);
  }

  /** Application instructions in sampled intervals over all of them. */
  public double sampledFraction() {
    long all = 0;
    long s = 0;
    for (int i = 0; i < lengths.size(); i++) {
      all += lengths.get(i);
      s += sampled.get(i) ? lengths.get(i) : 0;
    }
    return all == 0 ? 0 : (double) s / all;
  }
}

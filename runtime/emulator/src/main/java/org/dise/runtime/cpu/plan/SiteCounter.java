package org.dise.runtime.cpu.plan;

import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.OpClass;

/**
 * One static instruction's counter in a sink whose key is fixed for that instruction (a branch's
 * own pc, a direct call's target or its caller-callee pair), as QEMU's TCG plugins keep a counter
 * per instruction: translated code adds to it directly, with no call into the sink and no hash
 * lookup, where {@link Handler#record} would find the key's entry every time (issue 14;
 * spec/emulator.md, "Per-site counters"). The sink hands it out (its {@code site}), a plan adds to
 * it ({@link PlanOp.Site}) and adds its figures to its profile; what one event adds is one of three
 * fixed forms.
 */
public final class SiteCounter {
  /** Events counted here. */
  public long events;

  /**
   * For {@link #intervals}: the sum over the events of the application instructions since the
   * sink's previous event, the event's own instruction included.
   */
  public long instructions;

  /** For {@link #intervals}: the sink's end of its previous event, shared by all its sites. */
  public final Mark since;

  /** Whether an event counts only when the site's conditional branch is taken. */
  public final boolean whenTaken;

  private SiteCounter(Mark since, boolean whenTaken) {
    this.since = since;
    this.whenTaken = whenTaken;
  }

  /** A counter that adds one per event. */
  public static SiteCounter events() {
    return new SiteCounter(null, false);
  }

  /**
   * A counter that adds one per event in which conditional branch {@code branch} is taken (read
   * from its operands before it executes).
   *
   * @throws IllegalArgumentException unless {@code branch} is a conditional branch
   */
  public static SiteCounter takenBranches(DecodedInsn branch) {
    if (branch.opClass() != OpClass.BRANCH) {
      throw new IllegalArgumentException(
          "a taken-branch counter needs a conditional branch, not " + branch.op.mnemonic());
    }
    return new SiteCounter(null, true);
  }

  /**
   * A counter that adds one per event and, to {@link #instructions}, the application instructions
   * from {@code since} up to and including the event's instruction, then moves {@code since} there
   * (the hot code region profile's instructions per region).
   */
  public static SiteCounter intervals(Mark since) {
    return new SiteCounter(since, false);
  }

  /**
   * Where a sink's previous event ended, in application instructions retired (the event's own
   * instruction included); shared by the sink's {@link Handler#record} and its sites.
   */
  public static final class Mark {
    /** The application instructions retired at the end of the previous event. */
    public long at;
  }
}

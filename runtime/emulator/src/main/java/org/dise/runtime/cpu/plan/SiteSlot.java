package org.dise.runtime.cpu.plan;

/**
 * One static instruction's entry in a keyed sink whose key is fixed for that instruction (an
 * aggregation map or histogram keyed by the instruction's own {@code T.PC}): translated code
 * applies the call to it directly, as QEMU's TCG plugins keep per-instruction state inline, with no
 * argument array, no key lookup and no interface call (spec/emulator.md, "Per-site slots"). Unlike
 * a {@link SiteCounter} the call may take a value and return one ({@code $drN = call(last, T.PC,
 * $dr0)}). The sink hands it out ({@code Sink.slot}), keeps it as the key's only entry, so that its
 * {@code record} for that key and the slot see the same state, and shows it in its profile; a plan
 * applies it with {@link PlanOp.Slot}. Implementations are public final classes, so that translated
 * code binds {@link #update} statically.
 */
public interface SiteSlot {
  /**
   * Applies one event of {@code value} (the call's last argument; a map without a value ignores it)
   * and returns what the call returns.
   */
  long update(long value);
}

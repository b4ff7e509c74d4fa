/**
 * What a decode stage does at one tagged instruction, as data: a {@link
 * org.dise.runtime.cpu.plan.Plan} of micro-ops ({@link org.dise.runtime.cpu.plan.PlanOp}) on opaque
 * handles the stage hands over ({@link org.dise.runtime.cpu.plan.Counters}, {@link
 * org.dise.runtime.cpu.plan.Accounts}, {@link org.dise.runtime.cpu.plan.Handler}, {@link
 * org.dise.runtime.cpu.plan.SiteCounter}; a handler sees the hart as a {@link
 * org.dise.runtime.cpu.plan.GuestState}, so this package imports nothing of {@code cpu}), as QEMU's
 * plugin API has instrumentation ask the translator for callbacks and inline operations instead of
 * writing TCG. Only the emulator turns a plan into code (the translator's {@code PlanEmitter}); the
 * stage never writes bytecode (spec/emulator.md, "Plans").
 */
package org.dise.runtime.cpu.plan;

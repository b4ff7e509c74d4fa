package org.dise.runtime.cpu.plan;

import org.dise.runtime.elf.LinkMap;
import org.dise.runtime.mem.Memory;

/**
 * What a {@link Handler} may read of the hart it records on: the registers, the guest's memory and
 * the objects mapped in it, and nothing of the machinery that runs instructions. {@code Cpu}
 * implements it (the only implementation, so a handler's calls here stay monomorphic and inline to
 * field reads); keeping it here rather than naming {@code Cpu} keeps the plans below the emulator's
 * {@code cpu} package.
 */
public interface GuestState {
  /**
   * The integer registers, {@code x[r]} for register r, the DISE-private registers after them
   * ({@code Cpu.DISE_REG_BASE}); a handler reads them and writes none.
   */
  long[] x();

  /** The floating-point registers as raw 64-bit patterns (singles NaN-boxed); read only. */
  long[] f();

  /** The guest's memory (a handler reads code or data, as a control-flow graph does). */
  Memory memory();

  /** The ELF objects mapped in the guest's address space (for unwinding), or null if unknown. */
  LinkMap linkMap();
}

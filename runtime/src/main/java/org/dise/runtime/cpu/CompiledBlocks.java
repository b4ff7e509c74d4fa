package org.dise.runtime.cpu;

import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.mem.Memory;

/**
 * Blocks translated to Java by {@link BlockCompiler}: one generated class holds many blocks,
 * each a static method; {@code run} dispatches by id. Public because the generated classes live
 * in their own class loader.
 */
public interface CompiledBlocks {
  /**
   * Executes block {@code id} and returns the next pc. If an instruction faults, its index in
   * the block is stored in {@link Cpu#faultIndex} before the exception propagates.
   */
  long run(int id, Cpu cpu, long[] x, long[] f, Memory mem, DecodedInsn[] insns);
}

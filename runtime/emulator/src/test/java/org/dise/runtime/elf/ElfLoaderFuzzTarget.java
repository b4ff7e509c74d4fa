package org.dise.runtime.elf;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import org.dise.runtime.linux.Loader;
import org.dise.runtime.mem.Memory;

/**
 * Fuzz target: the ELF reader and the loader on arbitrary bytes (seeded with real programs and
 * damaged ones). Any outcome but a loaded image or an {@link ElfException} is a finding.
 */
public class ElfLoaderFuzzTarget {
  @FuzzTest(maxDuration = "10s")
  void elfFilesAreLoadedOrRefusedCleanly(byte[] data) {
    fuzzerTestOneInput(data);
  }

  /** The entry point of the standalone Jazzer driver (longer runs: scripts/fuzz). */
  public static void fuzzerTestOneInput(byte[] data) {
    ElfFile elf;
    try {
      elf = ElfFile.parse(data);
    } catch (ElfException e) {
      return;
    }
    elf.symbols();
    try {
      Loader.load(elf, MEMORY, List.of("prog"), List.of("A=1"), 1);
    } catch (ElfException e) {
      // refused with a reason: fine
    } finally {
      clear(elf);
    }
  }

  /** One address space for all inputs (a fresh one costs more than the load). */
  private static final Memory MEMORY = new Memory();

  /** Unmaps what a load may have mapped: the loadable segments and the stack. */
  private static void clear(ElfFile elf) {
    long bias = elf.isPie() ? Loader.PIE_BASE : 0;
    for (Segment s : elf.segments()) {
      long start = (s.vaddr() + bias) & ~Memory.PAGE_MASK;
      long end = (s.vaddr() + bias + s.memSize() + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
      if (s.type() == Segment.PT_LOAD
          && s.vaddr() >= 0
          && start >= 0
          && end > start
          && end <= Memory.LIMIT) {
        MEMORY.unmap(start, end - start);
      }
    }
    MEMORY.unmap(Loader.STACK_TOP - Loader.STACK_SIZE, Loader.STACK_SIZE);
  }
}

package org.dise.runtime.cpu;

import static org.dise.runtime.isa.Opcodes.*;

import org.dise.runtime.isa.Csr;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.IllegalInstructionException;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.SemanticsTable;
import org.dise.runtime.mem.Memory;
import org.dise.runtime.mem.MemoryFault;

/**
 * The block interpreter of one hart: runs blocks from the {@link DecodeCache}, enters translated
 * units ({@link CompiledBlocks}, chaining from one to the next), hands tagged instructions to the
 * decode stage, and executes what no unit covers, instruction by instruction on {@link Semantics}.
 * It keeps the run's statistics; the state it runs on is the {@link Cpu}'s.
 */
final class Interpreter {
  private final Cpu cpu;
  private final DecodeCache cache;
  private final UnitContext unit;
  private final long[] x;
  private final long[] f;
  private final Fpu fpu;
  private final Memory mem;

  // Counted as the run goes; read together by Cpu#counters.
  long translatedInstructions;
  long unitEntries;
  long chainedEntries;
  private long interpretedBlocks;

  /** Unit exits by {@link UnitContext#exitKind} (with {@link UnitContext#EXIT_STATS}). */
  private final long[] exits = new long[UnitContext.EXIT_KINDS.length];

  /** Why direct-edge exits left their units (with {@link UnitContext#EXIT_STATS}). */
  private final ExitCauses exitCauses = UnitContext.EXIT_STATS ? new ExitCauses() : null;

  /** Unit exits after which the dispatcher found no translated block to chain to. */
  private long unchainedExits;

  /** Chains whose next unit was not in the link table ({@link DecodeCache#linkCode}). */
  private long linkMisses;

  /** The exit statistics by name, in kind order (empty without {@link UnitContext#EXIT_STATS}). */
  java.util.Map<String, Long> exitKinds() {
    java.util.Map<String, Long> m = new java.util.LinkedHashMap<>();
    if (UnitContext.EXIT_STATS) {
      for (int k = 0; k < exits.length; k++) {
        m.put(UnitContext.EXIT_KINDS[k], exits[k]);
      }
      m.put("not chained (no translated block next)", unchainedExits);
      m.put("chained, not found in the link table", linkMisses);
      m.putAll(exitCauses.byName());
      if (cpu.compiler != null) {
        m.put(
            "earlier units taken into later regions (acf.absorbUnits)",
            (long) cpu.compiler.absorbed());
      }
    }
    return m;
  }

  /**
   * One more interpreted run of {@code b}: submitted for translation when it gets hot; finished
   * translations are installed between blocks, looking every 64 interpreted blocks to keep a
   * volatile read off the interpreter's path, and so does the age check ({@code steps}: retired but
   * not yet counted in instret).
   */
  private void countTowardsTranslation(Block b, long steps) {
    if (++b.count == cpu.translateThreshold) {
      cpu.compiler.submit(b);
    }
    if ((++interpretedBlocks & 63) == 0) {
      if (cpu.translateFrom != 0 && cpu.instret + steps >= cpu.translateFrom) {
        cpu.endWarmup();
      }
      if (cpu.compiler.hasReady()) {
        cpu.compiler.installReady(cpu, cpu.instret + steps);
      }
    }
  }

  Interpreter(Cpu cpu, DecodeCache cache, UnitContext unit) {
    this.cpu = cpu;
    this.cache = cache;
    this.unit = unit;
    this.x = cpu.x;
    this.f = cpu.f;
    this.fpu = cpu.fpu;
    this.mem = cpu.memory();
  }

  /** {@link Cpu#run} for the thread on the hart now, without switching threads. */
  StopReason runHart(long maxSteps) {
    while (true) {
      long start = cpu.instret;
      long toEvent = cpu.eventAt - start;
      boolean capped = toEvent < maxSteps;
      StopReason r = runBlocks(capped ? Math.max(0, toEvent) : maxSteps);
      if (r == StopReason.FAULT && cpu.fault != null && cpu.syscalls.fault(cpu, cpu.fault)) {
        maxSteps -= cpu.instret - start;
      } else if (capped && r == StopReason.STEP_LIMIT && cpu.instret >= cpu.eventAt) {
        maxSteps -= cpu.instret - start;
        cpu.syscalls.event(cpu);
      } else {
        return r;
      }
      if (cpu.halted) {
        return StopReason.EXITED;
      }
      if (maxSteps <= 0) {
        return StopReason.STEP_LIMIT;
      }
    }
  }

  private StopReason runBlocks(long maxSteps) {
    if (cpu.halted) {
      return StopReason.EXITED;
    }
    final long[] x = this.x;
    final long[] f = this.f;
    final Memory mem = this.mem;
    final int joinAt = cpu.joinAt;
    final CompiledBlocks[] linkCode = cache.linkCode;
    final long[] linkKeys = cache.linkKeys;
    final int[] linkHeat = cache.linkHeat;
    final boolean outerGuestStores = mem.setGuestStores(true);
    long pc = cpu.pc;
    long steps = 0;
    DecodedInsn d = null;
    // Position inside the current block: i is the instruction executing, n how many will run.
    int i = 0;
    int n = 0;
    // Whether pc is inside a block the last step left early, before a firing instruction: a
    // fragment, which must not count towards a translation of its own (its block does).
    boolean fragment = false;
    // Whether the unit that ran last left at a load or store its fast path could not do
    // (UnitContext.slowExit): the interpreter runs from that instruction before translated code
    // is entered again (a unit starting there would leave at once, forever).
    boolean interpretNext = false;
    try {
      while (true) {
        if (steps >= maxSteps) {
          cpu.pc = pc;
          return StopReason.STEP_LIMIT;
        }
        // A request that arrived before this call counts too; it is consumed by the stop.
        if (unit.interruptRequested) {
          cpu.pc = pc;
          if (cpu.switchRequested) {
            return StopReason.STEP_LIMIT; // runThreads switches threads
          }
          unit.interruptRequested = false;
          cpu.userInterrupt = false;
          return StopReason.INTERRUPTED;
        }
        Block b;
        try {
          b = cache.blockAt(pc);
        } catch (MemoryFault e) {
          cpu.pc = pc;
          cpu.faultAddress = e.address();
          return stopOnFault(pc, null, "instruction fetch: " + e.getMessage(), GuestFault.SIGSEGV);
        } catch (IllegalInstructionException e) {
          cpu.fault =
              new GuestFault(
                  pc,
                  e.raw(),
                  e.size(),
                  "illegal instruction: " + e.getMessage(),
                  GuestFault.SIGILL);
          cpu.pc = pc;
          return StopReason.FAULT;
        }
        DecodedInsn[] insns = b.insns;
        // Where this block's run must stop for the decode stage: its first instruction that a
        // production matches under the current flag vector.
        int stop = insns.length;
        if (b.tagMask != 0 && cpu.decodeStage != null) {
          long vector = cpu.vectorBit;
          if ((b.tagMask & vector) != 0) {
            stop = firstFiring(b, vector);
          }
        }
        // Translated code runs tagged instructions itself (it calls the decode stage), so a
        // block that starts with one enters it too, and control can stay in translated code.
        if (stop == 0
            && !(b.code != null && cpu.breakpoint < 0 && steps + insns.length <= maxSteps)) {
          if (cpu.breakpoint == pc) {
            cpu.breakpoint = -1;
            cpu.pc = pc;
            return StopReason.BREAKPOINT;
          }
          // A block that starts with a firing instruction counts towards its translation too:
          // else a loop whose head is, say, a profiled load never leaves the decode stage's
          // reference path (load_strides ran 17x a plain run, docs/benchmarks.md).
          if (cpu.compiler != null && !fragment) {
            countTowardsTranslation(b, steps);
          }
          // The decode stage runs this instruction (and its replacement) via executeOne.
          cpu.pc = pc;
          cpu.instret += steps;
          maxSteps -= steps;
          steps = 0;
          long before = cpu.instret;
          pc = cpu.decodeStage.execute(insns[0], cpu);
          fragment = insns.length > 1 && pc == insns[0].npc;
          maxSteps -= cpu.instret - before;
          if (cpu.observer != null) {
            cpu.observe(insns[0].pc, 1, insns.length == 1 && b.transferEnd);
          }
          if (cpu.halted) {
            cpu.pc = pc;
            return StopReason.EXITED;
          }
          continue;
        }
        n = stop;
        if (steps + n > maxSteps) {
          n = (int) (maxSteps - steps);
        }
        if (cpu.breakpoint - b.start >= 0 && cpu.breakpoint < b.end) {
          if (cpu.breakpoint == pc) {
            cpu.breakpoint = -1;
            cpu.pc = pc;
            return StopReason.BREAKPOINT;
          }
          n = Math.min(n, indexOf(insns, cpu.breakpoint));
        }
        try {
          CompiledBlocks code = b.code;
          // Translated code runs whole blocks; it stops itself before a tagged instruction.
          if (code != null
              && !interpretNext
              && cpu.breakpoint < 0
              && steps + insns.length <= maxSteps) {
            // Translated code runs this block and follows control through its unit. The decode
            // stage it may call reads the instruction count: bring it up to date first.
            unitEntries++;
            cpu.instret += steps;
            maxSteps -= steps;
            steps = 0;
            int id = b.codeId;
            try {
              while (true) {
                pc = code.run(id, unit, x, f, mem, maxSteps);
                translatedInstructions += unit.unitSteps;
                int exitKind = UnitContext.EXIT_STATS ? unit.exitKind : 0;
                if (UnitContext.EXIT_STATS) {
                  exits[exitKind]++;
                  unit.exitKind = 0;
                }
                if (cpu.halted) { // a replacement the decode stage ran inside the unit exited
                  steps += unit.unitSteps;
                  cpu.pc = pc;
                  return StopReason.EXITED;
                }
                // Chaining: the unit's instructions are counted at once, so the next unit (and
                // the decode stage it may call) sees the exact count, as after a dispatch.
                cpu.instret += unit.unitSteps;
                maxSteps -= unit.unitSteps;
                // The next unit, looked up here rather than in a method of its own: C1 left
                // that method out of line and spilled the loop's registers around each call.
                if (unit.interruptRequested || cpu.breakpoint >= 0 || (pc >>> 32) != 0) {
                  if (unit.slowExit) { // its pc carries UnitContext.SLOW_EXIT_BIT
                    unit.slowExit = false;
                    pc &= ~UnitContext.SLOW_EXIT_BIT;
                    interpretNext = true;
                  }
                  break;
                }
                // Why a direct edge left its unit (with acf.exitStats; b then follows every
                // chain, which the link table's hits below do not need otherwise).
                if (UnitContext.EXIT_STATS) {
                  Block at = cache.cachedBlock(pc);
                  if (exitKind == UnitContext.EXIT_DIRECT) {
                    exitCauses.directExit(b, pc, at);
                  }
                  if (at != null) {
                    b = at;
                  }
                }
                // First the link table (DecodeCache#linkCode), whose slots stay cached; then the
                // block table, whose hit goes into the link table.
                int slot = ((int) pc >>> 1) & (DecodeCache.LINK_SLOTS - 1);
                CompiledBlocks linked = linkCode[slot];
                long key = linkKeys[slot];
                CompiledBlocks next;
                int nextId;
                if (linked != null && (int) key == (int) pc) {
                  if (((int) (key >>> 32) & 0xff) > maxSteps) {
                    if (UnitContext.EXIT_STATS) {
                      unchainedExits++;
                    }
                    break;
                  }
                  next = linked;
                  nextId = (int) (key >>> 40);
                } else {
                  Block[] bp = cache.blockPages[(int) (pc >>> Memory.PAGE_BITS)];
                  Block at = bp == null ? null : bp[(int) (pc & Memory.PAGE_MASK) >>> 1];
                  if (at == null || at.code == null || at.insns.length > maxSteps) {
                    if (UnitContext.EXIT_STATS) {
                      unchainedExits++;
                    }
                    break;
                  }
                  if (UnitContext.EXIT_STATS) {
                    linkMisses++;
                  }
                  cache.link(at);
                  b = at;
                  next = at.code;
                  nextId = at.codeId;
                }
                // A hot edge into another unit: the two may become one (acf.joinUnits). The
                // heat is the slot's (hits and misses alike), so that blocks sharing a slot still
                // count; the joined unit is entered through the block cache.
                if (joinAt > 0 && next != code && ++linkHeat[slot] >= joinAt) {
                  linkHeat[slot] = 0;
                  if (cpu.compiler.join(cpu, code, cache.cachedBlock(pc))) {
                    break;
                  }
                }
                code = next;
                id = nextId;
                unitEntries++;
                chainedEntries++;
              }
            } catch (Memory.CodeModified e) {
              steps += unit.unitSteps + 1; // the store retired
              translatedInstructions += unit.unitSteps + 1;
              pc = unit.faultInsn.npc;
            } catch (RuntimeException e) {
              steps += unit.unitSteps;
              translatedInstructions += unit.unitSteps;
              d = unit.faultInsn;
              i = 0;
              n = 0; // nothing more to take back in the handlers below
              throw e;
            }
            fragment = false;
            continue;
          }
          interpretNext = false;
          if (cpu.compiler != null) {
            countTowardsTranslation(b, steps);
          }
          steps += n;
          fragment = n < insns.length;
          pc = insns[n - 1].npc; // where a block without a taken transfer continues
          // The generated dispatch runs the block's instructions up to a transfer, or up to a
          // CSR or system instruction, which is the interpreter's own business (below).
          int from = 0;
          while (true) {
            long next;
            try {
              next = Dispatch.run(this, cpu, insns, from, n, x, f, mem, fpu, cpu.retireObserver);
            } catch (RuntimeException e) {
              i = at; // the handlers below take back what did not retire
              d = insns[i];
              throw e;
            }
            if (next != Dispatch.SYSTEM) {
              pc = next;
              break;
            }
            i = at;
            d = insns[i];
            if (d.opcode == ECALL) {
              // The block ends here: count exactly what retired, for the kernel and the limit.
              // The kernel may move the pc (a signal delivered on the way out, sigreturn).
              cpu.pc = d.npc;
              cpu.instret += steps;
              maxSteps -= steps;
              steps = 0;
              cpu.syscalls.ecall(cpu);
              if (cpu.halted) {
                pc = d.pc;
                i = n;
                cpu.pc = pc;
                return StopReason.EXITED;
              }
              pc = cpu.pc;
              break;
            }
            if (system(d, steps - (n - 1 - i))) {
              pc = d.npc; // fence.i ends its block
              break;
            }
            from = i + 1;
            if (from == n) {
              break; // pc: the block's fall-through
            }
          }
          if (cpu.observer != null) {
            cpu.observe(insns[n - 1].pc, n, n == insns.length && b.transferEnd);
          }
        } catch (Memory.CodeModified e) {
          // insns[i], a store, wrote to decoded code and retired; what followed it in this
          // block may be stale, so continue after it with freshly decoded instructions.
          steps -= n - i - 1;
          pc = d.npc;
        }
      }
    } catch (MemoryFault e) {
      // d (insns[i]) faulted and did not retire; the ones after it never ran.
      cpu.faultAddress = e.address();
      steps -= n - i;
      pc = d.pc;
      return stopOnFault(pc, d, e.getMessage(), GuestFault.SIGSEGV);
    } catch (IllegalInstructionException e) {
      steps -= n - i; // raised while executing insns[i] (a bad CSR or rounding mode)
      pc = d.pc;
      cpu.fault =
          new GuestFault(
              pc, e.raw(), e.size(), "illegal instruction: " + e.getMessage(), GuestFault.SIGILL);
      cpu.pc = pc;
      return StopReason.FAULT;
    } catch (Cpu.NestedFault e) {
      return StopReason.FAULT; // recorded, with the pc, by the nested run
    } catch (Cpu.TrapException e) {
      steps -= n - i;
      pc = d.pc;
      return stopOnFault(pc, d, e.getMessage(), e.signal);
    } finally {
      cpu.instret += steps;
      mem.setGuestStores(outerGuestStores);
    }
  }

  /** The index of the first instruction of {@code b} the decode stage takes under a vector. */
  private static int firstFiring(Block b, long vectorBit) {
    long[] masks = b.tagMasks;
    for (int t = 0; t < masks.length; t++) {
      if ((masks[t] & vectorBit) != 0) {
        return b.tagAt[t];
      }
    }
    return b.insns.length;
  }

  private static int indexOf(DecodedInsn[] insns, long addr) {
    for (int k = 0; k < insns.length; k++) {
      if (insns[k].pc == addr) {
        return k;
      }
    }
    return insns.length;
  }

  private StopReason stopOnFault(long pc, DecodedInsn d, String why, int signal) {
    if (signal != GuestFault.SIGSEGV) {
      cpu.faultAddress = pc;
    }
    cpu.fault = new GuestFault(pc, d != null ? d.raw : 0, d != null ? d.size : 0, why, signal);
    cpu.pc = pc;
    return StopReason.FAULT;
  }

  /** Where {@link Dispatch#run} stopped: the instruction that threw, or the system one. */
  int at;

  /** executeOne's instruction as a block of one, for {@link Dispatch#run}. */
  private final DecodedInsn[] one = new DecodedInsn[1];

  /**
   * Executes exactly one instruction (for the decode-stage hook: the original instruction or one of
   * a replacement sequence), with {@code d.pc} as its address; returns the next pc. It runs here,
   * through the same dispatch as a block, without entering the run loop again. The instruction
   * counts in {@link Cpu#instret()}. If it exits the guest, {@link Cpu#halted()} says so; if it
   * faults, the fault is recorded and {@link Cpu.NestedFault} unwinds to {@link Cpu#run}.
   */
  long executeOne(DecodedInsn d) {
    if (cpu.halted) {
      cpu.pc = d.pc;
      return d.pc;
    }
    cpu.pc = d.pc;
    final boolean outerGuestStores = mem.setGuestStores(true);
    try {
      one[0] = d;
      long next = Dispatch.run(this, cpu, one, 0, 1, x, f, mem, fpu, cpu.retireObserver);
      if (next == Dispatch.SYSTEM) {
        return systemOne(d);
      }
      cpu.instret++;
      cpu.pc = next;
      return next;
    } catch (Memory.CodeModified e) {
      cpu.instret++; // a store into decoded code retired; the cache already dropped the page
      cpu.pc = d.npc;
      return d.npc;
    } catch (MemoryFault e) {
      cpu.faultAddress = e.address();
      stopOnFault(d.pc, d, e.getMessage(), GuestFault.SIGSEGV);
      throw new Cpu.NestedFault();
    } catch (IllegalInstructionException e) {
      cpu.fault =
          new GuestFault(
              d.pc, e.raw(), e.size(), "illegal instruction: " + e.getMessage(), GuestFault.SIGILL);
      cpu.pc = d.pc;
      throw new Cpu.NestedFault();
    } catch (Cpu.TrapException e) {
      stopOnFault(d.pc, d, e.getMessage(), e.signal);
      throw new Cpu.NestedFault();
    } finally {
      mem.setGuestStores(outerGuestStores);
    }
  }

  /** executeOne of a CSR or system instruction: counts it and returns the next pc. */
  private long systemOne(DecodedInsn d) {
    if (d.opcode == ECALL) {
      cpu.pc = d.npc;
      cpu.instret++;
      try {
        cpu.syscalls.ecall(cpu);
      } catch (Cpu.TrapException e) {
        cpu.instret--; // the kernel refused it: the ecall does not retire
        throw e;
      }
      if (cpu.halted) {
        cpu.pc = d.pc;
      }
      return cpu.pc;
    }
    system(d, 1);
    cpu.instret++;
    cpu.pc = d.npc;
    return d.npc;
  }

  /**
   * Runs a CSR or system instruction other than ecall, the ones {@link Dispatch} hands back; {@code
   * stepsInFlight} counts the instructions of the run not yet in {@link Cpu#instret()}, this one
   * included. Returns true when its block ends with it (fence.i).
   */
  private boolean system(DecodedInsn d, long stepsInFlight) {
    switch (d.opcode) {
      case EBREAK -> throw new Cpu.TrapException("breakpoint (ebreak)", GuestFault.SIGTRAP);
      case FENCE_I -> {
        cpu.flushDecodeCache();
        return true;
      }
      case FENCE, ON_TRIG_INST, OFF_TRIG_INST -> {
        return false; // one hart: nothing to order; codewords act in the decode stage
      }
      case CSRRW, CSRRS, CSRRC, CSRRWI, CSRRSI, CSRRCI -> {
        execCsr(d, stepsInFlight);
        return false;
      }
      default -> throw illegal(d, "not implemented: " + d.exec.mnemonic());
    }
  }

  private static IllegalInstructionException illegal(DecodedInsn d, String why) {
    return new IllegalInstructionException(d.raw, d.size, why);
  }

  // ---------------------------------------------------------------- A

  private static final Op[] OPS = Op.values();

  /**
   * Executes the A instruction {@code opcode} (an {@link Op} ordinal) at {@code addr} with rs2's
   * value {@code src}; returns what rd receives. The interpreter and translated code call this.
   */
  long atomic(long addr, long src, int opcode) {
    Op op = OPS[opcode];
    boolean word = SemanticsTable.of(op).width() == 4;
    if ((addr & (word ? 3 : 7)) != 0) {
      throw new Cpu.TrapException(
          String.format("misaligned atomic access at address 0x%x", addr), GuestFault.SIGBUS);
    }
    switch (op) {
      case LR_W, LR_D -> {
        cpu.reservation = addr;
        return word ? mem.lw(addr) : mem.ld(addr);
      }
      case SC_W, SC_D -> {
        if (cpu.reservation != addr) {
          cpu.reservation = -1;
          return 1;
        }
        if (word) {
          mem.sw(addr, src);
        } else {
          mem.sd(addr, src);
        }
        cpu.reservation = -1;
        return 0;
      }
      default -> {}
    }
    long old = word ? mem.lw(addr) : mem.ld(addr);
    long v = Dispatch.amo(opcode, old, src);
    if (word) {
      mem.sw(addr, v);
    } else {
      mem.sd(addr, v);
    }
    return old;
  }

  // ---------------------------------------------------------------- Zicsr

  /** A CSR instruction: the CSRs, their numbers and access are {@link Csr}'s table. */
  private void execCsr(DecodedInsn d, long stepsInFlight) {
    int number = (int) d.imm;
    Csr csr = Csr.numbered(number);
    if (csr == null) {
      throw illegal(d, String.format("unsupported CSR 0x%03x", number));
    }
    long operand = csrImmediate(d) ? d.rs1 : x[d.rs1];
    int mode = csrMode(d);
    if (csr.floatingPoint()) {
      x[d.rd] = fpu.csr(number, mode, operand); // as translated code does
      return;
    }
    if (mode != Fpu.CSR_READ && !csr.writable()) {
      throw illegal(d, String.format("CSR 0x%03x is read-only", number));
    }
    x[d.rd] =
        switch (csr) {
          // stepsInFlight counts this instruction, which has not retired yet.
          case CYCLE, INSTRET -> cpu.instret + stepsInFlight - 1;
          default -> System.nanoTime() / 100; // time: a 10 MHz timebase
        };
  }

  /** Whether a CSR instruction's operand is its 5-bit immediate (in rs1) rather than x[rs1]. */
  static boolean csrImmediate(DecodedInsn d) {
    return d.exec == Op.CSRRWI || d.exec == Op.CSRRSI || d.exec == Op.CSRRCI;
  }

  /**
   * What a CSR instruction does to the CSR ({@link Fpu#CSR_READ} and the others): csrrs and csrrc
   * whose rs1 (or immediate) is 0 only read it.
   */
  static int csrMode(DecodedInsn d) {
    if (d.exec != Op.CSRRW && d.exec != Op.CSRRWI && d.rs1 == 0) {
      return Fpu.CSR_READ;
    }
    return switch (d.exec) {
      case CSRRW, CSRRWI -> Fpu.CSR_WRITE;
      case CSRRS, CSRRSI -> Fpu.CSR_SET;
      default -> Fpu.CSR_CLEAR;
    };
  }

  /** d's rounding mode, DYN resolved from frm; 5-7 make it illegal (the dispatch calls this). */
  int rm(DecodedInsn d) {
    int rm = d.rm == 7 ? fpu.frm : d.rm;
    if (rm > 4) {
      throw illegal(d, "invalid rounding mode " + rm);
    }
    return rm;
  }
}

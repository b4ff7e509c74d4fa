package org.dise.runtime.cpu;

import static org.dise.runtime.isa.Opcodes.*;

import org.dise.runtime.isa.Csr;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.IllegalInstructionException;
import org.dise.runtime.isa.Op;
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

  /** A block to run instead of looking one up (executeOne). */
  private Block forced;

  private long translatedInstructions;
  private long unitEntries;
  private long chainedEntries;
  private long interpretedBlocks;

  Interpreter(Cpu cpu, DecodeCache cache, UnitContext unit) {
    this.cpu = cpu;
    this.cache = cache;
    this.unit = unit;
    this.x = cpu.x;
    this.f = cpu.f;
    this.fpu = cpu.fpu;
    this.mem = cpu.memory();
  }

  /** Instructions that ran in translated (compiled) blocks; a fault's block counts whole. */
  long translatedInstructions() {
    return translatedInstructions;
  }

  /** Times the interpreter entered translated code (instructions per entry: the locality). */
  long unitEntries() {
    return unitEntries;
  }

  /** Unit entries straight from the previous unit's exit ({@link Cpu#chainedEntries}). */
  long chainedEntries() {
    return chainedEntries;
  }

  /** {@link Cpu#run} for the thread on the hart now, without switching threads. */
  StopReason runHart(long maxSteps) {
    if (forced != null) {
      return runBlocks(maxSteps); // executeOne's instruction: its caller's run handles events
    }
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
    final boolean outerGuestStores = mem.setGuestStores(true);
    long pc = cpu.pc;
    long steps = 0;
    DecodedInsn d = null;
    // Position inside the current block: i is the instruction executing, n how many will run.
    int i = 0;
    int n = 0;
    try {
      while (true) {
        if (steps >= maxSteps) {
          cpu.pc = pc;
          return StopReason.STEP_LIMIT;
        }
        // A request that arrived before this call counts too; it is consumed by the stop. The
        // single instruction of executeOne always runs (the decode stage is mid-instruction).
        if (cpu.interruptRequested && forced == null) {
          cpu.pc = pc;
          if (cpu.switchRequested) {
            return StopReason.STEP_LIMIT; // runThreads switches threads
          }
          cpu.interruptRequested = false;
          cpu.userInterrupt = false;
          return StopReason.INTERRUPTED;
        }
        Block b;
        // executeOne's single instruction: a fresh block each time, never to be translated.
        final boolean oneOff = forced != null;
        try {
          if (oneOff) {
            b = forced;
            forced = null;
          } else {
            b = cache.blockAt(pc);
          }
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
          // The decode stage runs this instruction (and its replacement) via executeOne.
          cpu.pc = pc;
          cpu.instret += steps;
          maxSteps -= steps;
          steps = 0;
          long before = cpu.instret;
          pc = cpu.decodeStage.execute(insns[0], cpu);
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
          if (code != null && cpu.breakpoint < 0 && steps + insns.length <= maxSteps) {
            // Translated code runs this block and follows control through its unit. The decode
            // stage it may call reads the instruction count: bring it up to date first.
            unitEntries++;
            cpu.instret += steps;
            maxSteps -= steps;
            steps = 0;
            try {
              while (true) {
                pc = code.run(b.codeId, unit, x, f, mem, maxSteps);
                translatedInstructions += unit.unitSteps;
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
                if (cpu.interruptRequested || cpu.breakpoint >= 0 || (pc >>> 32) != 0) {
                  break;
                }
                Block[] bp = cache.blockPages[(int) (pc >>> Memory.PAGE_BITS)];
                Block next = bp == null ? null : bp[(int) (pc & Memory.PAGE_MASK) >>> 1];
                if (next == null || next.code == null || next.insns.length > maxSteps) {
                  break;
                }
                b = next;
                code = next.code;
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
            continue;
          }
          if (cpu.compiler != null && !oneOff) {
            if (++b.count == cpu.translateThreshold) {
              cpu.compiler.submit(b);
            }
            // Finished translations are installed between blocks; looking every 64 interpreted
            // blocks keeps a volatile read off the interpreter's path.
            if ((++interpretedBlocks & 63) == 0 && cpu.compiler.hasReady()) {
              cpu.compiler.installReady(cpu);
            }
          }
          steps += n;
          pc = insns[n - 1].npc; // where a block without a taken transfer continues
          final RetireObserver retiring = cpu.retireObserver;
          block:
          for (i = 0; i < n; i++) {
            d = insns[i];
            if (retiring != null) {
              retiring.retire(d, cpu);
            }
            switch (d.opcode) {
              case LUI -> x[d.rd] = Semantics.lui(d.pc, d.imm);
              case AUIPC -> x[d.rd] = Semantics.auipc(d.pc, d.imm);
              case JAL -> {
                x[d.rd] = d.npc;
                pc = Semantics.jal(d.pc, d.imm);
                break block;
              }
              case JALR -> {
                long t = Semantics.jalr(x[d.rs1], d.imm);
                x[d.rd] = d.npc;
                pc = t;
                break block;
              }
              case BEQ -> {
                pc = Semantics.beq(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case BNE -> {
                pc = Semantics.bne(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case BLT -> {
                pc = Semantics.blt(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case BGE -> {
                pc = Semantics.bge(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case BLTU -> {
                pc = Semantics.bltu(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case BGEU -> {
                pc = Semantics.bgeu(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
                break block;
              }
              case LB -> x[d.rd] = Semantics.lb(mem, x[d.rs1] + d.imm);
              case LH -> x[d.rd] = Semantics.lh(mem, x[d.rs1] + d.imm);
              case LW -> x[d.rd] = Semantics.lw(mem, x[d.rs1] + d.imm);
              case LD -> x[d.rd] = Semantics.ld(mem, x[d.rs1] + d.imm);
              case LBU -> x[d.rd] = Semantics.lbu(mem, x[d.rs1] + d.imm);
              case LHU -> x[d.rd] = Semantics.lhu(mem, x[d.rs1] + d.imm);
              case LWU -> x[d.rd] = Semantics.lwu(mem, x[d.rs1] + d.imm);
              case SB -> Semantics.sb(mem, x[d.rs1] + d.imm, x[d.rs2]);
              case SH -> Semantics.sh(mem, x[d.rs1] + d.imm, x[d.rs2]);
              case SW -> Semantics.sw(mem, x[d.rs1] + d.imm, x[d.rs2]);
              case SD -> Semantics.sd(mem, x[d.rs1] + d.imm, x[d.rs2]);
              case ADDI -> x[d.rd] = Semantics.addi(x[d.rs1], d.imm);
              case SLTI -> x[d.rd] = Semantics.slti(x[d.rs1], d.imm);
              case SLTIU -> x[d.rd] = Semantics.sltiu(x[d.rs1], d.imm);
              case XORI -> x[d.rd] = Semantics.xori(x[d.rs1], d.imm);
              case ORI -> x[d.rd] = Semantics.ori(x[d.rs1], d.imm);
              case ANDI -> x[d.rd] = Semantics.andi(x[d.rs1], d.imm);
              case SLLI -> x[d.rd] = Semantics.slli(x[d.rs1], d.imm);
              case SRLI -> x[d.rd] = Semantics.srli(x[d.rs1], d.imm);
              case SRAI -> x[d.rd] = Semantics.srai(x[d.rs1], d.imm);
              case ADDIW -> x[d.rd] = Semantics.addiw(x[d.rs1], d.imm);
              case SLLIW -> x[d.rd] = Semantics.slliw(x[d.rs1], d.imm);
              case SRLIW -> x[d.rd] = Semantics.srliw(x[d.rs1], d.imm);
              case SRAIW -> x[d.rd] = Semantics.sraiw(x[d.rs1], d.imm);
              case ADD -> x[d.rd] = Semantics.add(x[d.rs1], x[d.rs2]);
              case SUB -> x[d.rd] = Semantics.sub(x[d.rs1], x[d.rs2]);
              case SLL -> x[d.rd] = Semantics.sll(x[d.rs1], x[d.rs2]);
              case SLT -> x[d.rd] = Semantics.slt(x[d.rs1], x[d.rs2]);
              case SLTU -> x[d.rd] = Semantics.sltu(x[d.rs1], x[d.rs2]);
              case XOR -> x[d.rd] = Semantics.xor(x[d.rs1], x[d.rs2]);
              case SRL -> x[d.rd] = Semantics.srl(x[d.rs1], x[d.rs2]);
              case SRA -> x[d.rd] = Semantics.sra(x[d.rs1], x[d.rs2]);
              case OR -> x[d.rd] = Semantics.or(x[d.rs1], x[d.rs2]);
              case AND -> x[d.rd] = Semantics.and(x[d.rs1], x[d.rs2]);
              case ADDW -> x[d.rd] = Semantics.addw(x[d.rs1], x[d.rs2]);
              case SUBW -> x[d.rd] = Semantics.subw(x[d.rs1], x[d.rs2]);
              case SLLW -> x[d.rd] = Semantics.sllw(x[d.rs1], x[d.rs2]);
              case SRLW -> x[d.rd] = Semantics.srlw(x[d.rs1], x[d.rs2]);
              case SRAW -> x[d.rd] = Semantics.sraw(x[d.rs1], x[d.rs2]);
              case MUL -> x[d.rd] = Semantics.mul(x[d.rs1], x[d.rs2]);
              case MULW -> x[d.rd] = Semantics.mulw(x[d.rs1], x[d.rs2]);
              case FLD -> f[d.rd] = Semantics.fld(mem, x[d.rs1] + d.imm);
              case FSD -> Semantics.fsd(mem, x[d.rs1] + d.imm, f[d.rs2]);
              case FLW -> f[d.rd] = Semantics.flw(mem, x[d.rs1] + d.imm);
              case FSW -> Semantics.fsw(mem, x[d.rs1] + d.imm, f[d.rs2]);
              case ECALL -> {
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
                break block;
              }
              case EBREAK -> {
                throw new Cpu.TrapException("breakpoint (ebreak)", GuestFault.SIGTRAP);
              }
              case FENCE, ON_TRIG_INST, OFF_TRIG_INST -> {}
              case FENCE_I -> {
                cpu.flushDecodeCache();
                pc = d.npc;
                break block;
              }
              case CSRRW, CSRRS, CSRRC, CSRRWI, CSRRSI, CSRRCI -> {
                execCsr(d, steps - (n - 1 - i));
              }
              default -> {
                switch (d.exec.extension()) {
                  case M -> execMulDiv(d);
                  case A -> execAtomic(d);
                  default -> execFp(d);
                }
              }
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

  /**
   * Executes exactly one instruction (for the decode-stage hook: the original instruction or one of
   * a replacement sequence), with {@code d.pc} as its address; returns the next pc. The instruction
   * counts in {@link Cpu#instret()}. If it exits the guest, {@link Cpu#halted()} says so; if it
   * faults, the fault is recorded and {@link Cpu.NestedFault} unwinds to {@link Cpu#run}.
   */
  long executeOne(DecodedInsn d) {
    // Control transfers are what profiling productions replace most (calls, branches): they
    // cannot fault or exit, so they skip the interpreter's set-up.
    long next;
    if (cpu.retireObserver != null && !cpu.halted) {
      cpu.retireObserver.retire(d, cpu);
      return executeOneObserved(d);
    }
    switch (d.opcode) {
      case JAL -> {
        x[d.rd] = d.npc;
        next = Semantics.jal(d.pc, d.imm);
      }
      case JALR -> {
        next = Semantics.jalr(x[d.rs1], d.imm);
        x[d.rd] = d.npc;
      }
      case BEQ -> next = Semantics.beq(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      case BNE -> next = Semantics.bne(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      case BLT -> next = Semantics.blt(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      case BGE -> next = Semantics.bge(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      case BLTU -> next = Semantics.bltu(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      case BGEU -> next = Semantics.bgeu(x[d.rs1], x[d.rs2]) ? d.pc + d.imm : d.npc;
      default -> next = -1;
    }
    if (next != -1 && !cpu.halted) {
      cpu.instret++;
      cpu.pc = next;
      return next;
    }
    return executeForced(d);
  }

  /** executeOne under a retire observer: the interpreter (which reports) must not report again. */
  private long executeOneObserved(DecodedInsn d) {
    RetireObserver r = cpu.retireObserver;
    cpu.retireObserver = null;
    try {
      return executeOne(d);
    } finally {
      cpu.retireObserver = r;
    }
  }

  private long executeForced(DecodedInsn d) {
    forced = new Block(new DecodedInsn[] {d});
    cpu.pc = d.pc;
    // What the decode stage runs (inserted instructions, T.INSN) is not an application block:
    // the dispatcher reports the matched instruction itself.
    BlockObserver o = cpu.observer;
    cpu.observer = null;
    StopReason r;
    try {
      r = runHart(1);
    } finally {
      cpu.observer = o;
    }
    forced = null;
    if (r == StopReason.FAULT) {
      throw new Cpu.NestedFault();
    }
    return cpu.pc;
  }

  private static IllegalInstructionException illegal(DecodedInsn d, String why) {
    return new IllegalInstructionException(d.raw, d.size, why);
  }

  // ---------------------------------------------------------------- M

  private void execMulDiv(DecodedInsn d) {
    long a = x[d.rs1];
    long b = x[d.rs2];
    x[d.rd] =
        switch (d.exec) {
          case MUL -> Semantics.mul(a, b);
          case MULH -> Semantics.mulh(a, b);
          case MULHSU -> Semantics.mulhsu(a, b);
          case MULHU -> Semantics.mulhu(a, b);
          case DIV -> Semantics.div(a, b);
          case DIVU -> Semantics.divu(a, b);
          case REM -> Semantics.rem(a, b);
          case REMU -> Semantics.remu(a, b);
          case MULW -> Semantics.mulw(a, b);
          case DIVW -> Semantics.divw(a, b);
          case DIVUW -> Semantics.divuw(a, b);
          case REMW -> Semantics.remw(a, b);
          case REMUW -> Semantics.remuw(a, b);
          default -> throw illegal(d, "not an M instruction");
        };
  }

  // ---------------------------------------------------------------- A

  private void execAtomic(DecodedInsn d) {
    x[d.rd] = atomic(x[d.rs1], x[d.rs2], d.opcode);
  }

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
    long v =
        switch (op) {
          case AMOSWAP_W -> Semantics.amoswap_w(old, src);
          case AMOADD_W -> Semantics.amoadd_w(old, src);
          case AMOXOR_W -> Semantics.amoxor_w(old, src);
          case AMOAND_W -> Semantics.amoand_w(old, src);
          case AMOOR_W -> Semantics.amoor_w(old, src);
          case AMOMIN_W -> Semantics.amomin_w(old, src);
          case AMOMAX_W -> Semantics.amomax_w(old, src);
          case AMOMINU_W -> Semantics.amominu_w(old, src);
          case AMOMAXU_W -> Semantics.amomaxu_w(old, src);
          case AMOSWAP_D -> Semantics.amoswap_d(old, src);
          case AMOADD_D -> Semantics.amoadd_d(old, src);
          case AMOXOR_D -> Semantics.amoxor_d(old, src);
          case AMOAND_D -> Semantics.amoand_d(old, src);
          case AMOOR_D -> Semantics.amoor_d(old, src);
          case AMOMIN_D -> Semantics.amomin_d(old, src);
          case AMOMAX_D -> Semantics.amomax_d(old, src);
          case AMOMINU_D -> Semantics.amominu_d(old, src);
          case AMOMAXU_D -> Semantics.amomaxu_d(old, src);
          default -> throw new IllegalStateException("not an atomic: " + op.mnemonic());
        };
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
    Csr csr =
        Csr.byNumber(number)
            .orElseThrow(() -> illegal(d, String.format("unsupported CSR 0x%03x", number)));
    boolean immediate = d.exec == Op.CSRRWI || d.exec == Op.CSRRSI || d.exec == Op.CSRRCI;
    long operand = immediate ? d.rs1 : x[d.rs1];
    boolean writes = d.exec == Op.CSRRW || d.exec == Op.CSRRWI || d.rs1 != 0;
    long old =
        switch (csr) {
          case FFLAGS -> fpu.fflags;
          case FRM -> fpu.frm;
          case FCSR -> (fpu.frm << 5) | fpu.fflags;
          // stepsInFlight counts this instruction, which has not retired yet.
          case CYCLE, INSTRET -> cpu.instret + stepsInFlight - 1;
          case TIME -> System.nanoTime() / 100; // a 10 MHz timebase
        };
    if (writes) {
      if (!csr.writable()) {
        throw illegal(d, String.format("CSR 0x%03x is read-only", number));
      }
      long v =
          switch (d.exec) {
            case CSRRW, CSRRWI -> operand;
            case CSRRS, CSRRSI -> old | operand;
            default -> old & ~operand;
          };
      switch (csr) {
        case FFLAGS -> fpu.fflags = (int) (v & 0x1f);
        case FRM -> fpu.frm = (int) (v & 7);
        default -> { // FCSR
          fpu.fflags = (int) (v & 0x1f);
          fpu.frm = (int) ((v >>> 5) & 7);
        }
      }
    }
    x[d.rd] = old;
  }

  private int rm(DecodedInsn d) {
    int rm = d.rm == 7 ? fpu.frm : d.rm;
    if (rm > 4) {
      throw illegal(d, "invalid rounding mode " + rm);
    }
    return rm;
  }

  private void execFp(DecodedInsn d) {
    final Fpu u = fpu;
    final long[] f = this.f;
    switch (d.exec) {
      case FMADD_S -> f[d.rd] = Semantics.fmadd_s(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FMSUB_S -> f[d.rd] = Semantics.fmsub_s(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FNMSUB_S -> f[d.rd] = Semantics.fnmsub_s(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FNMADD_S -> f[d.rd] = Semantics.fnmadd_s(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FADD_S -> f[d.rd] = Semantics.fadd_s(u, f[d.rs1], f[d.rs2], rm(d));
      case FSUB_S -> f[d.rd] = Semantics.fsub_s(u, f[d.rs1], f[d.rs2], rm(d));
      case FMUL_S -> f[d.rd] = Semantics.fmul_s(u, f[d.rs1], f[d.rs2], rm(d));
      case FDIV_S -> f[d.rd] = Semantics.fdiv_s(u, f[d.rs1], f[d.rs2], rm(d));
      case FSQRT_S -> f[d.rd] = Semantics.fsqrt_s(u, f[d.rs1], rm(d));
      case FSGNJ_S -> f[d.rd] = Semantics.fsgnj_s(f[d.rs1], f[d.rs2]);
      case FSGNJN_S -> f[d.rd] = Semantics.fsgnjn_s(f[d.rs1], f[d.rs2]);
      case FSGNJX_S -> f[d.rd] = Semantics.fsgnjx_s(f[d.rs1], f[d.rs2]);
      case FMIN_S -> f[d.rd] = Semantics.fmin_s(u, f[d.rs1], f[d.rs2]);
      case FMAX_S -> f[d.rd] = Semantics.fmax_s(u, f[d.rs1], f[d.rs2]);
      case FCVT_W_S -> x[d.rd] = Semantics.fcvt_w_s(u, f[d.rs1], rm(d));
      case FCVT_WU_S -> x[d.rd] = Semantics.fcvt_wu_s(u, f[d.rs1], rm(d));
      case FCVT_L_S -> x[d.rd] = Semantics.fcvt_l_s(u, f[d.rs1], rm(d));
      case FCVT_LU_S -> x[d.rd] = Semantics.fcvt_lu_s(u, f[d.rs1], rm(d));
      case FMV_X_W -> x[d.rd] = Semantics.fmv_x_w(f[d.rs1]);
      case FCLASS_S -> x[d.rd] = Semantics.fclass_s(f[d.rs1]);
      case FEQ_S -> x[d.rd] = Semantics.feq_s(u, f[d.rs1], f[d.rs2]);
      case FLT_S -> x[d.rd] = Semantics.flt_s(u, f[d.rs1], f[d.rs2]);
      case FLE_S -> x[d.rd] = Semantics.fle_s(u, f[d.rs1], f[d.rs2]);
      case FCVT_S_W -> f[d.rd] = Semantics.fcvt_s_w(u, x[d.rs1], rm(d));
      case FCVT_S_WU -> f[d.rd] = Semantics.fcvt_s_wu(u, x[d.rs1], rm(d));
      case FCVT_S_L -> f[d.rd] = Semantics.fcvt_s_l(u, x[d.rs1], rm(d));
      case FCVT_S_LU -> f[d.rd] = Semantics.fcvt_s_lu(u, x[d.rs1], rm(d));
      case FMV_W_X -> f[d.rd] = Semantics.fmv_w_x(x[d.rs1]);
      case FMADD_D -> f[d.rd] = Semantics.fmadd_d(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FMSUB_D -> f[d.rd] = Semantics.fmsub_d(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FNMSUB_D -> f[d.rd] = Semantics.fnmsub_d(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FNMADD_D -> f[d.rd] = Semantics.fnmadd_d(u, f[d.rs1], f[d.rs2], f[d.rs3], rm(d));
      case FADD_D -> f[d.rd] = Semantics.fadd_d(u, f[d.rs1], f[d.rs2], rm(d));
      case FSUB_D -> f[d.rd] = Semantics.fsub_d(u, f[d.rs1], f[d.rs2], rm(d));
      case FMUL_D -> f[d.rd] = Semantics.fmul_d(u, f[d.rs1], f[d.rs2], rm(d));
      case FDIV_D -> f[d.rd] = Semantics.fdiv_d(u, f[d.rs1], f[d.rs2], rm(d));
      case FSQRT_D -> f[d.rd] = Semantics.fsqrt_d(u, f[d.rs1], rm(d));
      case FSGNJ_D -> f[d.rd] = Semantics.fsgnj_d(f[d.rs1], f[d.rs2]);
      case FSGNJN_D -> f[d.rd] = Semantics.fsgnjn_d(f[d.rs1], f[d.rs2]);
      case FSGNJX_D -> f[d.rd] = Semantics.fsgnjx_d(f[d.rs1], f[d.rs2]);
      case FMIN_D -> f[d.rd] = Semantics.fmin_d(u, f[d.rs1], f[d.rs2]);
      case FMAX_D -> f[d.rd] = Semantics.fmax_d(u, f[d.rs1], f[d.rs2]);
      case FCVT_S_D -> f[d.rd] = Semantics.fcvt_s_d(u, f[d.rs1], rm(d));
      case FCVT_D_S -> f[d.rd] = Semantics.fcvt_d_s(u, f[d.rs1], rm(d));
      case FEQ_D -> x[d.rd] = Semantics.feq_d(u, f[d.rs1], f[d.rs2]);
      case FLT_D -> x[d.rd] = Semantics.flt_d(u, f[d.rs1], f[d.rs2]);
      case FLE_D -> x[d.rd] = Semantics.fle_d(u, f[d.rs1], f[d.rs2]);
      case FCLASS_D -> x[d.rd] = Semantics.fclass_d(f[d.rs1]);
      case FCVT_W_D -> x[d.rd] = Semantics.fcvt_w_d(u, f[d.rs1], rm(d));
      case FCVT_WU_D -> x[d.rd] = Semantics.fcvt_wu_d(u, f[d.rs1], rm(d));
      case FCVT_L_D -> x[d.rd] = Semantics.fcvt_l_d(u, f[d.rs1], rm(d));
      case FCVT_LU_D -> x[d.rd] = Semantics.fcvt_lu_d(u, f[d.rs1], rm(d));
      case FCVT_D_W -> f[d.rd] = Semantics.fcvt_d_w(u, x[d.rs1], rm(d));
      case FCVT_D_WU -> f[d.rd] = Semantics.fcvt_d_wu(u, x[d.rs1], rm(d));
      case FCVT_D_L -> f[d.rd] = Semantics.fcvt_d_l(u, x[d.rs1], rm(d));
      case FCVT_D_LU -> f[d.rd] = Semantics.fcvt_d_lu(u, x[d.rs1], rm(d));
      case FMV_X_D -> x[d.rd] = Semantics.fmv_x_d(f[d.rs1]);
      case FMV_D_X -> f[d.rd] = Semantics.fmv_d_x(x[d.rs1]);
      default -> throw illegal(d, "not implemented: " + d.exec.mnemonic());
    }
  }
}

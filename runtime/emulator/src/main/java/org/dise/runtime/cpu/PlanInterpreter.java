package org.dise.runtime.cpu;

import java.util.List;
import org.dise.runtime.cpu.plan.Accounts;
import org.dise.runtime.cpu.plan.Counters;
import org.dise.runtime.cpu.plan.Handler;
import org.dise.runtime.cpu.plan.Plan;
import org.dise.runtime.cpu.plan.PlanOp;
import org.dise.runtime.cpu.plan.Retirement;
import org.dise.runtime.cpu.plan.ReturningHandler;
import org.dise.runtime.cpu.plan.SiteCounter;
import org.dise.runtime.cpu.plan.SiteSlot;
import org.dise.runtime.isa.DecodedInsn;

/**
 * A decode stage's {@link Plan} for one tagged instruction, made ready for the interpreter: the
 * interpreter's one way to run a tagged instruction (the REPL's debugger and a timing model's runs
 * included). The case of the current flag vector, its ops in order, inserted instructions and
 * {@code T.INSN} through {@link Cpu#executeOne}, as {@link PlanEmitter} has translated code run
 * them; unlike emitted code it also runs any plan (inserted instructions that touch memory or leave
 * the sequence, {@code T.INSN} more than once or not at all, tags). Under a timing model ({@link
 * RetireObserver}) it tells the accounts of each decode stall and handler call.
 *
 * <p>The plan is flattened once into arrays of an int op code and its operands, the handles
 * resolved, so that running it is one {@code switch} per op and allocates nothing: list walks and
 * type tests per op cost the interpreter a third more on a call at every load (docs/benchmarks.md).
 */
public final class PlanInterpreter {
  // The op codes, one switch case each.
  private static final int INC = 0, DEC = 1, SET = 2, SET_REGISTER = 3, REPLACED = 4, CALL = 5;
  private static final int CALL_RETURNING = 6, SITE = 7, INSERT = 8, ORIGINAL = 9, SLOT = 10;

  private final Accounts accounts;

  /** Per case: its flag vectors, its first op, its tag's sinks (0: none); {@code start} ends. */
  private final long[] vectors;

  private final int[] start;
  private final long[] tags;

  /** Per op: its code, an int operand (counter, sink, absolute target or -1) and a long one. */
  private final int[] code;

  private final int[] operand;
  private final long[] constant;

  /** Per op: its handle ({@link Counters}, {@link Call}, {@link SiteCounter}, an inserted insn). */
  private final Object[] handle;

  /** Per op: the sink of a {@link #SITE} (its {@link #operand} is unused). */
  private final int[] sink;

  public PlanInterpreter(Plan p) {
    this.accounts = p.accounts();
    List<Plan.Case> cases = p.cases();
    int n = 0;
    for (Plan.Case c : cases) {
      n += c.ops().size();
    }
    vectors = new long[cases.size()];
    start = new int[cases.size() + 1];
    tags = new long[cases.size()];
    code = new int[n];
    operand = new int[n];
    constant = new long[n];
    handle = new Object[n];
    sink = new int[n];
    int i = 0;
    for (int c = 0; c < cases.size(); c++) {
      vectors[c] = cases.get(c).vectors();
      start[c] = i;
      int base = i;
      for (PlanOp op : cases.get(c).ops()) {
        if (op instanceof PlanOp.Tag t) {
          tags[c] = t.sinks();
          code[i] = -1; // read before the case runs (below): a no-op in place
        } else {
          flatten(op, i, base);
        }
        i++;
      }
    }
    start[cases.size()] = i;
  }

  private void flatten(PlanOp op, int i, int base) {
    if (op instanceof PlanOp.Count k) {
      handle[i] = k.counters();
      operand[i] = k.counter();
      constant[i] = k.register() >= 0 ? k.register() : k.constant();
      code[i] =
          switch (k.kind()) {
            case INC -> INC;
            case DEC -> DEC;
            case SET -> k.register() >= 0 ? SET_REGISTER : SET;
          };
    } else if (op instanceof PlanOp.Replaced) {
      code[i] = REPLACED;
    } else if (op instanceof PlanOp.Call k) {
      code[i] = k.result() >= 0 ? CALL_RETURNING : CALL;
      operand[i] = k.sink();
      handle[i] = new Call(k);
    } else if (op instanceof PlanOp.Slot k) {
      code[i] = SLOT;
      operand[i] = k.sink();
      handle[i] = new Call(k.slot(), k.args(), k.argArray(), k.result());
    } else if (op instanceof PlanOp.Site s) {
      code[i] = SITE;
      sink[i] = s.sink();
      handle[i] = s.counter();
    } else if (op instanceof PlanOp.Insert e) {
      code[i] = INSERT;
      handle[i] = e.insn();
      operand[i] = e.target() < 0 ? -1 : base + e.target();
    } else {
      code[i] = ORIGINAL;
    }
  }

  /** A {@link PlanOp.Call} with its argument sources as codes. */
  private static final class Call {
    /** Argument source codes below 0; {@code >= F_BASE}: an f register; else an x register. */
    static final int CONST = -1;

    static final int NEXT = -2;
    static final int TID = -3;
    static final int F_BASE = 1 << 16;

    final Handler handler;
    final ReturningHandler returning;
    final SiteSlot slot;
    final int[] source;
    final long[] constants;
    final long[] args;
    final int result;

    Call(PlanOp.Call k) {
      this(k.handler(), null, k.args(), k.argArray(), k.result());
    }

    /** A {@link PlanOp.Slot}'s call: its arguments read as a call's, for its last. */
    Call(SiteSlot slot, List<PlanOp.Arg> args, long[] argArray, int result) {
      this(null, slot, args, argArray, result);
    }

    private Call(
        Handler handler, SiteSlot slot, List<PlanOp.Arg> sources, long[] argArray, int result) {
      this.handler = handler;
      this.returning = handler != null && result >= 0 ? (ReturningHandler) handler : null;
      this.slot = slot;
      this.args = argArray;
      this.result = result;
      int n = sources.size();
      this.source = new int[n];
      this.constants = new long[n];
      for (int a = 0; a < n; a++) {
        PlanOp.Arg arg = sources.get(a);
        if (arg instanceof PlanOp.Arg.Const c) {
          source[a] = CONST;
          constants[a] = c.value();
        } else if (arg instanceof PlanOp.Arg.Next) {
          source[a] = NEXT;
        } else if (arg instanceof PlanOp.Arg.ThreadId) {
          source[a] = TID;
        } else if (arg instanceof PlanOp.Arg.F f) {
          source[a] = F_BASE + f.reg();
        } else {
          source[a] = ((PlanOp.Arg.X) arg).reg();
        }
      }
    }

    /** The arguments into {@link #args}, read now. */
    long[] read(Cpu cpu, long next) {
      long[] args = this.args;
      int[] source = this.source;
      for (int a = 0; a < args.length; a++) {
        int s = source[a];
        args[a] =
            s >= 0
                ? s < F_BASE ? cpu.x[s] : cpu.f[s - F_BASE]
                : s == CONST ? constants[a] : s == NEXT ? next : cpu.threadId();
      }
      return args;
    }
  }

  /**
   * Runs the plan for {@code d} on {@code cpu} under flag vector {@code vectorBit} (one bit);
   * returns the address to continue at.
   */
  public long run(DecodedInsn d, Cpu cpu, long vectorBit) {
    long[] vectors = this.vectors;
    for (int c = 0; c < vectors.length; c++) {
      if ((vectors[c] & vectorBit) != 0) {
        return run(c, d, cpu, false);
      }
    }
    return cpu.executeOne(d); // a flag vector under which nothing matches with an effect
  }

  /**
   * Runs the plan's ops for {@code d} up to its {@code T.INSN}, which the caller runs next (a
   * prologue, {@link Plan#isPrologue}).
   */
  public void runPrologue(DecodedInsn d, Cpu cpu, long vectorBit) {
    for (int c = 0; c < vectors.length; c++) {
      if ((vectors[c] & vectorBit) != 0) {
        run(c, d, cpu, true);
        return;
      }
    }
  }

  private long run(int c, DecodedInsn d, Cpu cpu, boolean prologue) {
    final Accounts accounts = this.accounts;
    final int[] code = this.code;
    final RetireObserver timing = cpu.retireObserver;
    final long tag = tags[c];
    long address = 0;
    long stored = 0;
    if (tag != 0) { // the record's address and store data, read before anything runs
      address = Retirement.address(d, cpu);
      stored = Retirement.stored(d, cpu);
    }
    long next = d.npc;
    int i = start[c];
    final int end = start[c + 1];
    while (i < end) {
      switch (code[i]) {
        case INC -> ((Counters) handle[i]).inc(operand[i]);
        case DEC -> ((Counters) handle[i]).dec(operand[i]);
        case SET -> ((Counters) handle[i]).set(operand[i], constant[i]);
        case SET_REGISTER -> {
          Counters k = (Counters) handle[i];
          k.set(operand[i], k.register((int) constant[i]));
        }
        case REPLACED -> {
          if (timing == null) {
            accounts.replaced();
          } else {
            accounts.replacing(d);
          }
        }
        case CALL -> {
          Call k = (Call) handle[i];
          long[] args = k.read(cpu, next);
          k.handler.record(cpu, d, args, accounts.callStart());
          accounts.called(operand[i]);
          if (timing != null) {
            accounts.timeHandler(operand[i], args, d);
          }
        }
        case CALL_RETURNING -> {
          Call k = (Call) handle[i];
          long[] args = k.read(cpu, next);
          long now = accounts.callReturningStart(operand[i]);
          if (timing != null) {
            accounts.timeHandler(operand[i], args, d);
          }
          cpu.x[k.result] = k.returning.recordReturning(cpu, d, args, now);
        }
        case SITE -> site((SiteCounter) handle[i], sink[i], d, cpu);
        case SLOT -> {
          Call k = (Call) handle[i];
          long[] args = k.read(cpu, next);
          accounts.slotCalled(operand[i]);
          if (timing != null) {
            accounts.timeHandler(operand[i], args, d);
          }
          long r = k.slot.update(args[args.length - 1]);
          if (k.result >= 0) {
            cpu.x[k.result] = r;
          }
        }
        case INSERT -> {
          DecodedInsn e = (DecodedInsn) handle[i];
          long r = cpu.executeOne(e);
          accounts.insertedOne();
          if (cpu.halted) {
            return r;
          }
          if (r != e.npc) {
            if (operand[i] < 0) { // a jump out of the sequence: the application continues there
              if (tag != 0) {
                accounts.retireTagged(tag, d, r, address, stored);
              }
              return r;
            }
            i = operand[i];
            continue;
          }
        }
        case ORIGINAL -> {
          if (prologue) {
            return d.npc;
          }
          next = cpu.executeOne(d);
          if (cpu.halted) {
            return next;
          }
        }
        default -> {} // a tag, read above
      }
      i++;
    }
    if (tag != 0) {
      accounts.retireTagged(tag, d, next, address, stored);
    }
    return next;
  }

  /** A per-site counter's addition, accounted as a call. */
  private void site(SiteCounter site, int sink, DecodedInsn d, Cpu cpu) {
    long now = accounts.callStart() + 1; // this instruction included
    if (site.since != null) {
      site.instructions += now - site.since.at;
      site.since.at = now;
      site.events++;
    } else if (!site.whenTaken || d.taken(cpu.x)) {
      site.events++;
    }
    accounts.called(sink);
  }
}

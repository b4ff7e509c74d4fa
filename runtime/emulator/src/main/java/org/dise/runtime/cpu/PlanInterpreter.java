package org.dise.runtime.cpu;

import java.util.List;
import org.dise.runtime.cpu.plan.Accounts;
import org.dise.runtime.cpu.plan.Counters;
import org.dise.runtime.cpu.plan.Plan;
import org.dise.runtime.cpu.plan.PlanOp;
import org.dise.runtime.cpu.plan.ReturningHandler;
import org.dise.runtime.cpu.plan.SiteCounter;
import org.dise.runtime.isa.DecodedInsn;

/**
 * Runs a decode stage's {@link Plan} for a tagged instruction on the interpreter, as {@link
 * PlanEmitter} has translated code run it: the case of the current flag vector, its ops in order,
 * inserted instructions and {@code T.INSN} through {@link Cpu#executeOne}. Unlike emitted code it
 * also runs inserted instructions that touch memory or leave the sequence (the application goes on
 * at the jump's target). Tells no timing model of stalls or handlers: a stage under one keeps its
 * own path (spec/emulator.md, "Plans").
 */
public final class PlanInterpreter {
  private PlanInterpreter() {}

  /** Runs {@code p} for {@code d} on {@code cpu}; returns the address to continue at. */
  public static long run(Plan p, DecodedInsn d, Cpu cpu) {
    long vector = cpu.vectorBit;
    for (Plan.Case c : p.cases()) {
      if ((c.vectors() & vector) != 0) {
        return run(p.accounts(), c.ops(), d, cpu);
      }
    }
    return cpu.executeOne(d); // a flag vector under which nothing matches with an effect
  }

  private static long run(Accounts accounts, List<PlanOp> ops, DecodedInsn d, Cpu cpu) {
    long next = d.npc;
    int i = 0;
    while (i < ops.size()) {
      PlanOp op = ops.get(i);
      if (op instanceof PlanOp.Insert e) {
        long r = cpu.executeOne(e.insn());
        accounts.insertedOne();
        if (cpu.halted()) {
          return r;
        }
        if (r != e.insn().npc) {
          if (e.target() < 0) {
            return r; // a jump out of the sequence: the application continues there
          }
          i = e.target();
          continue;
        }
      } else if (op instanceof PlanOp.Original) {
        next = cpu.executeOne(d);
        if (cpu.halted()) {
          return next;
        }
      } else if (op instanceof PlanOp.Count k) {
        count(k);
      } else if (op instanceof PlanOp.Replaced) {
        accounts.replaced();
      } else if (op instanceof PlanOp.Call k) {
        call(accounts, k, d, cpu, next);
      } else if (op instanceof PlanOp.Site s) {
        site(accounts, s, d, cpu);
      }
      i++;
    }
    return next;
  }

  private static void count(PlanOp.Count k) {
    Counters c = k.counters();
    switch (k.kind()) {
      case INC -> c.inc(k.counter());
      case DEC -> c.dec(k.counter());
      case SET -> c.set(k.counter(), k.register() >= 0 ? c.register(k.register()) : k.constant());
    }
  }

  /** The arguments into the call's array, then the accounts and the record, as emitted. */
  private static void call(Accounts accounts, PlanOp.Call c, DecodedInsn d, Cpu cpu, long next) {
    long[] args = c.argArray();
    for (int a = 0; a < args.length; a++) {
      PlanOp.Arg arg = c.args().get(a);
      args[a] =
          arg instanceof PlanOp.Arg.Const k
              ? k.value()
              : arg instanceof PlanOp.Arg.Next
                  ? next
                  : arg instanceof PlanOp.Arg.ThreadId
                      ? cpu.threadId()
                      : arg instanceof PlanOp.Arg.F f
                          ? cpu.f[f.reg()]
                          : cpu.x[((PlanOp.Arg.X) arg).reg()];
    }
    if (c.result() >= 0) {
      long start = accounts.callReturningStart(c.sink());
      cpu.x[c.result()] = ((ReturningHandler) c.handler()).recordReturning(cpu, d, args, start);
      return;
    }
    c.handler().record(cpu, d, args, accounts.callStart());
    accounts.called(c.sink());
  }

  /** A per-site counter's addition, accounted as a call. */
  private static void site(Accounts accounts, PlanOp.Site s, DecodedInsn d, Cpu cpu) {
    SiteCounter site = s.counter();
    long now = accounts.callStart() + 1; // this instruction included
    if (site.since != null) {
      site.instructions += now - site.since.at;
      site.since.at = now;
      site.events++;
    } else if (!site.whenTaken || d.taken(cpu.x)) {
      site.events++;
    }
    accounts.called(s.sink());
  }
}

/*
 * The profile handlers as real RISC-V code (issue 27; spec/timing.md, "Handlers as real code").
 *
 * The first paper (Section 5.1) writes its handlers in C, compiles them for its simulated core and
 * runs them there, so that their instructions, memory traffic and cache and predictor pollution
 * are part of the measured cycles. These are ours: one function per library sink, doing the work
 * the sink's Java implementation does per event (hash the key, probe or insert into an
 * open-addressing table, update the counters), built freestanding (no libc) into handlers.elf,
 * linked at a fixed address above the guest's stack (handlers.ld). Under `acf run --timing`, every
 * `call(...)` runs the sink's function on a shadow hart (its own registers and stack) over the
 * guest's memory; the Java sink still records the profile, this code decides the cost.
 *
 * Calling convention (ShadowHandlers.java sets it up):
 *   a0  the sink's table (struct table, below), in the shadow data region
 *   a1  the event instruction's pc
 *   a2  its dynamic target: a control transfer's destination (the fall-through when a branch is
 *       not taken), a load's or store's effective address
 *   a3  application instructions retired before the event
 *   a4  the event's class (EV_*), with EV_TAKEN for a taken branch
 *   a5  the guest's stack pointer
 *   a6  the call's first argument, a7 its second (call(sink, key, value) of the maps)
 * A handler returns to the address in ra; it never calls the kernel.
 */

#include "acf_handler.h"

/* Hot code regions: per branch, its count and the instructions since the previous branch. */
void region_counter(struct table *t, u64 pc, u64 target, u64 insns) {
  struct entry *e = probe(t, pc, 0);
  u64 now = insns + 1;
  if (e) {
    e->count++;
    e->value += now - t->last;
  }
  t->last = now;
}

/* Hot methods: invocations per callee, taken (backward) branches per branch pc. */
void method_counter(struct table *t, u64 pc, u64 target, u64 insns, u64 kind) {
  u64 c = kind & EV_CLASS;
  if (c == EV_CALL) {
    bump(t, target, 0);
  } else if (c == EV_BRANCH && (kind & EV_TAKEN)) {
    bump(t, pc, 1);
  }
}

/* Hot call pairs: per (call site, callee), a count. */
void call_pair_counter(struct table *t, u64 pc, u64 target) {
  bump(t, pc, target);
}

/*
 * Hot paths: a path is hashed as it grows; it ends (and is counted) at a back edge, a return, or
 * when a call suspends it (the caller's path is pushed and resumes after the return).
 */
void path_counter(struct table *t, u64 pc, u64 target, u64 insns, u64 kind) {
  u64 c = kind & EV_CLASS;
  u64 d = t->depth;
  if (c == EV_CALL) {
    if (d < STACK_DEPTH) {
      t->stack[d] = t->cursor;
      t->depth = d + 1;
    }
    t->cursor = target;
    return;
  }
  if (c == EV_RETURN) {
    bump(t, t->cursor, 0);
    if (d > 0) {
      t->depth = d - 1;
      t->cursor = t->stack[d - 1];
    } else {
      t->cursor = target;
    }
    return;
  }
  if (target <= pc || c == EV_JUMP) {
    bump(t, t->cursor, 0); /* a back edge or an indirect jump ends the path */
    t->cursor = target;
  } else {
    t->cursor = t->cursor * 31 + target;
  }
}

/*
 * Calling contexts: a node per (parent node, callee), a shadow stack of nodes; every event charges
 * the instructions since the previous one to the node on top.
 */
void calling_context(struct table *t, u64 pc, u64 target, u64 insns, u64 kind) {
  u64 d = t->depth;
  u64 top = d ? t->stack[d - 1] : 0;
  if (top) {
    t->e[top - 1].value += insns - t->last;
  }
  t->last = insns;
  u64 c = kind & EV_CLASS;
  if (c == EV_CALL) {
    struct entry *e = probe(t, top, target);
    if (e && d < STACK_DEPTH) {
      e->count++;
      t->stack[d] = (u64) (e - t->e) + 1;
      t->depth = d + 1;
    }
  } else if (c == EV_RETURN && d > 0) {
    t->depth = d - 1;
  }
}

/*
 * SimPoint basic block vectors: per dynamic block (previous transfer's target, this transfer), a
 * count and its instructions; at the end of each interval the vector is written out and cleared.
 */
void bbv(struct table *t, u64 pc, u64 target, u64 insns) {
  if (t->next == 0) {
    t->next = t->param[0];
  }
  if (insns >= t->next) {
    for (u64 i = 0; i <= t->mask; i++) {
      if (t->e[i].count) {
        t->e[i].count = 0;
      }
    }
    t->used = 0;
    t->next += t->param[0];
  }
  struct entry *e = probe(t, t->cursor, pc);
  if (e) {
    e->count++;
    e->value += insns - t->last;
  }
  t->last = insns;
  t->cursor = target;
}

/* Appends (pc, address, instructions) to the table used as a ring buffer of log entries. */
static inline void log_entry(struct table *t, u64 pc, u64 target, u64 insns) {
  struct entry *e = &t->e[t->cursor & t->mask];
  t->cursor++;
  e->k0 = pc;
  e->k1 = target;
  e->count = 1;
  e->value = insns;
}

/* Bursty tracing: append (pc, address) to the trace buffer; streams are found at the end. */
void burst_trace(struct table *t, u64 pc, u64 target, u64 insns) {
  log_entry(t, pc, target, insns);
}

/* A logging store watchpoint: a store into [param0, param0 + param1) is logged. */
void watchpoint(struct table *t, u64 pc, u64 target, u64 insns) {
  if (target - t->param[0] < t->param[1]) {
    log_entry(t, pc, target, insns);
  }
}

/* The aggregation maps: call(sink, key, value). */
void count_map(struct table *t, u64 pc, u64 target, u64 insns, u64 kind, u64 sp, u64 key) {
  bump(t, key, 0);
}

void sum_map(struct table *t, u64 pc, u64 target, u64 insns, u64 kind, u64 sp, u64 key, u64 v) {
  struct entry *e = probe(t, key, 0);
  if (e) {
    e->count++;
    e->value += v;
  }
}

void min_map(struct table *t, u64 pc, u64 target, u64 insns, u64 kind, u64 sp, u64 key, u64 v) {
  struct entry *e = probe(t, key, 0);
  if (e) {
    if (e->count++ == 0 || (long) v < (long) e->value) {
      e->value = v;
    }
  }
}

void max_map(struct table *t, u64 pc, u64 target, u64 insns, u64 kind, u64 sp, u64 key, u64 v) {
  struct entry *e = probe(t, key, 0);
  if (e) {
    if (e->count++ == 0 || (long) v > (long) e->value) {
      e->value = v;
    }
  }
}

void state_map(struct table *t, u64 pc, u64 target, u64 insns, u64 kind, u64 sp, u64 key, u64 v) {
  struct entry *e = probe(t, key, 0);
  if (e) {
    e->count++;
    e->value = v;
  }
}

/* Histograms: log2 buckets (param0 = 0) or linear ones from param1 in steps of param2. */
void hist_map(struct table *t, u64 pc, u64 target, u64 insns, u64 kind, u64 sp, u64 key, u64 v) {
  u64 bucket;
  if (t->param[0] == 0) {
    bucket = 0; /* rv64gc has no clz: the bit length by shifts */
    while (v >> bucket) {
      bucket++;
    }
  } else {
    bucket = ((long) v - (long) t->param[1]) / (long) t->param[2];
  }
  bump(t, key, bucket);
}

/*
 * Where a handler returns to: the runtime sets ra here and stops the shadow hart before it runs
 * this instruction.
 */
__asm__(".text\n.globl acf_handler_return\n.type acf_handler_return, @function\n"
        "acf_handler_return:\n\tebreak\n.size acf_handler_return, 2\n");

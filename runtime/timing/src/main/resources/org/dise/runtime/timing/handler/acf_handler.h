/*
 * acf_handler.h: what a profile handler written in C needs (spec/timing.md, "Handlers as real
 * code"; docs/custom-profiles.md): the event classes, the sink's table (its data region, which the
 * runtime maps and whose header it fills) and an open-addressing probe. A handler is a function
 *
 *   void NAME(struct table *t, u64 pc, u64 target, u64 insns, u64 kind, u64 sp, u64 arg0,
 *             u64 arg1);
 *
 * called with the event of each call(...) (a0-a7, see handlers.c); it must not call the kernel.
 */
#ifndef ACF_HANDLER_H
#define ACF_HANDLER_H

typedef unsigned long u64;

#define EV_OTHER 0
#define EV_BRANCH 1
#define EV_CALL 2
#define EV_RETURN 3
#define EV_JUMP 4
#define EV_LOAD 5
#define EV_STORE 6
#define EV_CLASS 15
#define EV_TAKEN 256

/* One slot: a one- or two-word key, a count (0: the slot is free) and a value. */
struct entry {
  u64 k0, k1, count, value;
};

/*
 * A sink's data region: the header the runtime fills (mask, param) and the handler's own state,
 * then the open-addressing table of mask + 1 slots (handler.table_entries).
 */
struct table {
  u64 mask;      /* slots - 1 (a power of two), set by the runtime */
  u64 used;      /* slots in use */
  u64 dropped;   /* events not counted: the table was three quarters full */
  u64 last;      /* application instructions at the previous event */
  u64 param[4];  /* the sink's parameters the runtime passes (interval, range, ...) */
  u64 depth;     /* a shadow stack's depth (paths, calling contexts) */
  u64 cursor;    /* a trace buffer's next slot, a block's start */
  u64 next;      /* the next interval's end (bbv) */
  u64 pad[5];
  u64 stack[48]; /* shadow call stack: path hashes or context nodes */
  struct entry e[];
};

#define STACK_DEPTH 48

static inline u64 mix(u64 k0, u64 k1) {
  u64 h = k0 * 0x9E3779B97F4A7C15UL ^ k1 * 0xC2B2AE3D27D4EB4FUL;
  return h ^ (h >> 29);
}

/* The slot of key (k0, k1), inserted if absent; 0 when the table is too full to insert. */
static inline struct entry *probe(struct table *t, u64 k0, u64 k1) {
  u64 m = t->mask;
  u64 i = mix(k0, k1) & m;
  for (;;) {
    struct entry *e = &t->e[i];
    if (e->count == 0) {
      if (4 * t->used >= 3 * (m + 1)) {
        t->dropped++;
        return 0;
      }
      t->used++;
      e->k0 = k0;
      e->k1 = k1;
      return e;
    }
    if (e->k0 == k0 && e->k1 == k1) {
      return e;
    }
    i = (i + 1) & m;
  }
}

static inline void bump(struct table *t, u64 k0, u64 k1) {
  struct entry *e = probe(t, k0, k1);
  if (e) {
    e->count++;
  }
}

#endif

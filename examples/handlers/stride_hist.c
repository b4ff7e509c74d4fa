/*
 * A cheaper handler for examples/acf/load_strides.acf's `strides` histogram
 * (docs/custom-profiles.md, "8. What the handler costs"). The library's hist_map handler hashes
 * (pc, bucket) into an open-addressing table; this one indexes a direct-mapped array of counters
 * by the load's pc bits and the bucket, without probing: fewer instructions per call, at the price
 * of collisions between loads whose pcs share those bits (the Java sink still records the exact
 * profile: a handler decides only what the timing model charges).
 *
 * Arguments (acf_handler.h): a6 = the call's first argument (T.PC), a7 = its second (the stride).
 */
#include "acf_handler.h"

void strides(struct table *t, u64 pc, u64 target, u64 insns, u64 kind, u64 sp, u64 key,
             u64 stride) {
  long b = ((long) stride + 64) >> 3; /* buckets of 8 from -64, as the sink's */
  if (b < 0) {
    b = 0;
  } else if (b > 16) {
    b = 17;
  }
  t->e[((key >> 1) * 18 + b) & t->mask].count++;
}

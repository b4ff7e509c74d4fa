/* stride BYTES PASSES: loads one word every 64 bytes over an array of BYTES, PASSES times.
 * Misses per access step up as BYTES passes each cache's capacity (spec/timing.md). */
#include "micro.h"

#define MAX (8L << 20)
static volatile u64 data[MAX / 8];

static long kernel(int argc, char **argv) {
  long bytes = argc > 1 ? num(argv[1]) : 65536;
  long passes = argc > 2 ? num(argv[2]) : 4;
  if (bytes > MAX) bytes = MAX;
  u64 sum = 0;
  for (long p = 0; p < passes; p++) {
    for (long i = 0; i < bytes / 8; i += 8) {
      sum += data[i];
    }
  }
  return (long)sum + bytes;
}

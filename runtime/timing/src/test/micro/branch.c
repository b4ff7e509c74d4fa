/* branch MODE N: N iterations of one conditional branch whose outcome follows a repeating
 * pattern of period 6 (MODE 0: gshare learns it) or random bits (MODE 1: half mispredicted). */
#include "micro.h"

static long kernel(int argc, char **argv) {
  long mode = argc > 1 ? num(argv[1]) : 0;
  long n = argc > 2 ? num(argv[2]) : 1000;
  static const unsigned char pattern[6] = {1, 1, 0, 1, 0, 0};
  u64 seed = 2463534242ULL;
  long taken = 0;
  long k = 0;
  for (long i = 0; i < n; i++) {
    int bit;
    if (mode == 0) {
      bit = pattern[k];
      k = k == 5 ? 0 : k + 1;
    } else {
      seed ^= seed << 13;
      seed ^= seed >> 7;
      seed ^= seed << 17;
      bit = (int)(seed >> 40) & 1;
    }
    /* The branch under test: an asm barrier on each side keeps it a branch. */
    if (bit) {
      __asm__ volatile("" ::: "memory");
      taken += 3;
    } else {
      __asm__ volatile("" ::: "memory");
      taken -= 1;
    }
  }
  return taken;
}

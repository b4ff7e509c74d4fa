/* mul MODE N: N iterations of 8 multiplies, one dependent chain (MODE 0: each waits for the
 * previous, CPI = the multiply latency) or 8 independent chains (MODE 1: they overlap). */
#include "micro.h"

static long kernel(int argc, char **argv) {
  long mode = argc > 1 ? num(argv[1]) : 0;
  long n = argc > 2 ? num(argv[2]) : 1000;
  u64 y = (u64)argc * 2 + 1;
  u64 a = 3, b = 5, c = 7, d = 9, e = 11, f = 13, g = 15, h = 17;
  if (mode == 0) {
    for (long i = 0; i < n; i++) {
      __asm__ volatile(
          "mul %0, %0, %1\n mul %0, %0, %1\n mul %0, %0, %1\n mul %0, %0, %1\n"
          "mul %0, %0, %1\n mul %0, %0, %1\n mul %0, %0, %1\n mul %0, %0, %1\n"
          : "+r"(a)
          : "r"(y));
    }
  } else {
    for (long i = 0; i < n; i++) {
      __asm__ volatile(
          "mul %0, %0, %8\n mul %1, %1, %8\n mul %2, %2, %8\n mul %3, %3, %8\n"
          "mul %4, %4, %8\n mul %5, %5, %8\n mul %6, %6, %8\n mul %7, %7, %8\n"
          : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h)
          : "r"(y));
    }
  }
  return (long)(a + b + c + d + e + f + g + h);
}

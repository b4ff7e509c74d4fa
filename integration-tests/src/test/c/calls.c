// A test program for the Fig. 6 profiles: its functions count their own calls per
// caller-callee pair (direct, through function pointers, recursive), and it prints the
// counts, so a test can compare the DISE profile with the program's own figures.
//   calls [N]            run the calls N times (default 3)
//   calls codewords N    off_trig_inst, phase1 (N), on_trig_inst, phase2 (N), off_trig_inst, phase3
//   calls store I        write watched[I] (I may be outside the array: see the watchpoint test)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOIPA __attribute__((noipa))
enum { MAIN, LEAF, TWICE, FIB, APPLY, PHASE1, PHASE2, PHASE3, NFUNCS };
static const char *names[NFUNCS] = {"main", "leaf", "twice", "fib", "apply", "phase1", "phase2",
                                    "phase3"};
static long pairs[NFUNCS][NFUNCS];
long watched[4];
long after[4];

NOIPA long leaf(int caller, long x) {
  pairs[caller][LEAF]++;
  return x * 3 + 1;
}

NOIPA long twice(int caller, long x) {
  pairs[caller][TWICE]++;
  return leaf(TWICE, x) + leaf(TWICE, x + 1);
}

NOIPA long fib(int caller, long n) {
  pairs[caller][FIB]++;
  return n < 2 ? n : fib(FIB, n - 1) + fib(FIB, n - 2);
}

typedef long (*fn)(int, long);
NOIPA long apply(int caller, fn f, long x) {
  pairs[caller][APPLY]++;
  return f(APPLY, x);  // an indirect call: jalr through a register
}

static fn table[3] = {leaf, twice, fib};

NOIPA long phase1(int caller, long n) {
  pairs[caller][PHASE1]++;
  long s = 0;
  for (long i = 0; i < n; i++) s += leaf(PHASE1, i);
  return s;
}

NOIPA long phase2(int caller, long n) {
  pairs[caller][PHASE2]++;
  long s = 0;
  for (long i = 0; i < n; i++) s += twice(PHASE2, i);
  return s;
}

NOIPA long phase3(int caller, long n) {
  pairs[caller][PHASE3]++;
  long s = 0;
  for (long i = 0; i < n; i++) s += fib(PHASE3, 5);
  return s;
}

static void report(long sum) {
  printf("sum %ld\n", sum);
  for (int a = 0; a < NFUNCS; a++)
    for (int b = 0; b < NFUNCS; b++)
      if (pairs[a][b]) printf("pair %s %s %ld\n", names[a], names[b], pairs[a][b]);
}

int main(int argc, char **argv) {
  long sum = 0;
  if (argc > 2 && strcmp(argv[1], "codewords") == 0) {
    long n = atol(argv[2]);
    __asm__ volatile(".4byte 0x0000100b" ::: "memory");  // off_trig_inst
    sum += phase1(MAIN, n);
    __asm__ volatile(".4byte 0x0000000b" ::: "memory");  // on_trig_inst
    sum += phase2(MAIN, n);
    __asm__ volatile(".4byte 0x0000100b" ::: "memory");  // off_trig_inst
    sum += phase3(MAIN, n);
  } else if (argc > 2 && strcmp(argv[1], "store") == 0) {
    long i = atol(argv[2]);
    for (long k = 0; k < 4; k++) after[k] = k;
    printf("watched %p %p\n", (void *)watched, (void *)(watched + 4));
    long *p = watched;
    p[i] = 42;  // i in 0..3 writes the watched range; 4..7 writes `after` (just past it)
    sum = p[i] + after[0];
  } else {
    long n = argc > 1 ? atol(argv[1]) : 3;
    for (long i = 0; i < n; i++) {
      sum += leaf(MAIN, i);
      sum += twice(MAIN, i);
      sum += fib(MAIN, 6);
      sum += apply(MAIN, table[i % 3], i);
    }
  }
  report(sum);
  return 0;
}

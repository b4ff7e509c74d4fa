// A test program for the hot path profile: classify() runs a loop whose body takes one of four
// acyclic paths per iteration (i % 3 == 0, i % 5 == 0, both, neither); it counts how often each
// is taken by the iterations that start and end at the loop's back edge, and prints them.
//   paths N    classify(N) (N >= 3)
#include <stdio.h>
#include <stdlib.h>

#define NOIPA __attribute__((noipa))
long hits[4];

NOIPA long three(long s) { return s + 3; }
NOIPA long five(long s) { return s * 5 + 1; }

NOIPA long classify(long n) {
  long s = 0;
  for (long i = 0; i < n; i++) {
    if (i % 3 == 0) s = three(s);
    if (i % 5 == 0) s = five(s);
  }
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 31;
  // Iteration 0's path starts at the function's entry and iteration n-1's ends at its return;
  // the others run from the loop head to the back edge.
  for (long i = 1; i < n - 1; i++) hits[(i % 3 == 0) + 2 * (i % 5 == 0)]++;
  printf("sum %ld\n", classify(n));
  printf("paths neither %ld three %ld five %ld both %ld\n", hits[0], hits[1], hits[2], hits[3]);
  return 0;
}

/*
 * Known call stacks, for the calling-context profile's tests (spec/profiles.md, "Calling
 * context"). Every piece of work is one call of work(n), which costs a fixed number of
 * instructions per iteration, reached along one stack:
 *
 *   main;outer;inner;work     10 x work(3000)
 *   main;direct;work          10 x work(1000)
 *   main;work                 10 x work(2000), through tail(), which tail-calls work
 *   main;deep;deep;deep;deep;work   1 x work(500), then longjmp back to main
 *   main;after;work           5 x work(700), after the longjmp
 *
 * Built with -O1 (no sibling calls but in tail(), which asks for them), so the stacks are the
 * source's. Prints the checksum of the work done.
 */
#include <setjmp.h>
#include <stdio.h>

static volatile long sink;
static jmp_buf env;

__attribute__((noinline)) long work(long n) {
  long s = 0;
  for (long i = 0; i < n; i++) {
    s += (i * i) ^ (s >> 3);
  }
  sink += s;
  return s;
}

__attribute__((noinline)) long inner(long n) { return work(n) + 1; }
__attribute__((noinline)) long outer(long n) { return inner(n) + 1; }
__attribute__((noinline)) long direct(long n) { return work(n) + 1; }

/* A tail call: the caller's frame is replaced by work's. */
__attribute__((noinline, optimize("optimize-sibling-calls"))) long tail(long n) {
  return work(n);
}

__attribute__((noinline)) void deep(int d) {
  if (d < 0) {
    return;
  }
  if (d == 0) {
    work(500);
    longjmp(env, 1);
  }
  deep(d - 1);
  sink++;
}

__attribute__((noinline)) long after(long n) { return work(n) + 1; }

int main(void) {
  static long total;
  for (int k = 0; k < 10; k++) total += outer(3000);
  for (int k = 0; k < 10; k++) total += direct(1000);
  for (int k = 0; k < 10; k++) total += tail(2000);
  if (setjmp(env) == 0) {
    deep(3);
  }
  for (int k = 0; k < 5; k++) total += after(700);
  printf("checksum %lx %lx\n", (unsigned long)total, (unsigned long)sink);
  return 0;
}

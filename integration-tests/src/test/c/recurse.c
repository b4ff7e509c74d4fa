/*
 * Recursion with known stacks, for the sampled calling-context test (CallingContextOutputTest):
 * a tree recursion (fib) and a mutual one (even/odd) whose leaves do fixed work. Built with -g
 * (so its own functions' call frame information is in .debug_frame and its lines in .debug_line)
 * and without sibling calls, so that every recursive call keeps its frame.
 */
#include <stdio.h>

static volatile long sink;

__attribute__((noinline)) long leaf(long n) {
  long s = 0;
  for (long i = 0; i < n; i++) {
    s += i ^ (s >> 2);
  }
  sink += s;
  return s;
}

__attribute__((noinline)) long fib(int n) {
  if (n < 2) {
    return leaf(40);
  }
  return fib(n - 1) + fib(n - 2);
}

long odd(int n);

__attribute__((noinline)) long even(int n) {
  if (n == 0) {
    return leaf(500);
  }
  return odd(n - 1) + 1;
}

__attribute__((noinline)) long odd(int n) {
  if (n == 0) {
    return leaf(300);
  }
  return even(n - 1) + 1;
}

int main(void) {
  long total = fib(16);
  for (int k = 0; k < 200; k++) {
    total += even(k % 30);
  }
  printf("total %ld %ld\n", total, (long)sink);
  return 0;
}

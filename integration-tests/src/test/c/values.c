/*
 * Loads with known value and address distributions, for the RAP and co-processor tests
 * (issue 7). Each phase is its own function so that an ACF can select its loads by pc:
 *   constant_loads     every load reads 42 (invariance 100%)
 *   alternating_loads  loads alternate between 1000 and 2000 (50% each)
 *   skewed_loads       90% of loads read 7, the rest distinct values
 *   range_loads        70% of values in [0x5000, 0x50ff], 30% spread over 32 bits
 *   zero_loads         half the loads read zeros[] (all zero), half table[] (never zero)
 * Usage: values [N]   (N iterations per phase, default 10000); prints where zeros[] is.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MIXED 4096

static uint64_t constants[16];
static uint64_t pair[2] = {1000, 2000};
static uint64_t skew[10];
static uint64_t mixed[MIXED];
static uint64_t zeros[1024];
static uint64_t table[1024];

static uint64_t lcg(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 33;
}

__attribute__((noinline)) uint64_t constant_loads(long n) {
  volatile uint64_t *p = constants;
  uint64_t s = 0;
  for (long i = 0; i < n; i++) s += p[i & 15];
  return s;
}

__attribute__((noinline)) uint64_t alternating_loads(long n) {
  volatile uint64_t *p = pair;
  uint64_t s = 0;
  for (long i = 0; i < n; i++) s += p[i & 1];
  return s;
}

__attribute__((noinline)) uint64_t skewed_loads(long n) {
  volatile uint64_t *p = skew;
  uint64_t s = 0;
  for (long i = 0; i < n; i++) {
    long k = i % 10;
    if (k == 9) p[9] = 100 + i; /* the one slot that changes */
    s += p[k];
  }
  return s;
}

__attribute__((noinline)) uint64_t range_loads(long n) {
  volatile uint64_t *p = mixed;
  uint64_t s = 0;
  for (long i = 0; i < n; i++) s += p[i & (MIXED - 1)];
  return s;
}

__attribute__((noinline)) uint64_t zero_loads(long n) {
  volatile uint64_t *z = zeros;
  volatile uint64_t *t = table;
  uint64_t s = 0;
  for (long i = 0; i < n; i++) s += (i & 1) ? z[i & 1023] : t[i & 1023];
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000;
  uint64_t seed = 12345;
  for (int i = 0; i < 16; i++) constants[i] = 42;
  for (int i = 0; i < 10; i++) skew[i] = 7;
  for (int i = 0; i < MIXED; i++) {
    uint64_t r = lcg(&seed);
    mixed[i] = (r % 10 < 7) ? 0x5000 + (lcg(&seed) & 0xff) : (lcg(&seed) & 0xffffffffULL);
  }
  for (int i = 0; i < 1024; i++) table[i] = i + 1;
  uint64_t s = constant_loads(n) + alternating_loads(n) + skewed_loads(n) + range_loads(n)
      + zero_loads(n);
  printf("values %ld %llu\n", n, (unsigned long long) s);
  printf("zeros %#lx %zu\n", (unsigned long) zeros, sizeof zeros);
  return 0;
}

/* A dynamically linked program that leans on libc and libm: stdio, malloc and free, a qsort
 * callback from libc into the program, strtod, errno, math from libm.so.6, atexit handlers run
 * by libc at exit. The exit status is computed, so a wrong result changes it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

static void bye(void) { puts("atexit handler ran"); }

int main(int argc, char **argv) {
  atexit(bye);
  size_t len = strlen(argv[0]);
  printf("argc=%d argv0-ends-with-dyn_libc.elf=%d\n", argc,
         len >= 12 && strcmp(argv[0] + len - 12, "dyn_libc.elf") == 0);
  long n = 5000;
  long *v = malloc(n * sizeof *v);
  unsigned long s = 12345;
  for (long i = 0; i < n; i++) {
    s = s * 6364136223846793005UL + 1442695040888963407UL;
    v[i] = (long)(s >> 33) % 100000;
  }
  qsort(v, n, sizeof *v, cmp);
  long sorted = 1;
  for (long i = 1; i < n; i++) sorted &= v[i - 1] <= v[i];
  printf("sorted=%ld min=%ld max=%ld median=%ld\n", sorted, v[0], v[n - 1], v[n / 2]);
  long first = v[0];
  free(v);
  char *big[64];
  size_t total = 0;
  for (int i = 0; i < 64; i++) {
    big[i] = malloc((size_t)(i + 1) * 4096);
    memset(big[i], i, (size_t)(i + 1) * 4096);
    total += (size_t)(i + 1) * 4096;
  }
  for (int i = 0; i < 64; i++) free(big[i]);
  printf("allocated %zu bytes\n", total);
  double d = strtod("2.5e3xyz", NULL);
  printf("strtod=%.1f sqrt=%.6f sin=%.6f pow=%.3f\n", d, sqrt(d), sin(d / 1000), pow(d, 0.25));
  errno = 0;
  FILE *f = fopen("no-such-file", "r");
  printf("fopen missing: %s errno=%s\n", f ? "opened?" : "NULL", strerror(errno));
  char buf[64];
  snprintf(buf, sizeof buf, "%08.3f|%-6s|%x", 3.14159, "ab", 48879);
  printf("snprintf: %s\n", buf);
  return (int)(first % 7) + 10;
}

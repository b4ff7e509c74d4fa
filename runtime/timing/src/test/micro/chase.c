/* chase BYTES STEPS: a random cyclic permutation of 64-byte nodes over BYTES (Sattolo's
 * algorithm), followed STEPS times: each load's address depends on the previous load. */
#include "micro.h"

#define MAX (16L << 20)
struct node {
  struct node *next;
  long pad[7];
};
static struct node nodes[MAX / sizeof(struct node)];

static long kernel(int argc, char **argv) {
  long bytes = argc > 1 ? num(argv[1]) : 16384;
  long steps = argc > 2 ? num(argv[2]) : 1000;
  long n = bytes / (long)sizeof(struct node);
  if (n > (long)(MAX / sizeof(struct node))) n = MAX / sizeof(struct node);
  static long order[MAX / sizeof(struct node)];
  for (long i = 0; i < n; i++) order[i] = i;
  u64 seed = 88172645463325252ULL;
  for (long i = n - 1; i > 0; i--) { /* Sattolo: one cycle through every node */
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    long j = (long)(seed % (u64)i);
    long t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (long i = 0; i < n; i++) nodes[order[i]].next = &nodes[order[(i + 1) % n]];
  struct node *p = &nodes[0];
  for (long s = 0; s < steps; s++) p = p->next;
  return (long)(p - nodes);
}

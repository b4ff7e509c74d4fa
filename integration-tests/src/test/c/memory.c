// A test program for the data-reference ACFs: it walks linked lists a known number of times
// (hot data streams of known length and frequency) and stores through an isolated "module"
// (memory fault isolation), and prints what a test needs to know.
//   memory streams N1 N2   on_trig_inst, walk list A (12 nodes) N1 times, list B (8 nodes)
//                          N2 times, off_trig_inst; each walk reads key and next of every node
//   memory poke I          the module writes sandbox[I] and reads it back (I may be outside)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOIPA __attribute__((noipa))
struct node {
  long key;
  struct node *next;
};

static struct node pool_a[12];
static struct node pool_b[8];
long sandbox[8];
long beyond[8];

// Links the nodes in a scrambled order, so a walk is a stream of irregular addresses.
static struct node *link(struct node *pool, int n, int stride) {
  for (int i = 0; i < n; i++) {
    pool[(i * stride) % n].key = i;
    pool[(i * stride) % n].next = i + 1 < n ? &pool[((i + 1) * stride) % n] : 0;
  }
  return &pool[0];
}

// Two loads per node, nothing else touches memory: the stream is exactly 2 x nodes long.
NOIPA long walk_many(struct node *list, long times) {
  long s = 0;
  for (long t = 0; t < times; t++)
    for (struct node *p = list; p; p = p->next) s += p->key;
  return s;
}

// The isolated module: its loads and stores must stay inside the sandbox.
NOIPA void module_store(long *base, long i, long v) { base[i] = v; }
NOIPA long module_load(long *base, long i) { return base[i]; }

int main(int argc, char **argv) {
  if (argc > 3 && strcmp(argv[1], "streams") == 0) {
    long n1 = atol(argv[2]), n2 = atol(argv[3]);
    struct node *a = link(pool_a, 12, 5), *b = link(pool_b, 8, 3);
    __asm__ volatile(".4byte 0x0000000b" ::: "memory");  // on_trig_inst
    long s = walk_many(a, n1) + walk_many(b, n2);
    __asm__ volatile(".4byte 0x0000100b" ::: "memory");  // off_trig_inst
    printf("stream A %p %d %ld\n", (void *)a, 2 * 12, n1);
    printf("stream B %p %d %ld\n", (void *)b, 2 * 8, n2);
    printf("sum %ld\n", s);
  } else if (argc > 2 && strcmp(argv[1], "poke") == 0) {
    long i = atol(argv[2]);
    printf("sandbox %p %p\n", (void *)sandbox, (void *)(sandbox + 8));
    fflush(stdout);
    module_store(sandbox, i, 42);
    printf("read %ld\n", module_load(sandbox, i));
  } else {
    fprintf(stderr, "usage: memory streams N1 N2 | memory poke I\n");
    return 2;
  }
  return 0;
}

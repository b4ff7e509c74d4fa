/* Shared helpers of the example workloads: a fixed-seed PRNG, a checksum and
 * argument parsing.  Everything is static so each program stays one unit. */
#ifndef EXAMPLES_COMMON_H
#define EXAMPLES_COMMON_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Marks a program stage as its own function, as it would be in a real
 * multi-file program, so hot-method profiles see it rather than its caller. */
#define STAGE __attribute__((noinline))

typedef struct { uint64_t s; } Rng;

static inline void rng_seed(Rng *r, uint64_t seed) { r->s = seed ? seed : 0x9E3779B97F4A7C15ULL; }

/* xorshift64* */
static inline uint64_t rng_next(Rng *r) {
    uint64_t x = r->s;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static inline uint32_t rng_below(Rng *r, uint32_t n) { return (uint32_t)((rng_next(r) >> 32) % n); }

static inline double rng_unit(Rng *r) { return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* FNV-1a style 64-bit running checksum */
typedef struct { uint64_t h; } Sum;
static inline void sum_init(Sum *c) { c->h = 0xCBF29CE484222325ULL; }
static inline void sum_bytes(Sum *c, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = c->h;
    for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 0x100000001B3ULL; }
    c->h = h;
}
static inline void sum_u64(Sum *c, uint64_t v) {
    for (int i = 0; i < 8; i++) { c->h ^= (v >> (8 * i)) & 0xFF; c->h *= 0x100000001B3ULL; }
}

/* argv[1]: integer scale, default def; must be 1..max */
__attribute__((unused)) static int scale_arg(int argc, char **argv, int def, int max) {
    if (argc < 2) return def;
    char *end;
    long v = strtol(argv[1], &end, 10);
    if (*end || v < 1 || v > max) {
        fprintf(stderr, "usage: %s [scale 1..%d] (default %d)\n", argv[0], max, def);
        exit(2);
    }
    return (int)v;
}

__attribute__((unused)) static void *xmalloc(size_t n) {
    void *p = malloc(n);
    if (!p) { fprintf(stderr, "out of memory (%zu bytes)\n", n); exit(3); }
    return p;
}
__attribute__((unused)) static void *xcalloc(size_t n, size_t sz) {
    void *p = calloc(n, sz);
    if (!p) { fprintf(stderr, "out of memory (%zu x %zu bytes)\n", n, sz); exit(3); }
    return p;
}
#endif

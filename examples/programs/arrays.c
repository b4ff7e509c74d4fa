/* arrays: loads into named global arrays, with a known count per load
 * instruction, for profiles that name program symbols (symbol(hot_table) in
 * an ACF; examples/acf/array_loads.acf).
 *
 * Known answer (fixed, no argument): the loads that read hot_table[] are
 *   - the one load in sum_hot():   HOT_N per call x ROUNDS calls = 20,480
 *   - the one load in pick_hot():  PICKS                          = 10,000
 * and nothing else in the program reads hot_table (main only stores into
 * it). sum_cold() reads cold_table[], next to it in memory, COLD_N x ROUNDS
 * = 40,960 times: a range check that is off by one array would count those.
 * Built with -O1 so that each loop keeps exactly one load of the array. */
#include "common.h"

#define HOT_N 512
#define COLD_N 1024
#define ROUNDS 40
#define PICKS 10000

#ifdef SHIFTED
/* Another build of the same program, with its code and data at other addresses
 * (integration-tests/src/test/c/bin/arrays_shifted): a configuration that names
 * symbols must give the same answer on both. */
long pad_before[300] = {1};
STAGE long pad_code(long x) { return x * 3 + pad_before[x & 255]; }
#endif

long hot_table[HOT_N];
long cold_table[COLD_N];

STAGE long sum_hot(void) {
    long s = 0;
    for (int i = 0; i < HOT_N; i++)
        s += hot_table[i];
    return s;
}

STAGE long sum_cold(void) {
    long s = 0;
    for (int i = 0; i < COLD_N; i++)
        s ^= cold_table[i] + i;
    return s;
}

STAGE long pick_hot(uint64_t seed) {
    long s = 0;
    for (int k = 0; k < PICKS; k++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        s += hot_table[(seed >> 33) % HOT_N];
    }
    return s;
}

int main(void) {
    for (int i = 0; i < HOT_N; i++)
        hot_table[i] = 3 * i + 1;
    for (int i = 0; i < COLD_N; i++)
        cold_table[i] = (long)i * i;
    long total = 0;
    for (int r = 0; r < ROUNDS; r++) {
        hot_table[r] = r * 7;        /* a store: each round's sum differs */
        cold_table[r] = r * 5;
        total += sum_hot();
        total ^= sum_cold();
    }
    total += pick_hot(42);
#ifdef SHIFTED
    total += pad_code(total) - pad_code(total);
#endif
    printf("hot_table loads expected: sum_hot %d, pick_hot %d\n", HOT_N * ROUNDS, PICKS);
    printf("checksum %016lx\n", (unsigned long)total);
    return 0;
}

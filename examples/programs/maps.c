/* maps: small kernels with known answers for the aggregation-map tests
 * (examples/acf/branch_outcomes.acf, load_strides.acf, load_values.acf, store_values.acf).
 * Built with -O1 so that each kernel keeps one load, store or branch per source line:
 *
 *   walk(arr, 0, 3, 100), walk(arr, 400, -2, 50)
 *       one `ld` at one pc: 100 loads 24 bytes apart, then 50 loads 16 bytes apart going
 *       down, starting 103 elements (824 bytes) above the last load of the first walk;
 *   count_negatives(vals, 200)
 *       one conditional branch around a call per element: 40 of the 200 values are negative;
 *   fill_pattern(out, 400)
 *       one `sd` storing (i & 3) - 1: 100 stores each of -1, 0, 1 and 2;
 *   sum_values(hv, 256)
 *       one `ld` loading i - 128 for i = 0..255: the values -128..127 once each.
 */
#include <stdio.h>

static long arr[1024];
static int vals[200];
static long out[400];
static long hv[256];
static long negatives_seen;

__attribute__((noinline)) long walk(const long *a, long start, long step, long count) {
    long s = 0;
    long idx = start;
    for (long k = 0; k < count; k++) {
        s += a[idx];
        idx += step;
    }
    return s;
}

__attribute__((noinline)) void record_negative(int i) {
    negatives_seen += i;
}

__attribute__((noinline)) int count_negatives(const int *v, int n) {
    int neg = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] < 0) {
            record_negative(i);
            neg++;
        }
    }
    return neg;
}

__attribute__((noinline)) void fill_pattern(long *a, long n) {
    for (long i = 0; i < n; i++) {
        a[i] = (i & 3) - 1;
    }
}

__attribute__((noinline)) long sum_values(const long *a, long n) {
    long s = 0;
    for (long i = 0; i < n; i++) {
        s += a[i];
    }
    return s;
}

int main(void) {
    for (int i = 0; i < 1024; i++) arr[i] = 7L * i;
    long w = walk(arr, 0, 3, 100) + walk(arr, 400, -2, 50);
    for (int i = 0; i < 200; i++) vals[i] = (i % 5 == 0) ? -i - 1 : i;
    int neg = count_negatives(vals, 200);
    fill_pattern(out, 400);
    long f = 0;
    for (int i = 0; i < 400; i++) f += out[i];
    for (int i = 0; i < 256; i++) hv[i] = i - 128;
    long t = sum_values(hv, 256);
    printf("walk %ld negatives %d (%ld) fill %ld sum %ld\n", w, neg, negatives_seen, f, t);
    return 0;
}

/*
 * Floating-point library code, the kind a user profiles in scientific programs: libm's sin, cos,
 * exp, log, pow, sqrt and atan2 in three stages, each its own function.
 *
 *   nbody     - a gravitational N-body simulation (sqrt, pow), energy printed per step block
 *   spectrum  - a discrete Fourier transform of a generated signal (sin, cos, atan2)
 *   stats     - log-normal samples summarised (exp, log, pow): mean, deviation, quantiles
 *
 * argv[1] = scale (default 2): steps, signal length and samples grow with it.
 */
#include <math.h>
#include "common.h"

#define BODIES 24

typedef struct { double x, y, z, vx, vy, vz, m; } Body;

STAGE static double energy(const Body *b, int n) {
    double e = 0;
    for (int i = 0; i < n; i++) {
        e += 0.5 * b[i].m * (b[i].vx * b[i].vx + b[i].vy * b[i].vy + b[i].vz * b[i].vz);
        for (int j = i + 1; j < n; j++) {
            double dx = b[i].x - b[j].x, dy = b[i].y - b[j].y, dz = b[i].z - b[j].z;
            e -= b[i].m * b[j].m / sqrt(dx * dx + dy * dy + dz * dz);
        }
    }
    return e;
}

STAGE static void advance(Body *b, int n, double dt) {
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            double dx = b[i].x - b[j].x, dy = b[i].y - b[j].y, dz = b[i].z - b[j].z;
            double d2 = dx * dx + dy * dy + dz * dz + 1e-3;
            double mag = dt / pow(d2, 1.5);
            b[i].vx -= dx * b[j].m * mag; b[i].vy -= dy * b[j].m * mag; b[i].vz -= dz * b[j].m * mag;
            b[j].vx += dx * b[i].m * mag; b[j].vy += dy * b[i].m * mag; b[j].vz += dz * b[i].m * mag;
        }
    }
    for (int i = 0; i < n; i++) {
        b[i].x += dt * b[i].vx; b[i].y += dt * b[i].vy; b[i].z += dt * b[i].vz;
    }
}

STAGE static void nbody(int scale, Sum *sum) {
    Rng r;
    rng_seed(&r, 42);
    Body b[BODIES];
    for (int i = 0; i < BODIES; i++) {
        double a = 2 * M_PI * i / BODIES, rad = 1 + rng_unit(&r);
        b[i] = (Body){rad * cos(a), rad * sin(a), 0.1 * (rng_unit(&r) - 0.5),
                      -sin(a) / sqrt(rad), cos(a) / sqrt(rad), 0, 0.01 + 0.05 * rng_unit(&r)};
    }
    int steps = 4000 * scale;
    for (int s = 0; s < steps; s++) {
        advance(b, BODIES, 0.001);
        if (s % (steps / 4) == 0) {
            double e = energy(b, BODIES);
            printf("nbody step %d energy %.9f\n", s, e);
            sum_bytes(sum, &e, sizeof e);
        }
    }
}

STAGE static void spectrum(int scale, Sum *sum) {
    int n = 512 * scale;
    double *x = xmalloc(n * sizeof *x);
    Rng r;
    rng_seed(&r, 7);
    for (int i = 0; i < n; i++) {
        x[i] = sin(2 * M_PI * 13 * i / n) + 0.5 * cos(2 * M_PI * 57 * i / n) +
               0.1 * (rng_unit(&r) - 0.5);
    }
    int best = 0;
    double bestMag = 0, phaseSum = 0;
    for (int k = 0; k < n / 2; k++) {
        double re = 0, im = 0;
        for (int i = 0; i < n; i++) {
            double a = 2 * M_PI * (double)k * i / n;
            re += x[i] * cos(a);
            im -= x[i] * sin(a);
        }
        double mag = sqrt(re * re + im * im);
        phaseSum += atan2(im, re);
        if (mag > bestMag) { bestMag = mag; best = k; }
    }
    printf("spectrum n %d peak %d magnitude %.6f phase sum %.6f\n", n, best, bestMag, phaseSum);
    sum_bytes(sum, &bestMag, sizeof bestMag);
    sum_bytes(sum, &phaseSum, sizeof phaseSum);
    free(x);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

STAGE static void stats(int scale, Sum *sum) {
    int n = 200000 * scale;
    double *v = xmalloc(n * sizeof *v);
    Rng r;
    rng_seed(&r, 99);
    double mean = 0, m2 = 0;
    for (int i = 0; i < n; i++) {
        /* Box-Muller, then log-normal */
        double u1 = rng_unit(&r) + 1e-12, u2 = rng_unit(&r);
        double g = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
        v[i] = exp(0.5 * g) * pow(1.0 + i % 7, 0.25);
        double d = v[i] - mean;
        mean += d / (i + 1);
        m2 += d * (v[i] - mean);
    }
    qsort(v, n, sizeof *v, cmp_double);
    double sd = sqrt(m2 / (n - 1));
    printf("stats n %d mean %.9f sd %.9f p50 %.9f p99 %.9f\n", n, mean, sd, v[n / 2],
           v[(int)(n * 0.99)]);
    sum_bytes(sum, &mean, sizeof mean);
    sum_bytes(sum, &sd, sizeof sd);
    free(v);
}

int main(int argc, char **argv) {
    int scale = scale_arg(argc, argv, 2, 100);
    Sum sum;
    sum_init(&sum);
    nbody(scale, &sum);
    spectrum(scale, &sum);
    stats(scale, &sum);
    printf("checksum %016llx\n", (unsigned long long)sum.h);
    return 0;
}

/* adpcm: speech/audio codecs (models MediaBench adpcm rawcaudio/rawdaudio and
 * the LPC-based gsm/g721 family).
 *
 * For each generated signal (tone sweep, synthetic vowels, noise bursts,
 * chords; several lengths) it runs, in sequence:
 *   1. IMA ADPCM encode (4 bits/sample, integer step-size adaptation)
 *   2. IMA ADPCM decode + SNR
 *   3. LPC analysis per 20 ms frame: window, autocorrelation and
 *      Levinson-Durbin (float), reflection-coefficient quantisation,
 *      residual computation and adaptive residual quantisation
 *   4. LPC synthesis (decoder) + SNR
 * argv[1] = scale (default 6): signal lengths grow linearly with it.
 */
#include "common.h"
#include <math.h>

#define RATE 8000
#define FRAME 160
#define ORDER 10

/* ---------------- signal generators ---------------- */
typedef void (*GenFn)(int16_t *out, int n, Rng *r);

/* sine by range reduction and a Taylor polynomial: cheaper than libm's sin */
static double poly_sin(double x) {
    x -= 2 * M_PI * (double)(long)(x / (2 * M_PI));
    if (x < 0) x += 2 * M_PI;
    if (x > M_PI) return -poly_sin(x - M_PI);
    if (x > M_PI / 2) x = M_PI - x;
    double x2 = x * x;
    return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72))));
}

static int16_t sat16(double v) { return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : lrint(v)); }

static void gen_sweep(int16_t *out, int n, Rng *r) {
    double phase = 0;
    for (int i = 0; i < n; i++) {
        double f = 100.0 + 3000.0 * i / n;
        phase += 2 * M_PI * f / RATE;
        out[i] = sat16(12000.0 * poly_sin(phase));
    }
}

/* glottal pulse train through three two-pole formant resonators */
static void gen_vowels(int16_t *out, int n, Rng *r) {
    static const double formants[5][3] = { {730,1090,2440}, {270,2290,3010}, {530,1840,2480}, {570,840,2410}, {300,870,2240} };
    double y1[3] = {0}, y2[3] = {0};
    int vowel = 0, next_change = 0, period = 80, t = 0;
    double a1[3], a2[3], g[3];
    for (int i = 0; i < n; i++) {
        if (i >= next_change) {
            vowel = (int)rng_below(r, 5);
            period = 50 + (int)rng_below(r, 60);
            next_change = i + 1600 + (int)rng_below(r, 2400);
            for (int k = 0; k < 3; k++) {
                double bw = 80.0 + 40 * k, rr = exp(-M_PI * bw / RATE);
                a1[k] = 2 * rr * cos(2 * M_PI * formants[vowel][k] / RATE);
                a2[k] = -rr * rr;
                g[k] = (1 - rr) * (k == 0 ? 1.0 : 0.6);
            }
        }
        double x = (t == 0) ? 9000.0 : (t < 6 ? -1500.0 : 0.0);
        if (++t >= period) t = 0;
        x += ((double)rng_below(r, 201) - 100.0) * 2;
        double s = 0;
        for (int k = 0; k < 3; k++) {
            double y = g[k] * x + a1[k] * y1[k] + a2[k] * y2[k];
            y2[k] = y1[k]; y1[k] = y; s += y;
        }
        double env = 0.6 + 0.4 * poly_sin(2 * M_PI * i / 4000.0);
        out[i] = sat16(s * 3.0 * env);
    }
}

static void gen_bursts(int16_t *out, int n, Rng *r) {
    double lp = 0;
    for (int i = 0; i < n; i++) {
        int on = ((i / 1200) % 3) != 2;
        double w = ((double)(rng_next(r) >> 40) / 16777216.0 - 0.5) * 20000.0;
        lp = 0.7 * lp + 0.3 * w;
        out[i] = sat16(on ? lp : lp * 0.02);
    }
}

static void gen_chords(int16_t *out, int n, Rng *r) {
    static const double notes[] = { 261.6, 293.7, 329.6, 349.2, 392.0, 440.0, 493.9, 523.3 };
    double f[3] = { 261.6, 329.6, 392.0 }, ph[3] = {0};
    for (int i = 0; i < n; i++) {
        if (i % 2000 == 0)
            for (int k = 0; k < 3; k++) f[k] = notes[rng_below(r, 8)] * (k + 1) * 0.5;
        double s = 0;
        for (int k = 0; k < 3; k++) {
            ph[k] += 2 * M_PI * f[k] / RATE;
            if (ph[k] > 2 * M_PI) ph[k] -= 2 * M_PI;
            s += poly_sin(ph[k]) + 0.3 * poly_sin(2 * ph[k]);
        }
        double env = exp(-(double)(i % 2000) / 900.0);
        out[i] = sat16(6000.0 * s * env);
    }
}

static const struct { const char *name; GenFn fn; } generators[] = {
    { "sweep", gen_sweep }, { "vowels", gen_vowels }, { "bursts", gen_bursts }, { "chords", gen_chords } };

/* ---------------- IMA ADPCM ---------------- */
static const int ima_index[16] = { -1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8 };
static const int ima_step[89] = {
    7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45,
    50, 55, 60, 66, 73, 80, 88, 97, 107, 118, 130, 143, 157, 173, 190, 209, 230, 253, 279, 307,
    337, 371, 408, 449, 494, 544, 598, 658, 724, 796, 876, 963, 1060, 1166, 1282, 1411, 1552,
    1707, 1878, 2066, 2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428, 4871, 5358, 5894, 6484,
    7132, 7845, 8630, 9493, 10442, 11487, 12635, 13899, 15289, 16818, 18500, 20350, 22385,
    24623, 27086, 29794, 32767 };

typedef struct { int pred, index; } ImaState;

static inline int ima_step_update(ImaState *s, int code) {
    int step = ima_step[s->index];
    int diff = step >> 3;
    if (code & 4) diff += step;
    if (code & 2) diff += step >> 1;
    if (code & 1) diff += step >> 2;
    s->pred += (code & 8) ? -diff : diff;
    if (s->pred > 32767) s->pred = 32767; else if (s->pred < -32768) s->pred = -32768;
    s->index += ima_index[code];
    if (s->index < 0) s->index = 0; else if (s->index > 88) s->index = 88;
    return s->pred;
}

STAGE static void adpcm_encode(const int16_t *in, int n, uint8_t *out) {
    ImaState s = { 0, 0 };
    for (int i = 0; i < n; i++) {
        int step = ima_step[s.index], diff = in[i] - s.pred, code = 0;
        if (diff < 0) { code = 8; diff = -diff; }
        if (diff >= step) { code |= 4; diff -= step; }
        step >>= 1;
        if (diff >= step) { code |= 2; diff -= step; }
        step >>= 1;
        if (diff >= step) code |= 1;
        ima_step_update(&s, code);
        if (i & 1) out[i >> 1] |= (uint8_t)(code << 4); else out[i >> 1] = (uint8_t)code;
    }
}

STAGE static void adpcm_decode(const uint8_t *in, int n, int16_t *out) {
    ImaState s = { 0, 0 };
    for (int i = 0; i < n; i++) {
        int code = (i & 1) ? in[i >> 1] >> 4 : in[i >> 1] & 15;
        out[i] = (int16_t)ima_step_update(&s, code);
    }
}

/* ---------------- LPC codec ---------------- */
typedef struct {
    int8_t kq[ORDER];          /* quantised reflection coefficients */
    uint8_t gain;              /* residual quantiser step (log scale) */
    int8_t res[FRAME];         /* 5-bit residual codes (-16..15) */
} LpcFrame;

static float hamming[FRAME];

STAGE static int levinson(const float *ac, float *k, float *a) {
    float err = ac[0], tmp[ORDER + 1];
    a[0] = 1;
    for (int i = 1; i <= ORDER; i++) a[i] = 0;
    if (err <= 0) { for (int i = 0; i < ORDER; i++) k[i] = 0; return 0; }
    for (int i = 1; i <= ORDER; i++) {
        float acc = ac[i];
        for (int j = 1; j < i; j++) acc += a[j] * ac[i - j];
        float ki = -acc / err;
        if (ki > 0.995f) ki = 0.995f; else if (ki < -0.995f) ki = -0.995f;
        k[i - 1] = ki;
        for (int j = 0; j <= i; j++) tmp[j] = a[j];
        for (int j = 1; j < i; j++) a[j] = tmp[j] + ki * tmp[i - j];
        a[i] = ki;
        err *= 1 - ki * ki;
    }
    return 1;
}

/* reflection coefficients -> direct-form predictor */
static void k_to_a(const float *k, float *a) {
    float tmp[ORDER + 1];
    a[0] = 1;
    for (int i = 1; i <= ORDER; i++) {
        for (int j = 0; j < i; j++) tmp[j] = a[j];
        for (int j = 1; j < i; j++) a[j] = tmp[j] + k[i - 1] * tmp[i - j];
        a[i] = k[i - 1];
    }
    float g = 1.0f;                   /* bandwidth expansion keeps the synthesis filter tame */
    for (int i = 1; i <= ORDER; i++) { g *= 0.94f; a[i] *= g; }
}

static float dequant_k(int8_t q) { return sinf((float)q * (float)(M_PI / 2) / 64.0f); }
static int8_t quant_k(float k) { int q = (int)lrintf(asinf(k) * 64.0f / (float)(M_PI / 2)); return (int8_t)(q > 63 ? 63 : q < -63 ? -63 : q); }
static float gain_step(int g) { return powf(2.0f, (float)g / 4.0f); }

STAGE static void lpc_encode(const int16_t *in, int n, LpcFrame *frames) {
    float hist[16] = {0};             /* ring of past reconstructed samples (decoder's view) */
    unsigned pos = 0;
    int nf = n / FRAME;
    for (int f = 0; f < nf; f++) {
        const int16_t *x = in + f * FRAME;
        float w[FRAME], ac[ORDER + 1], k[ORDER], a[ORDER + 1];
        for (int i = 0; i < FRAME; i++) w[i] = x[i] * hamming[i];
        for (int l = 0; l <= ORDER; l++) {
            float s = 0;
            for (int i = l; i < FRAME; i++) s += w[i] * w[i - l];
            ac[l] = s;
        }
        ac[0] *= 1.003f;
        levinson(ac, k, a);
        LpcFrame *fr = &frames[f];
        float kd[ORDER];
        for (int i = 0; i < ORDER; i++) { fr->kq[i] = quant_k(k[i]); kd[i] = dequant_k(fr->kq[i]); }
        k_to_a(kd, a);
        /* the open-loop residual peak picks the quantiser step */
        float peak = 1.0f;
        for (int i = 0; i < FRAME; i++) {
            float p = x[i];
            for (int j = 1; j <= ORDER && j <= i; j++) p += a[j] * x[i - j];
            if (fabsf(p) > peak) peak = fabsf(p);
        }
        int g = (int)ceilf(4.0f * log2f(peak / 12.0f + 1.0f));
        fr->gain = (uint8_t)(g < 0 ? 0 : g > 63 ? 63 : g);
        float step = gain_step(fr->gain);
        /* closed-loop: quantise the residual against the decoder's reconstruction */
        for (int i = 0; i < FRAME; i++) {
            float pred = 0;
            for (int j = 1; j <= ORDER; j++) pred -= a[j] * hist[(pos - j) & 15];
            int q = (int)lrintf((x[i] - pred) / step);
            q = q > 15 ? 15 : q < -16 ? -16 : q;
            fr->res[i] = (int8_t)q;
            float y = pred + q * step;
            hist[pos++ & 15] = y;
        }
    }
}

STAGE static void lpc_decode(const LpcFrame *frames, int n, int16_t *out) {
    float hist[16] = {0};             /* ring of past output samples */
    unsigned pos = 0;
    int nf = n / FRAME;
    for (int f = 0; f < nf; f++) {
        const LpcFrame *fr = &frames[f];
        float kd[ORDER], a[ORDER + 1];
        for (int i = 0; i < ORDER; i++) kd[i] = dequant_k(fr->kq[i]);
        k_to_a(kd, a);
        float step = gain_step(fr->gain);
        for (int i = 0; i < FRAME; i++) {
            float pred = 0;
            for (int j = 1; j <= ORDER; j++) pred -= a[j] * hist[(pos - j) & 15];
            float y = pred + fr->res[i] * step;
            hist[pos++ & 15] = y;
            out[f * FRAME + i] = sat16(y);
        }
    }
    for (int i = nf * FRAME; i < n; i++) out[i] = 0;
}

STAGE static double snr_db(const int16_t *a, const int16_t *b, int n) {
    double sig = 0, err = 0;
    for (int i = 0; i < n; i++) { double d = (double)a[i] - b[i]; sig += (double)a[i] * a[i]; err += d * d; }
    return err == 0 ? 99.0 : 10.0 * log10(sig / err);
}

int main(int argc, char **argv) {
    int scale = scale_arg(argc, argv, 6, 1000);
    for (int i = 0; i < FRAME; i++) hamming[i] = 0.54f - 0.46f * cosf(2.0f * (float)M_PI * i / (FRAME - 1));
    Rng rng; rng_seed(&rng, 0xAD9C);
    Sum sum; sum_init(&sum);
    static const int secs[] = { 4, 3, 5, 2, 4, 3, 2, 5 };   /* seconds of audio per scale unit / 4 */
    int nsig = (int)(sizeof secs / sizeof secs[0]);
    printf("adpcm: scale %d, %d signals\n", scale, nsig);
    for (int s = 0; s < nsig; s++) {
        int n = secs[s] * RATE * scale / 4;
        n -= n % FRAME;
        int16_t *x = xmalloc(n * sizeof(int16_t)), *y = xmalloc(n * sizeof(int16_t));
        uint8_t *code = xmalloc((size_t)n / 2 + 1);
        LpcFrame *frames = xmalloc((size_t)(n / FRAME + 1) * sizeof(LpcFrame));
        const char *name = generators[s % 4].name;
        generators[s % 4].fn(x, n, &rng);

        adpcm_encode(x, n, code);
        adpcm_decode(code, n, y);
        double snr_a = snr_db(x, y, n);
        sum_bytes(&sum, code, (size_t)n / 2);
        sum_bytes(&sum, y, n * sizeof(int16_t));

        lpc_encode(x, n, frames);
        lpc_decode(frames, n, y);
        double snr_l = snr_db(x, y, n);
        sum_bytes(&sum, frames, (size_t)(n / FRAME) * sizeof(LpcFrame));
        sum_bytes(&sum, y, n * sizeof(int16_t));

        printf("  %-7s %7d samples  adpcm SNR %6.2f dB  lpc SNR %6.2f dB\n", name, n, snr_a, snr_l);
        free(x); free(y); free(code); free(frames);
    }
    printf("checksum %016llx\n", (unsigned long long)sum.h);
    return 0;
}

/* jpeg: a baseline-JPEG-like image codec (models MediaBench cjpeg/djpeg).
 *
 * For each generated image (several patterns and sizes), at two quality
 * settings, the program runs the stages in sequence:
 *   encode: RGB->YCbCr colour conversion (float), 4:2:0 chroma downsampling,
 *           8x8 forward DCT (double), quantisation (integer division),
 *           zig-zag, Huffman statistics pass, optimal Huffman table
 *           construction, entropy coding into a bit stream;
 *   decode: Huffman decoding (lookahead table + slow path), dequantisation,
 *           8x8 inverse DCT (float), chroma upsampling, YCbCr->RGB;
 *   verify: PSNR of the decoded image against the original.
 * argv[1] = scale (default 3): image dimensions grow linearly with it.
 */
#include "common.h"
#include <math.h>

typedef struct { int w, h; uint8_t *rgb; } Image;
typedef struct { int w, h; float *p; } Plane;              /* padded component plane */
typedef struct { int bw, bh; int16_t *coef; } CoefPlane;    /* quantised, zig-zag order */

static const int zigzag[64] = {
     0, 1, 8,16, 9, 2, 3,10, 17,24,32,25,18,11, 4, 5,
    12,19,26,33,40,48,41,34, 27,20,13, 6, 7,14,21,28,
    35,42,49,56,57,50,43,36, 29,22,15,23,30,37,44,51,
    58,59,52,45,38,31,39,46, 53,60,61,54,47,55,62,63 };
static const int base_luma[64] = {
    16,11,10,16,24,40,51,61, 12,12,14,19,26,58,60,55, 14,13,16,24,40,57,69,56,
    14,17,22,29,51,87,80,62, 18,22,37,56,68,109,103,77, 24,35,55,64,81,104,113,92,
    49,64,78,87,103,121,120,101, 72,92,95,98,112,100,103,99 };
static const int base_chroma[64] = {
    17,18,24,47,99,99,99,99, 18,21,26,66,99,99,99,99, 24,26,56,99,99,99,99,99,
    47,66,99,99,99,99,99,99, 99,99,99,99,99,99,99,99, 99,99,99,99,99,99,99,99,
    99,99,99,99,99,99,99,99, 99,99,99,99,99,99,99,99 };

static double dct_cos[8][8];   /* c(u) * cos((2x+1) u pi / 16) / 2 */
static float idct_cos[8][8];

static void init_tables(void) {
    for (int u = 0; u < 8; u++)
        for (int x = 0; x < 8; x++) {
            double cu = u == 0 ? sqrt(0.5) : 1.0;
            dct_cos[u][x] = 0.5 * cu * cos((2 * x + 1) * u * M_PI / 16.0);
            idct_cos[x][u] = (float)dct_cos[u][x];
        }
}

/* ---------------- image generation (patterns via function pointers) ------- */
typedef void (*PatternFn)(Image *im, Rng *r);

static void put(Image *im, int x, int y, int r, int g, int b) {
    uint8_t *p = im->rgb + 3 * (y * im->w + x);
    p[0] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
    p[1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
    p[2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
}
static void pat_gradient(Image *im, Rng *r) {
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++)
            put(im, x, y, 255 * x / im->w, 255 * y / im->h, 128 + (int)(rng_below(r, 9)) - 4);
}
static void pat_rings(Image *im, Rng *r) {
    double cx = im->w * 0.45, cy = im->h * 0.55;
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            double d = sqrt((x - cx) * (x - cx) + (y - cy) * (y - cy));
            int v = (int)(127.5 + 127.5 * sin(d * 0.21));
            put(im, x, y, v, 255 - v, (v + x) & 255);
        }
}
static void pat_blocks(Image *im, Rng *r) {
    int cell = 12 + (int)rng_below(r, 8);
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            int c = ((x / cell) ^ (y / cell)) & 3;
            int n = (int)rng_below(r, 31) - 15;
            put(im, x, y, c * 70 + n, (3 - c) * 60 + n, c & 1 ? 200 : 40);
        }
}
static void pat_text(Image *im, Rng *r) {  /* dark glyph-like strokes on paper */
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) put(im, x, y, 235, 232, 220);
    int strokes = im->w * im->h / 40;
    for (int s = 0; s < strokes; s++) {
        int x = (int)rng_below(r, (uint32_t)im->w), y = (int)rng_below(r, (uint32_t)im->h);
        int len = 2 + (int)rng_below(r, 7), dir = (int)rng_below(r, 2);
        for (int k = 0; k < len; k++) {
            int xx = x + (dir ? k : 0), yy = y + (dir ? 0 : k);
            if (xx < im->w && yy < im->h) put(im, xx, yy, 20, 20, 30);
        }
    }
}
static const struct { const char *name; PatternFn fn; } patterns[] = {
    { "gradient", pat_gradient }, { "rings", pat_rings }, { "blocks", pat_blocks }, { "text", pat_text } };

/* ---------------- colour conversion and resampling ---------------- */
static Plane plane_new(int w, int h) {
    Plane p; p.w = (w + 15) & ~15; p.h = (h + 15) & ~15;
    p.p = xcalloc((size_t)p.w * p.h, sizeof(float));
    return p;
}

STAGE static void rgb_to_ycc(const Image *im, Plane *y, Plane *cb, Plane *cr) {
    for (int j = 0; j < y->h; j++) {
        int sj = j < im->h ? j : im->h - 1;
        for (int i = 0; i < y->w; i++) {
            int si = i < im->w ? i : im->w - 1;
            const uint8_t *p = im->rgb + 3 * (sj * im->w + si);
            float r = p[0], g = p[1], b = p[2];
            size_t k = (size_t)j * y->w + i;
            y->p[k]  = 0.299f * r + 0.587f * g + 0.114f * b - 128.0f;
            cb->p[k] = -0.168736f * r - 0.331264f * g + 0.5f * b;
            cr->p[k] = 0.5f * r - 0.418688f * g - 0.081312f * b;
        }
    }
}

STAGE static Plane downsample(const Plane *in) {
    Plane o = plane_new(in->w / 2, in->h / 2);
    for (int j = 0; j < o.h; j++)
        for (int i = 0; i < o.w; i++) {
            int sj = 2 * j < in->h ? 2 * j : in->h - 2, si = 2 * i < in->w ? 2 * i : in->w - 2;
            const float *a = in->p + (size_t)sj * in->w + si;
            o.p[(size_t)j * o.w + i] = 0.25f * (a[0] + a[1] + a[in->w] + a[in->w + 1]);
        }
    return o;
}

/* ---------------- forward DCT + quantisation ---------------- */
static void fdct8x8(const double in[64], double out[64]) {
    double tmp[64];
    for (int y = 0; y < 8; y++)
        for (int u = 0; u < 8; u++) {
            double s = 0;
            for (int x = 0; x < 8; x++) s += dct_cos[u][x] * in[y * 8 + x];
            tmp[y * 8 + u] = s;
        }
    for (int u = 0; u < 8; u++)
        for (int v = 0; v < 8; v++) {
            double s = 0;
            for (int y = 0; y < 8; y++) s += dct_cos[v][y] * tmp[y * 8 + u];
            out[v * 8 + u] = s;
        }
}

static void make_qtable(const int *base, int quality, int *qt) {
    int scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
    for (int i = 0; i < 64; i++) {
        int q = (base[i] * scale + 50) / 100;
        qt[i] = q < 1 ? 1 : q > 255 ? 255 : q;
    }
}

STAGE static CoefPlane forward_transform(const Plane *p, const int *qt) {
    CoefPlane c; c.bw = p->w / 8; c.bh = p->h / 8;
    c.coef = xmalloc((size_t)c.bw * c.bh * 64 * sizeof(int16_t));
    double blk[64], out[64];
    for (int by = 0; by < c.bh; by++)
        for (int bx = 0; bx < c.bw; bx++) {
            for (int y = 0; y < 8; y++)
                for (int x = 0; x < 8; x++) blk[y * 8 + x] = p->p[(size_t)(by * 8 + y) * p->w + bx * 8 + x];
            fdct8x8(blk, out);
            int16_t *dst = c.coef + ((size_t)by * c.bw + bx) * 64;
            for (int k = 0; k < 64; k++) {
                int n = zigzag[k], q = qt[n];
                int v = (int)(out[n] + (out[n] >= 0 ? 0.5 : -0.5));
                dst[k] = (int16_t)(v >= 0 ? (v + q / 2) / q : -((-v + q / 2) / q));
            }
        }
    return c;
}

/* ---------------- Huffman coding ---------------- */
typedef struct {
    uint8_t len[256];      /* code length per symbol, 0 = unused */
    uint16_t code[256];
    int bits[17];          /* number of codes of each length */
    uint8_t vals[256];     /* symbols in canonical order */
    int nvals;
    int mincode[18], maxcode[18], valptr[18];
    int16_t look[512];     /* 9-bit lookahead: (len << 8) | sym, or -1 */
} Huff;

typedef struct { uint32_t freq; int node; } HeapItem;

static void heap_push(HeapItem *h, int *n, HeapItem it) {
    int i = (*n)++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (h[p].freq < it.freq || (h[p].freq == it.freq && h[p].node < it.node)) break;
        h[i] = h[p]; i = p;
    }
    h[i] = it;
}
static HeapItem heap_pop(HeapItem *h, int *n) {
    HeapItem top = h[0], last = h[--(*n)];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && (h[c + 1].freq < h[c].freq || (h[c + 1].freq == h[c].freq && h[c + 1].node < h[c].node))) c++;
        if (last.freq < h[c].freq || (last.freq == h[c].freq && last.node < h[c].node)) break;
        h[i] = h[c]; i = c;
    }
    h[i] = last;
    return top;
}

STAGE static void huff_build(Huff *hf, const uint32_t freq[256]) {
    HeapItem heap[512]; int n = 0;
    int parent[512], nnodes = 256;
    memset(hf, 0, sizeof *hf);
    for (int s = 0; s < 256; s++) if (freq[s]) heap_push(heap, &n, (HeapItem){ freq[s], s });
    if (n == 0) return;
    if (n == 1) { int s = heap[0].node; hf->len[s] = 1; }
    else {
        while (n > 1) {
            HeapItem a = heap_pop(heap, &n), b = heap_pop(heap, &n);
            parent[a.node] = parent[b.node] = nnodes;
            heap_push(heap, &n, (HeapItem){ a.freq + b.freq, nnodes });
            nnodes++;
        }
        int root = nnodes - 1;
        for (int s = 0; s < 256; s++) {
            if (!freq[s]) continue;
            int d = 0;
            for (int x = s; x != root; x = parent[x]) d++;
            hf->len[s] = (uint8_t)(d > 63 ? 63 : d);
        }
    }
    int cnt[64] = {0};
    for (int s = 0; s < 256; s++) if (hf->len[s]) cnt[hf->len[s]]++;
    for (int i = 63; i > 16; i--)              /* limit code lengths to 16 */
        while (cnt[i] > 0) {
            int j = i - 2;
            while (cnt[j] == 0) j--;
            cnt[i] -= 2; cnt[i - 1]++; cnt[j + 1] += 2; cnt[j]--;
        }
    /* reassign lengths: symbols sorted by (old length, symbol) get the new counts */
    int order[256], no = 0;
    for (int l = 1; l < 64; l++)
        for (int s = 0; s < 256; s++) if (hf->len[s] == l) order[no++] = s;
    int k = 0;
    for (int l = 1; l <= 16; l++) {
        hf->bits[l] = cnt[l];
        for (int i = 0; i < cnt[l]; i++) { hf->len[order[k]] = (uint8_t)l; hf->vals[k] = (uint8_t)order[k]; k++; }
    }
    hf->nvals = k;
    /* canonical codes and decoder tables */
    int code = 0; k = 0;
    for (int l = 1; l <= 16; l++) {
        hf->valptr[l] = k; hf->mincode[l] = code;
        for (int i = 0; i < hf->bits[l]; i++) { hf->code[hf->vals[k]] = (uint16_t)code; code++; k++; }
        hf->maxcode[l] = hf->bits[l] ? code - 1 : -1;
        code <<= 1;
    }
    hf->maxcode[17] = 0x7FFFFFFF;
    for (int i = 0; i < 512; i++) hf->look[i] = -1;
    for (int i = 0; i < hf->nvals; i++) {
        int s = hf->vals[i], l = hf->len[s];
        if (l > 9) continue;
        int base = hf->code[s] << (9 - l);
        for (int f = 0; f < (1 << (9 - l)); f++) hf->look[base + f] = (int16_t)((l << 8) | s);
    }
}

typedef struct { uint8_t *buf; size_t n, cap; uint64_t acc; int nbits; } BitWriter;

static void bw_put(BitWriter *w, uint32_t v, int n) {
    if (n == 0) return;
    w->acc = (w->acc << n) | (v & ((1u << n) - 1));
    w->nbits += n;
    while (w->nbits >= 8) {
        if (w->n == w->cap) { w->cap = w->cap ? w->cap * 2 : 4096; w->buf = realloc(w->buf, w->cap); }
        w->buf[w->n++] = (uint8_t)(w->acc >> (w->nbits - 8));
        w->nbits -= 8;
    }
}
static void bw_flush(BitWriter *w) { if (w->nbits) bw_put(w, 0x7F, 8 - w->nbits); }

static int magnitude_category(int v) {
    if (v < 0) v = -v;
    int s = 0;
    while (v) { s++; v >>= 1; }
    return s;
}

/* one pass over a component: with stats != NULL, count symbols; else emit bits */
STAGE static void entropy_pass(const CoefPlane *c, uint32_t *dcf, uint32_t *acf, const Huff *dch, const Huff *ach, BitWriter *w) {
    int pred = 0, nb = c->bw * c->bh;
    for (int b = 0; b < nb; b++) {
        const int16_t *z = c->coef + (size_t)b * 64;
        int diff = z[0] - pred; pred = z[0];
        int s = magnitude_category(diff);
        if (dcf) dcf[s]++;
        else { bw_put(w, dch->code[s], dch->len[s]); bw_put(w, (uint32_t)(diff < 0 ? diff - 1 : diff), s); }
        int run = 0;
        for (int k = 1; k < 64; k++) {
            int v = z[k];
            if (v == 0) { run++; continue; }
            while (run > 15) {
                if (acf) acf[0xF0]++; else bw_put(w, ach->code[0xF0], ach->len[0xF0]);
                run -= 16;
            }
            s = magnitude_category(v);
            int sym = (run << 4) | s;
            if (acf) acf[sym]++;
            else { bw_put(w, ach->code[sym], ach->len[sym]); bw_put(w, (uint32_t)(v < 0 ? v - 1 : v), s); }
            run = 0;
        }
        if (run) { if (acf) acf[0]++; else bw_put(w, ach->code[0], ach->len[0]); }
    }
}

typedef struct { const uint8_t *buf; size_t n, pos; uint64_t acc; int nbits; } BitReader;

static inline void br_fill(BitReader *r) {
    while (r->nbits <= 56) {
        uint8_t b = r->pos < r->n ? r->buf[r->pos] : 0;
        r->pos++;
        r->acc |= (uint64_t)b << (56 - r->nbits);
        r->nbits += 8;
    }
}
static inline uint32_t br_get(BitReader *r, int n) {
    if (n == 0) return 0;
    if (r->nbits < n) br_fill(r);
    uint32_t v = (uint32_t)(r->acc >> (64 - n));
    r->acc <<= n; r->nbits -= n;
    return v;
}
static int huff_decode(BitReader *r, const Huff *h) {
    if (r->nbits < 16) br_fill(r);
    int e = h->look[r->acc >> (64 - 9)];
    if (e >= 0) { int l = e >> 8; r->acc <<= l; r->nbits -= l; return e & 0xFF; }
    int code = 0, l = 0;                               /* slow path, bit by bit */
    do { code = (code << 1) | (int)br_get(r, 1); l++; } while (l <= 16 && code > h->maxcode[l]);
    if (l > 16) { fprintf(stderr, "jpeg: corrupt Huffman code\n"); exit(1); }
    return h->vals[h->valptr[l] + code - h->mincode[l]];
}
static inline int extend(uint32_t v, int s) { return s == 0 ? 0 : (v < (1u << (s - 1)) ? (int)v - (1 << s) + 1 : (int)v); }

STAGE static void entropy_decode(BitReader *r, CoefPlane *c, const Huff *dch, const Huff *ach) {
    int pred = 0, nb = c->bw * c->bh;
    for (int b = 0; b < nb; b++) {
        int16_t *z = c->coef + (size_t)b * 64;
        memset(z, 0, 64 * sizeof *z);
        int s = huff_decode(r, dch);
        pred += extend(br_get(r, s), s);
        z[0] = (int16_t)pred;
        for (int k = 1; k < 64;) {
            int sym = huff_decode(r, ach);
            if (sym == 0) break;
            if (sym == 0xF0) { k += 16; continue; }
            k += sym >> 4; s = sym & 15;
            z[k++] = (int16_t)extend(br_get(r, s), s);
        }
    }
}

/* ---------------- inverse transform ---------------- */
static void idct8x8(const float in[64], float out[64]) {
    float tmp[64];
    for (int v = 0; v < 8; v++)
        for (int x = 0; x < 8; x++) {
            float s = 0;
            for (int u = 0; u < 8; u++) s += idct_cos[x][u] * in[v * 8 + u];
            tmp[v * 8 + x] = s;
        }
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            float s = 0;
            for (int v = 0; v < 8; v++) s += idct_cos[y][v] * tmp[v * 8 + x];
            out[y * 8 + x] = s;
        }
}

STAGE static void inverse_transform(const CoefPlane *c, const int *qt, Plane *p) {
    float blk[64], out[64];
    for (int by = 0; by < c->bh; by++)
        for (int bx = 0; bx < c->bw; bx++) {
            const int16_t *z = c->coef + ((size_t)by * c->bw + bx) * 64;
            for (int k = 0; k < 64; k++) blk[zigzag[k]] = (float)(z[k] * qt[zigzag[k]]);
            idct8x8(blk, out);
            for (int y = 0; y < 8; y++)
                for (int x = 0; x < 8; x++) p->p[(size_t)(by * 8 + y) * p->w + bx * 8 + x] = out[y * 8 + x];
        }
}

static inline uint8_t clamp8(float v) { int i = (int)lrintf(v); return (uint8_t)(i < 0 ? 0 : i > 255 ? 255 : i); }

STAGE static void ycc_to_rgb(const Plane *y, const Plane *cb, const Plane *cr, Image *im) {
    for (int j = 0; j < im->h; j++)
        for (int i = 0; i < im->w; i++) {
            float Y = y->p[(size_t)j * y->w + i] + 128.0f;
            size_t ck = (size_t)(j / 2) * cb->w + i / 2;        /* nearest-neighbour upsampling */
            float Cb = cb->p[ck], Cr = cr->p[ck];
            uint8_t *p = im->rgb + 3 * ((size_t)j * im->w + i);
            p[0] = clamp8(Y + 1.402f * Cr);
            p[1] = clamp8(Y - 0.344136f * Cb - 0.714136f * Cr);
            p[2] = clamp8(Y + 1.772f * Cb);
        }
}

STAGE static double psnr(const Image *a, const Image *b) {
    double se = 0;
    size_t n = (size_t)a->w * a->h * 3;
    for (size_t i = 0; i < n; i++) { double d = (double)a->rgb[i] - b->rgb[i]; se += d * d; }
    if (se == 0) return 99.0;
    return 10.0 * log10(255.0 * 255.0 * n / se);
}

/* ---------------- driver ---------------- */
static Sum total;

static void codec_run(const Image *im, int quality, const char *name) {
    int qt_l[64], qt_c[64];
    make_qtable(base_luma, quality, qt_l);
    make_qtable(base_chroma, quality, qt_c);

    /* encode */
    Plane Y = plane_new(im->w, im->h), Cb = plane_new(im->w, im->h), Cr = plane_new(im->w, im->h);
    rgb_to_ycc(im, &Y, &Cb, &Cr);
    Plane cb2 = downsample(&Cb), cr2 = downsample(&Cr);
    CoefPlane comp[3] = { forward_transform(&Y, qt_l), forward_transform(&cb2, qt_c), forward_transform(&cr2, qt_c) };
    uint32_t f[4][256]; memset(f, 0, sizeof f);
    for (int c = 0; c < 3; c++) entropy_pass(&comp[c], f[c ? 2 : 0], f[c ? 3 : 1], NULL, NULL, NULL);
    Huff *h = xmalloc(4 * sizeof(Huff));
    for (int t = 0; t < 4; t++) huff_build(&h[t], f[t]);
    BitWriter w = {0};
    for (int c = 0; c < 3; c++) entropy_pass(&comp[c], NULL, NULL, &h[c ? 2 : 0], &h[c ? 3 : 1], &w);
    bw_flush(&w);

    /* decode */
    BitReader r = { w.buf, w.n, 0, 0, 0 };
    CoefPlane dec[3];
    for (int c = 0; c < 3; c++) {
        dec[c].bw = comp[c].bw; dec[c].bh = comp[c].bh;
        dec[c].coef = xmalloc((size_t)dec[c].bw * dec[c].bh * 64 * sizeof(int16_t));
        entropy_decode(&r, &dec[c], &h[c ? 2 : 0], &h[c ? 3 : 1]);
        if (memcmp(dec[c].coef, comp[c].coef, (size_t)dec[c].bw * dec[c].bh * 64 * sizeof(int16_t))) {
            fprintf(stderr, "jpeg: entropy round trip mismatch\n"); exit(1);
        }
    }
    inverse_transform(&dec[0], qt_l, &Y);
    inverse_transform(&dec[1], qt_c, &cb2);
    inverse_transform(&dec[2], qt_c, &cr2);
    Image out = { im->w, im->h, xmalloc((size_t)im->w * im->h * 3) };
    ycc_to_rgb(&Y, &cb2, &cr2, &out);

    /* verify */
    double q = psnr(im, &out);
    printf("  %-8s %4dx%-4d q=%2d  %7zu bytes  %.3f bpp  PSNR %.2f dB\n", name, im->w, im->h, quality,
           w.n, 8.0 * w.n / ((double)im->w * im->h), q);
    sum_bytes(&total, w.buf, w.n);
    sum_bytes(&total, out.rgb, (size_t)im->w * im->h * 3);

    free(out.rgb); free(w.buf); free(h);
    for (int c = 0; c < 3; c++) { free(comp[c].coef); free(dec[c].coef); }
    free(Y.p); free(Cb.p); free(Cr.p); free(cb2.p); free(cr2.p);
}

int main(int argc, char **argv) {
    int scale = scale_arg(argc, argv, 3, 64);
    init_tables();
    sum_init(&total);
    Rng rng; rng_seed(&rng, 0x1D6E6);
    static const int dims[][2] = { { 96, 64 }, { 80, 80 }, { 120, 72 }, { 64, 96 }, { 112, 88 }, { 72, 56 } };
    int nimg = (int)(sizeof dims / sizeof dims[0]);
    printf("jpeg: scale %d, %d images x 2 qualities\n", scale, nimg);
    for (int i = 0; i < nimg; i++) {
        Image im = { dims[i][0] * scale, dims[i][1] * scale, NULL };
        im.rgb = xmalloc((size_t)im.w * im.h * 3);
        int p = i % 4;
        patterns[p].fn(&im, &rng);
        codec_run(&im, 75, patterns[p].name);
        codec_run(&im, 30 + 10 * i, patterns[p].name);
        free(im.rgb);
    }
    printf("checksum %016llx\n", (unsigned long long)total.h);
    return 0;
}

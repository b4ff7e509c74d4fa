/* lz77: two lossless compressors with their decompressors over generated
 * data, verifying the round trip (models SPECint gzip and bzip2).
 *
 * Inputs (several kinds and sizes, generated with a fixed seed): English-like
 * text from a word Markov chain, CSV-like records written with snprintf,
 * delta-friendly binary tables, and DNA-like sequences with repeats.
 * For each input the stages are:
 *   1. LZ77 compression at three levels (like gzip -1/-6/-9: hash-chain
 *      limits 4/32/1024, greedy or lazy matching) over a 64 KB window into an
 *      LZ4-style token stream, each followed by
 *   2. LZ77 decompression and verification (memcmp + CRC-32);
 *   3. block-sorting (BWT) compression of 32 KB blocks: rotation sort with
 *      qsort and a comparator (indirect calls), move-to-front, zero-run
 *      coding and an order-0 entropy estimate;
 *   4. inverse BWT (move-to-front decoding, LF mapping) and verification.
 * argv[1] = scale (default 4): input sizes grow linearly with it.
 */
#include "common.h"
#include <math.h>

/* ---------------- CRC-32 ---------------- */
static uint32_t crc_table[256];
static void crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}
STAGE static uint32_t crc32(const uint8_t *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

/* ---------------- input generators ---------------- */
typedef size_t (*GenFn)(uint8_t *out, size_t n, Rng *r);

static const char *vocab[] = {
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be", "by",
    "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an", "they",
    "program", "phase", "profile", "sample", "branch", "method", "interval", "counter", "device",
    "energy", "overhead", "accuracy", "hardware", "software", "instruction", "stream", "remote",
    "compression", "benchmark", "execution", "behavior", "similar", "threshold", "representative" };
#define NVOCAB ((int)(sizeof vocab / sizeof vocab[0]))

STAGE static size_t gen_text(uint8_t *out, size_t n, Rng *r) {
    char *s = (char *)out;
    size_t len = 0;
    int prev = 0, words_in_sentence = 0;
    s[0] = 0;
    while (len + 32 < n) {
        /* a sticky Markov chain: the next word depends on the previous one */
        uint32_t step = rng_below(r, 12);           /* separate statements: C leaves */
        step *= rng_below(r, 5);                    /* the order of calls in one expression open */
        int w = (int)((prev * 7 + step) % NVOCAB);
        char word[32];
        strcpy(word, vocab[w]);
        if (words_in_sentence == 0) word[0] = (char)(word[0] - 'a' + 'A');
        strcat(s + len, word);
        len += strlen(word);
        words_in_sentence++;
        if (words_in_sentence > 6 && rng_below(r, 5) == 0) {
            strcat(s + len, rng_below(r, 4) ? ". " : ".\n");
            len += 2; words_in_sentence = 0;
        } else if (rng_below(r, 11) == 0) { strcat(s + len, ", "); len += 2; }
        else { strcat(s + len, " "); len += 1; }
        prev = w;
    }
    while (len < n) out[len++] = ' ';
    return n;
}

STAGE static size_t gen_records(uint8_t *out, size_t n, Rng *r) {
    static const char *cities[] = { "Santa Barbara", "Boulder", "Madison", "Redmond", "Seattle", "Austin" };
    size_t len = 0;
    int id = 1000;
    while (len + 96 < n) {
        uint32_t city = rng_below(r, 6), units = rng_below(r, 5000), cents = rng_below(r, 100);
        uint32_t ok = rng_below(r, 3), grade = rng_below(r, 4);
        int k = snprintf((char *)out + len, 96, "%d,%s,%u.%02u,%s,%c\n", id++, cities[city],
                         units, cents, ok ? "ok" : "retry", (char)('A' + grade));
        len += (size_t)k;
    }
    while (len < n) out[len++] = '\n';
    return n;
}

STAGE static size_t gen_table(uint8_t *out, size_t n, Rng *r) {
    uint32_t v = 100000;
    size_t i = 0;
    while (i + 4 <= n) {
        v += rng_below(r, 64);
        if (rng_below(r, 50) == 0) v = (uint32_t)rng_next(r) & 0xFFFFF;
        out[i++] = (uint8_t)v; out[i++] = (uint8_t)(v >> 8); out[i++] = (uint8_t)(v >> 16); out[i++] = 0;
    }
    while (i < n) out[i++] = 0;
    return n;
}

STAGE static size_t gen_dna(uint8_t *out, size_t n, Rng *r) {
    static const char bases[4] = { 'A', 'C', 'G', 'T' };
    size_t i = 0;
    while (i < n) {
        if (i > 1000 && rng_below(r, 8) == 0) {          /* copy a repeat, with mutations */
            size_t src = rng_below(r, (uint32_t)(i - 500)), len = 20 + rng_below(r, 200);
            for (size_t k = 0; k < len && i < n; k++)
                out[i++] = rng_below(r, 30) ? out[src + k] : (uint8_t)bases[rng_below(r, 4)];
        } else out[i++] = (uint8_t)bases[rng_below(r, 4)];
    }
    return n;
}

static const struct { const char *name; GenFn fn; int kb; } inputs[] = {
    { "text", gen_text, 48 }, { "records", gen_records, 40 }, { "table", gen_table, 32 },
    { "dna", gen_dna, 40 }, { "text", gen_text, 24 }, { "records", gen_records, 16 } };

/* ---------------- LZ77 ---------------- */
#define WINDOW 65535
#define HASH_BITS 15
#define MIN_MATCH 4

typedef struct { uint8_t *p; size_t n, cap; } Buf;
static void buf_put(Buf *b, uint8_t v) {
    if (b->n == b->cap) { b->cap = b->cap ? 2 * b->cap : 65536; b->p = realloc(b->p, b->cap); if (!b->p) exit(3); }
    b->p[b->n++] = v;
}
static void put_len(Buf *b, size_t v) { while (v >= 255) { buf_put(b, 255); v -= 255; } buf_put(b, (uint8_t)v); }

static inline uint32_t hash4(const uint8_t *p) {
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return (v * 2654435761u) >> (32 - HASH_BITS);
}

typedef struct { int32_t head[1 << HASH_BITS]; int32_t *prev; } Chains;

static void insert(Chains *c, const uint8_t *in, size_t i) {
    uint32_t h = hash4(in + i);
    c->prev[i] = c->head[h];
    c->head[h] = (int32_t)i;
}

typedef struct { const char *name; int max_chain, lazy; } Level;
static const Level levels[] = { { "fast", 4, 0 }, { "normal", 32, 1 }, { "best", 1024, 1 } };

static size_t longest_match(const Chains *c, const uint8_t *in, size_t n, size_t i, size_t *dist, int max_chain) {
    size_t best = 0;
    int32_t j = c->head[hash4(in + i)];
    int chain = max_chain;
    size_t maxlen = n - i;
    while (j >= 0 && i - (size_t)j <= WINDOW && chain-- > 0) {
        if (in[j + best] == in[i + best]) {
            size_t l = 0;
            while (l < maxlen && in[j + l] == in[i + l]) l++;
            if (l > best) { best = l; *dist = i - (size_t)j; if (l >= 258) break; }
        }
        j = c->prev[j];
    }
    return best;
}

static void emit(Buf *out, const uint8_t *lit, size_t nlit, size_t mlen, size_t dist) {
    uint8_t tok = (uint8_t)((nlit < 15 ? nlit : 15) << 4);
    if (mlen) tok |= (uint8_t)(mlen - MIN_MATCH < 15 ? mlen - MIN_MATCH : 15);
    buf_put(out, tok);
    if (nlit >= 15) put_len(out, nlit - 15);
    for (size_t k = 0; k < nlit; k++) buf_put(out, lit[k]);
    if (mlen) {
        buf_put(out, (uint8_t)dist); buf_put(out, (uint8_t)(dist >> 8));
        if (mlen - MIN_MATCH >= 15) put_len(out, mlen - MIN_MATCH - 15);
    }
}

STAGE static Buf lz_compress(const uint8_t *in, size_t n, const Level *lv) {
    Buf out = {0};
    Chains *c = xmalloc(sizeof(Chains));
    c->prev = xmalloc(n * sizeof(int32_t));
    for (int i = 0; i < (1 << HASH_BITS); i++) c->head[i] = -1;
    size_t i = 0, lit = 0;
    while (i + MIN_MATCH <= n) {
        size_t dist = 0, len = longest_match(c, in, n, i, &dist, lv->max_chain);
        if (len >= MIN_MATCH) {
            insert(c, in, i);
            if (lv->lazy && i + 1 + MIN_MATCH <= n) {          /* lazy: is the next position better? */
                size_t d2 = 0, l2 = longest_match(c, in, n, i + 1, &d2, lv->max_chain);
                if (l2 > len + 1) { i++; continue; }
            }
            emit(&out, in + lit, i - lit, len, dist);
            for (size_t k = 1; k < len && i + k + MIN_MATCH <= n; k++) insert(c, in, i + k);
            i += len; lit = i;
        } else {
            insert(c, in, i);
            i++;
        }
    }
    emit(&out, in + lit, n - lit, 0, 0);
    free(c->prev); free(c);
    return out;
}

static size_t get_len(const uint8_t *p, size_t *pos) {
    size_t v = 0; uint8_t b;
    do { b = p[(*pos)++]; v += b; } while (b == 255);
    return v;
}

STAGE static size_t lz_decompress(const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    size_t ip = 0, op = 0;
    while (ip < n) {
        uint8_t tok = in[ip++];
        size_t nlit = tok >> 4;
        if (nlit == 15) nlit += get_len(in, &ip);
        if (op + nlit > cap) return (size_t)-1;
        memcpy(out + op, in + ip, nlit); op += nlit; ip += nlit;
        if (ip >= n) break;
        size_t dist = in[ip] | (size_t)in[ip + 1] << 8; ip += 2;
        size_t mlen = (tok & 15) + MIN_MATCH;
        if ((tok & 15) == 15) mlen += get_len(in, &ip);
        if (dist == 0 || dist > op || op + mlen > cap) return (size_t)-1;
        const uint8_t *src = out + op - dist;
        for (size_t k = 0; k < mlen; k++) out[op + k] = src[k];   /* may overlap */
        op += mlen;
    }
    return op;
}

/* ---------------- BWT + MTF ---------------- */
#define BLOCK 32768
static const uint8_t *rot_buf;   /* doubled block, for the comparator */
static size_t rot_n;

static int rot_cmp(const void *a, const void *b) {
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    int c = memcmp(rot_buf + i, rot_buf + j, rot_n);
    return c ? c : (i < j ? -1 : i > j);
}

typedef struct { uint8_t *bwt; uint32_t primary; uint16_t *mtf; size_t nmtf; } BwtBlock;

STAGE static uint32_t bwt_forward(const uint8_t *in, size_t n, uint8_t *out) {
    uint8_t *dbl = xmalloc(2 * n);
    memcpy(dbl, in, n); memcpy(dbl + n, in, n);
    uint32_t *idx = xmalloc(n * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) idx[i] = (uint32_t)i;
    rot_buf = dbl; rot_n = n;
    qsort(idx, n, sizeof(uint32_t), rot_cmp);
    uint32_t primary = 0;
    for (size_t i = 0; i < n; i++) {
        out[i] = dbl[idx[i] + n - 1];
        if (idx[i] == 0) primary = (uint32_t)i;
    }
    free(dbl); free(idx);
    return primary;
}

/* move-to-front + zero-run coding (RUNA/RUNB style bijective base-2 runs) */
STAGE static size_t mtf_encode(const uint8_t *in, size_t n, uint16_t *out) {
    uint8_t order[256];
    for (int i = 0; i < 256; i++) order[i] = (uint8_t)i;
    size_t o = 0, zrun = 0;
    for (size_t i = 0; i <= n; i++) {
        int r = 0;
        if (i < n) {
            uint8_t c = in[i];
            while (order[r] != c) r++;
            memmove(order + 1, order, (size_t)r);
            order[0] = c;
            if (r == 0) { zrun++; continue; }
        }
        while (zrun > 0) {                       /* 0 = RUNA, 1 = RUNB */
            zrun--;
            out[o++] = (uint16_t)(zrun & 1);
            zrun >>= 1;
        }
        if (i < n) out[o++] = (uint16_t)(r + 1);
    }
    return o;
}

STAGE static void mtf_decode(const uint16_t *in, size_t m, uint8_t *out, size_t n) {
    uint8_t order[256];
    for (int i = 0; i < 256; i++) order[i] = (uint8_t)i;
    size_t o = 0;
    size_t k = 0;
    while (k < m) {
        if (in[k] <= 1) {
            size_t run = 0, bit = 1;
            while (k < m && in[k] <= 1) { run += (in[k] + 1) * bit; bit <<= 1; k++; }
            while (run-- && o < n) out[o++] = order[0];
        } else {
            int r = in[k++] - 1;
            uint8_t c = order[r];
            memmove(order + 1, order, (size_t)r);
            order[0] = c;
            if (o < n) out[o++] = c;
        }
    }
}

STAGE static void bwt_inverse(const uint8_t *bwt, size_t n, uint32_t primary, uint8_t *out) {
    uint32_t count[256] = {0}, start[256];
    uint32_t *lf = xmalloc(n * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) count[bwt[i]]++;
    uint32_t s = 0;
    for (int c = 0; c < 256; c++) { start[c] = s; s += count[c]; }
    for (size_t i = 0; i < n; i++) lf[i] = start[bwt[i]]++;
    uint32_t p = primary;
    for (size_t i = n; i-- > 0;) { out[i] = bwt[p]; p = lf[p]; }
    free(lf);
}

STAGE static double entropy_bits(const uint16_t *sym, size_t m) {
    uint32_t f[258] = {0};
    for (size_t i = 0; i < m; i++) f[sym[i]]++;
    double bits = 0;
    for (int s = 0; s < 258; s++) if (f[s]) bits += f[s] * log2((double)m / f[s]);
    return bits;
}

int main(int argc, char **argv) {
    int scale = scale_arg(argc, argv, 4, 256);
    crc_init();
    Rng rng; rng_seed(&rng, 0xB2171);
    Sum sum; sum_init(&sum);
    int nin = (int)(sizeof inputs / sizeof inputs[0]);
    printf("lz77: scale %d, %d inputs\n", scale, nin);
    for (int t = 0; t < nin; t++) {
        size_t n = (size_t)inputs[t].kb * 1024 * scale / 4;
        uint8_t *in = xmalloc(n + 1), *back = xmalloc(n);
        inputs[t].fn(in, n, &rng);
        uint32_t crc = crc32(in, n);

        size_t zn[3];
        for (int l = 0; l < 3; l++) {
            Buf z = lz_compress(in, n, &levels[l]);
            memset(back, 0, n);
            size_t m = lz_decompress(z.p, z.n, back, n);
            if (m != n || memcmp(in, back, n) || crc32(back, n) != crc) { fprintf(stderr, "lz77: round trip failed on input %d\n", t); return 1; }
            sum_bytes(&sum, z.p, z.n);
            zn[l] = z.n;
            free(z.p);
        }

        double bwt_bits = 0;
        uint8_t *bw = xmalloc(BLOCK);
        uint16_t *mtf = xmalloc((BLOCK + 1) * 2 * sizeof(uint16_t));
        for (size_t off = 0; off < n; off += BLOCK) {
            size_t bn = n - off < BLOCK ? n - off : BLOCK;
            uint32_t primary = bwt_forward(in + off, bn, bw);
            size_t nm = mtf_encode(bw, bn, mtf);
            bwt_bits += entropy_bits(mtf, nm) + 32;
            sum_bytes(&sum, mtf, nm * sizeof(uint16_t));
            sum_u64(&sum, primary);
            memset(bw, 0, bn);
            mtf_decode(mtf, nm, bw, bn);
            bwt_inverse(bw, bn, primary, back + off);
        }
        if (memcmp(in, back, n) || crc32(back, n) != crc) { fprintf(stderr, "lz77: BWT round trip failed on input %d\n", t); return 1; }
        printf("  %-8s %6zu bytes  crc %08x  lz77 fast/normal/best %6zu %6zu %6zu bytes  bwt+mtf ~%6.0f bytes (%4.1f%%)\n",
               inputs[t].name, n, crc, zn[0], zn[1], zn[2], bwt_bits / 8, 100.0 * bwt_bits / 8 / n);
        sum_u64(&sum, crc);
        free(bw); free(mtf); free(in); free(back);
    }
    printf("checksum %016llx\n", (unsigned long long)sum.h);
    return 0;
}

/* motion: block-matching motion estimation and compensation (models the
 * MediaBench mpeg2encode motion-estimation kernel).
 *
 * Generated video: a panning value-noise background with moving, bouncing
 * objects and sensor noise.  Frames are coded in groups of pictures (GOPs):
 * the first frame of a GOP is intra (block mean/variance analysis), the rest
 * are predicted.  The motion search strategy alternates between GOPs:
 * exhaustive full search, diamond search and three-step search (function
 * pointers), each followed by half-pixel refinement, motion compensation,
 * residual quantisation and reconstruction (the reference for the next frame).
 * argv[1] = scale (default 3): number of GOPs = 2 * scale.
 */
#include "common.h"

#define W 176
#define H 144
#define MB 16
#define RANGE 7
#define GOP 6

typedef struct { uint8_t p[H][W]; } Frame;
typedef struct { int dx, dy; } MV;                 /* in half pixels */
typedef uint32_t (*SadFn)(const Frame *a, int ax, int ay, const Frame *b, int bx, int by, uint32_t limit);
typedef MV (*SearchFn)(const Frame *cur, const Frame *ref, int x, int y, uint32_t *sad);

static long sad_calls;

/* ---------------- synthetic video ---------------- */
static uint8_t texture[512][512];
typedef struct { double x, y, vx, vy; int w, h; uint8_t shade; int round; } Object;

static void make_texture(Rng *r) {
    static uint8_t lat[33][33];
    for (int j = 0; j < 33; j++) for (int i = 0; i < 33; i++) lat[j][i] = (uint8_t)rng_below(r, 256);
    for (int y = 0; y < 512; y++)
        for (int x = 0; x < 512; x++) {
            int gx = x / 16, gy = y / 16, fx = x % 16, fy = y % 16;
            int a = lat[gy][gx] * (16 - fx) + lat[gy][gx + 1] * fx;
            int b = lat[gy + 1][gx] * (16 - fx) + lat[gy + 1][gx + 1] * fx;
            int v = (a * (16 - fy) + b * fy) / 256;
            v += ((x * 7 + y * 13) & 15) - 8;               /* fine detail */
            texture[y][x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
}

static void render(Frame *f, int t, Object *obj, int nobj, Rng *r) {
    int px = (t * 3) % 300, py = (t * 2) % 300;        /* camera pan */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) f->p[y][x] = texture[y + py][x + px];
    for (int k = 0; k < nobj; k++) {
        Object *o = &obj[k];
        int x0 = (int)o->x, y0 = (int)o->y;
        for (int y = 0; y < o->h; y++)
            for (int x = 0; x < o->w; x++) {
                int xx = x0 + x, yy = y0 + y;
                if (xx < 0 || yy < 0 || xx >= W || yy >= H) continue;
                if (o->round) {
                    int cx = 2 * x - o->w, cy = 2 * y - o->h;
                    if (cx * cx + cy * cy > o->w * o->w) continue;
                }
                f->p[yy][xx] = (uint8_t)(o->shade + ((x ^ y) & 8) * 3);
            }
        o->x += o->vx; o->y += o->vy;
        if (o->x < -8 || o->x > W - o->w + 8) o->vx = -o->vx;
        if (o->y < -8 || o->y > H - o->h + 8) o->vy = -o->vy;
    }
    for (int i = 0; i < W * H / 16; i++) {           /* sensor noise */
        int x = (int)rng_below(r, W), y = (int)rng_below(r, H);
        int v = f->p[y][x] + (int)rng_below(r, 9) - 4;
        f->p[y][x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

/* ---------------- SAD kernels ---------------- */
static uint32_t sad16(const Frame *a, int ax, int ay, const Frame *b, int bx, int by, uint32_t limit) {
    uint32_t s = 0;
    sad_calls++;
    for (int y = 0; y < 16; y++) {
        const uint8_t *pa = &a->p[ay + y][ax], *pb = &b->p[by + y][bx];
        for (int x = 0; x < 16; x++) { int d = pa[x] - pb[x]; s += (uint32_t)(d < 0 ? -d : d); }
        if (s >= limit) return s;                     /* early termination */
    }
    return s;
}

/* half-pixel SAD: reference sampled at (2*bx+hx)/2, (2*by+hy)/2 with bilinear averaging */
static uint32_t sad16_half(const Frame *a, int ax, int ay, const Frame *b, int hx2, int hy2) {
    int bx = hx2 >> 1, by = hy2 >> 1, fx = hx2 & 1, fy = hy2 & 1;
    uint32_t s = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            const uint8_t *q = &b->p[by + y][bx + x];
            int v = (q[0] + q[fx] + q[fy * W] + q[fy * W + fx] + 2) >> 2;
            int d = a->p[ay + y][ax + x] - v;
            s += (uint32_t)(d < 0 ? -d : d);
        }
    return s;
}

static SadFn sad = sad16;

static int in_range(int x, int y) { return x >= 0 && y >= 0 && x + MB <= W && y + MB <= H; }

/* ---------------- search strategies ---------------- */
static MV full_search(const Frame *cur, const Frame *ref, int x, int y, uint32_t *best) {
    MV mv = { 0, 0 };
    *best = sad(cur, x, y, ref, x, y, UINT32_MAX);
    for (int dy = -RANGE; dy <= RANGE; dy++)
        for (int dx = -RANGE; dx <= RANGE; dx++) {
            if (!in_range(x + dx, y + dy) || (dx == 0 && dy == 0)) continue;
            uint32_t s = sad(cur, x, y, ref, x + dx, y + dy, *best);
            if (s < *best) { *best = s; mv.dx = dx; mv.dy = dy; }
        }
    return mv;
}

static MV diamond_search(const Frame *cur, const Frame *ref, int x, int y, uint32_t *best) {
    static const int large[8][2] = { {0,-2},{1,-1},{2,0},{1,1},{0,2},{-1,1},{-2,0},{-1,-1} };
    static const int small[4][2] = { {0,-1},{1,0},{0,1},{-1,0} };
    int cx = 0, cy = 0;
    *best = sad(cur, x, y, ref, x, y, UINT32_MAX);
    for (int iter = 0; iter < 16; iter++) {
        int bx = cx, by = cy;
        for (int k = 0; k < 8; k++) {
            int dx = cx + large[k][0], dy = cy + large[k][1];
            if (dx < -RANGE || dx > RANGE || dy < -RANGE || dy > RANGE || !in_range(x + dx, y + dy)) continue;
            uint32_t s = sad(cur, x, y, ref, x + dx, y + dy, *best);
            if (s < *best) { *best = s; bx = dx; by = dy; }
        }
        if (bx == cx && by == cy) break;
        cx = bx; cy = by;
    }
    int bx = cx, by = cy;
    for (int k = 0; k < 4; k++) {
        int dx = cx + small[k][0], dy = cy + small[k][1];
        if (dx < -RANGE || dx > RANGE || dy < -RANGE || dy > RANGE || !in_range(x + dx, y + dy)) continue;
        uint32_t s = sad(cur, x, y, ref, x + dx, y + dy, *best);
        if (s < *best) { *best = s; bx = dx; by = dy; }
    }
    return (MV){ bx, by };
}

static MV three_step_search(const Frame *cur, const Frame *ref, int x, int y, uint32_t *best) {
    int cx = 0, cy = 0;
    *best = sad(cur, x, y, ref, x, y, UINT32_MAX);
    for (int step = 4; step >= 1; step /= 2) {
        int bx = cx, by = cy;
        for (int sy = -1; sy <= 1; sy++)
            for (int sx = -1; sx <= 1; sx++) {
                if (!sx && !sy) continue;
                int dx = cx + sx * step, dy = cy + sy * step;
                if (dx < -RANGE || dx > RANGE || dy < -RANGE || dy > RANGE || !in_range(x + dx, y + dy)) continue;
                uint32_t s = sad(cur, x, y, ref, x + dx, y + dy, *best);
                if (s < *best) { *best = s; bx = dx; by = dy; }
            }
        cx = bx; cy = by;
    }
    return (MV){ cx, cy };
}

static const struct { const char *name; SearchFn fn; } searches[] = {
    { "full", full_search }, { "diamond", diamond_search }, { "three-step", three_step_search } };

/* refine an integer vector to half-pixel precision; returns the vector in half pixels */
STAGE static MV half_pel_refine(const Frame *cur, const Frame *ref, int x, int y, MV mv, uint32_t *best) {
    MV out = { 2 * mv.dx, 2 * mv.dy };
    int hx0 = 2 * (x + mv.dx), hy0 = 2 * (y + mv.dy);
    for (int sy = -1; sy <= 1; sy++)
        for (int sx = -1; sx <= 1; sx++) {
            if (!sx && !sy) continue;
            int hx = hx0 + sx, hy = hy0 + sy;
            if (hx < 0 || hy < 0 || (hx >> 1) + MB + 1 > W || (hy >> 1) + MB + 1 > H) continue;
            uint32_t s = sad16_half(cur, x, y, ref, hx, hy);
            if (s < *best) { *best = s; out.dx = 2 * mv.dx + sx; out.dy = 2 * mv.dy + sy; }
        }
    return out;
}

/* ---------------- coding stages ---------------- */
STAGE static uint64_t intra_code(const Frame *cur, Frame *recon) {
    uint64_t bits = 0;
    for (int by = 0; by < H; by += 8)
        for (int bx = 0; bx < W; bx += 8) {
            int sum = 0, sq = 0;
            for (int y = 0; y < 8; y++) for (int x = 0; x < 8; x++) { int v = cur->p[by + y][bx + x]; sum += v; sq += v * v; }
            int mean = sum / 64, var = sq / 64 - mean * mean;
            int q = var > 400 ? 4 : 8;
            for (int y = 0; y < 8; y++)
                for (int x = 0; x < 8; x++) {
                    int d = cur->p[by + y][bx + x] - mean;
                    int c = d >= 0 ? (d + q / 2) / q : -((-d + q / 2) / q);
                    bits += c ? 4 : 1;
                    int v = mean + c * q;
                    recon->p[by + y][bx + x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
                }
        }
    return bits;
}

STAGE static uint64_t compensate(const Frame *cur, const Frame *ref, const MV *mvs, Frame *recon) {
    uint64_t bits = 0;
    int i = 0;
    for (int by = 0; by < H; by += MB)
        for (int bx = 0; bx < W; bx += MB, i++) {
            MV mv = mvs[i];
            int hx = 2 * bx + mv.dx, hy = 2 * by + mv.dy, fx = hx & 1, fy = hy & 1;
            bits += 6;
            for (int y = 0; y < MB; y++)
                for (int x = 0; x < MB; x++) {
                    const uint8_t *q = &ref->p[(hy >> 1) + y][(hx >> 1) + x];
                    int pred = (q[0] + q[fx] + q[fy * W] + q[fy * W + fx] + 2) >> 2;
                    int d = cur->p[by + y][bx + x] - pred;
                    int c = d >= 0 ? (d + 3) / 6 : -((-d + 3) / 6);
                    bits += c ? 5 : 1;
                    int v = pred + c * 6;
                    recon->p[by + y][bx + x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
                }
        }
    return bits;
}

STAGE static void estimate(const Frame *cur, const Frame *ref, SearchFn search, MV *mvs, uint64_t *total_sad) {
    int i = 0;
    for (int by = 0; by < H; by += MB)
        for (int bx = 0; bx < W; bx += MB, i++) {
            uint32_t best;
            MV mv = search(cur, ref, bx, by, &best);
            mvs[i] = half_pel_refine(cur, ref, bx, by, mv, &best);
            *total_sad += best;
        }
}

STAGE static double frame_psnr(const Frame *a, const Frame *b) {
    long se = 0;
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) { int d = a->p[y][x] - b->p[y][x]; se += d * d; }
    if (se == 0) return 99.0;
    double mse = (double)se / (W * H), r = 255.0 * 255.0 / mse, l = 0;
    while (r >= 10.0) { r /= 10.0; l += 1.0; }          /* log10 without libm */
    double t = (r - 1) / (r + 1), t2 = t * t, s = 0, pw = t;
    for (int k = 1; k < 40; k += 2) { s += pw / k; pw *= t2; }
    return 10.0 * (l + 2.0 * s / 2.302585092994046);
}

int main(int argc, char **argv) {
    int scale = scale_arg(argc, argv, 3, 1000);
    int ngop = 2 * scale;
    Rng rng; rng_seed(&rng, 0x30710);
    make_texture(&rng);
    Object obj[5];
    for (int k = 0; k < 5; k++) {
        int vx = (int)rng_below(&rng, 9) - 4, vy = (int)rng_below(&rng, 7) - 3;   /* one call per */
        int w = 20 + (int)rng_below(&rng, 24), h = 16 + (int)rng_below(&rng, 20);  /* declarator: a fixed order */
        obj[k] = (Object){ 10.0 + 30 * k, 20.0 + 17 * k, vx * 0.75, vy * 0.5, w, h, (uint8_t)(40 + 40 * k), k & 1 };
    }
    Frame *cur = xmalloc(sizeof(Frame)), *ref = xmalloc(sizeof(Frame)), *recon = xmalloc(sizeof(Frame));
    MV mvs[(W / MB) * (H / MB)];
    Sum sum; sum_init(&sum);
    printf("motion: %dx%d, %d GOPs of %d frames, search range +-%d\n", W, H, ngop, GOP, RANGE);
    int t = 0;
    for (int g = 0; g < ngop; g++) {
        int strat = g % 3;
        uint64_t bits = 0, tsad = 0;
        double psnr_sum = 0;
        long calls0 = sad_calls;
        for (int f = 0; f < GOP; f++, t++) {
            render(cur, t, obj, 5, &rng);
            if (f == 0) bits += intra_code(cur, recon);
            else {
                estimate(cur, ref, searches[strat].fn, mvs, &tsad);
                bits += compensate(cur, ref, mvs, recon);
                sum_bytes(&sum, mvs, sizeof mvs);
            }
            psnr_sum += frame_psnr(cur, recon);
            Frame *tmp = ref; ref = recon; recon = tmp;     /* reconstruction becomes the reference */
            sum_bytes(&sum, ref->p, sizeof ref->p);
        }
        printf("  gop %2d  %-10s  %8llu bits  sad %9llu  sad calls %7ld  mean PSNR %.2f dB\n", g, searches[strat].name,
               (unsigned long long)bits, (unsigned long long)tsad, sad_calls - calls0, psnr_sum / GOP);
        sum_u64(&sum, bits);
    }
    printf("checksum %016llx\n", (unsigned long long)sum.h);
    free(cur); free(ref); free(recon);
    return 0;
}

/* chess: game-tree search (models SPECint 186.crafty / 458.sjeng).
 *
 * A compact chess engine on a 0x88 board: FEN parsing, pseudo-legal move
 * generation dispatched per piece type through function pointers (no
 * castling or en passant; promotion to queen), legality by king-attack test,
 * material + piece-square evaluation, negamax alpha-beta with iterative
 * deepening, quiescence search, MVV-LVA and killer move ordering, and a
 * Zobrist-hashed transposition table.
 * For each of several positions the stages are: perft (move-generation tree
 * count), then a fixed-depth search, printing the best move and score.
 * argv[1] = scale (default 2): search depth = scale + 2, perft depth = scale + 1
 * (scale + 2 for the endgames).
 */
#include "common.h"

enum { EMPTY = 0, PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum { WHITE = 0, BLACK = 1 };
#define PIECE(c, t) ((c) == WHITE ? (t) : -(t))
#define TYPE(p) ((p) < 0 ? -(p) : (p))
#define COLOR(p) ((p) < 0 ? BLACK : WHITE)
#define ONBOARD(sq) (!((sq) & 0x88))
#define INF 1000000
#define MATE 100000

typedef struct { uint8_t from, to; int8_t captured, promo; int score; } Move;
typedef struct {
    int8_t sq[128];
    int side;
    int king[2];
    uint64_t hash;
} Board;

static const int value[7] = { 0, 100, 320, 330, 500, 900, 0 };
static const int knight_d[8] = { 33, 31, 18, 14, -33, -31, -18, -14 };
static const int king_d[8] = { 1, -1, 16, -16, 17, 15, -17, -15 };
static const int bishop_d[4] = { 17, 15, -17, -15 };
static const int rook_d[4] = { 1, -1, 16, -16 };
static int pst[7][128];               /* white's view; black mirrors ranks */
static uint64_t zobrist[13][128], zobrist_side;

static long nodes, qnodes, tt_hits;

/* ---------------- setup ---------------- */
static void init_tables(void) {
    Rng r; rng_seed(&r, 0xC4E55);
    for (int p = 0; p < 13; p++) for (int s = 0; s < 128; s++) zobrist[p][s] = rng_next(&r);
    zobrist_side = rng_next(&r);
    for (int s = 0; s < 128; s++) {
        if (!ONBOARD(s)) continue;
        int f = s & 7, rk = s >> 4;
        int center = 6 - (abs(2 * f - 7) + abs(2 * rk - 7)) / 2;   /* 0..6 */
        pst[PAWN][s] = rk * 6 + (f >= 2 && f <= 5 ? rk * 2 : 0) - 6;
        pst[KNIGHT][s] = center * 6 - 15;
        pst[BISHOP][s] = center * 3 - 5;
        pst[ROOK][s] = rk == 6 ? 15 : 0;
        pst[QUEEN][s] = center * 2;
        pst[KING][s] = rk == 0 && (f < 3 || f > 5) ? 20 : -center * 3;
    }
}

static int zidx(int p) { return p + 6; }

static void compute_hash(Board *b) {
    b->hash = b->side ? zobrist_side : 0;
    for (int s = 0; s < 128; s++) if (ONBOARD(s) && b->sq[s]) b->hash ^= zobrist[zidx(b->sq[s])][s];
}

static int parse_fen(Board *b, const char *fen) {
    memset(b, 0, sizeof *b);
    int rank = 7, file = 0;
    const char *p = fen;
    for (; *p && *p != ' '; p++) {
        if (*p == '/') { rank--; file = 0; continue; }
        if (*p >= '1' && *p <= '8') { file += *p - '0'; continue; }
        const char *pieces = "pnbrqk";
        const char *t = strchr(pieces, *p >= 'a' ? *p : *p - 'A' + 'a');
        if (!t || file > 7 || rank < 0) return -1;
        int type = (int)(t - pieces) + 1, color = *p >= 'a' ? BLACK : WHITE;
        int sq = rank * 16 + file++;
        b->sq[sq] = (int8_t)PIECE(color, type);
        if (type == KING) b->king[color] = sq;
    }
    b->side = (*p == ' ' && p[1] == 'b') ? BLACK : WHITE;
    compute_hash(b);
    return 0;
}

static void move_str(Move m, char *out) {
    sprintf(out, "%c%d%c%d%s", 'a' + (m.from & 7), 1 + (m.from >> 4), 'a' + (m.to & 7), 1 + (m.to >> 4), m.promo ? "q" : "");
}

/* ---------------- attacks and move generation ---------------- */
static int attacked(const Board *b, int sq, int by) {
    int pawn = PIECE(by, PAWN), dir = by == WHITE ? -16 : 16;
    int s1 = sq + dir - 1, s2 = sq + dir + 1;
    if (ONBOARD(s1) && b->sq[s1] == pawn) return 1;
    if (ONBOARD(s2) && b->sq[s2] == pawn) return 1;
    for (int k = 0; k < 8; k++) {
        int s = sq + knight_d[k];
        if (ONBOARD(s) && b->sq[s] == PIECE(by, KNIGHT)) return 1;
        s = sq + king_d[k];
        if (ONBOARD(s) && b->sq[s] == PIECE(by, KING)) return 1;
    }
    for (int k = 0; k < 4; k++) {
        for (int s = sq + bishop_d[k]; ONBOARD(s); s += bishop_d[k]) {
            int p = b->sq[s];
            if (!p) continue;
            if (p == PIECE(by, BISHOP) || p == PIECE(by, QUEEN)) return 1;
            break;
        }
        for (int s = sq + rook_d[k]; ONBOARD(s); s += rook_d[k]) {
            int p = b->sq[s];
            if (!p) continue;
            if (p == PIECE(by, ROOK) || p == PIECE(by, QUEEN)) return 1;
            break;
        }
    }
    return 0;
}

typedef struct { Move m[256]; int n; } MoveList;
typedef void (*GenFn)(const Board *b, int from, MoveList *ml, int captures_only);

static void add(const Board *b, MoveList *ml, int from, int to, int promo) {
    Move *m = &ml->m[ml->n++];
    m->from = (uint8_t)from; m->to = (uint8_t)to; m->captured = b->sq[to]; m->promo = (int8_t)promo;
    m->score = m->captured ? 10 * value[TYPE(m->captured)] - value[TYPE(b->sq[from])] + 10000 : 0;
    if (promo) m->score += 9000;
}

static void gen_pawn(const Board *b, int from, MoveList *ml, int caps) {
    int c = b->side, dir = c == WHITE ? 16 : -16, start = c == WHITE ? 1 : 6, last = c == WHITE ? 7 : 0;
    int to = from + dir;
    if (ONBOARD(to) && !b->sq[to]) {
        if ((to >> 4) == last) add(b, ml, from, to, 1);
        else if (!caps) {
            add(b, ml, from, to, 0);
            if ((from >> 4) == start && !b->sq[to + dir]) add(b, ml, from, to + dir, 0);
        }
    }
    for (int side = -1; side <= 1; side += 2) {
        int t = from + dir + side;
        if (ONBOARD(t) && b->sq[t] && COLOR(b->sq[t]) != c) add(b, ml, from, t, (t >> 4) == last);
    }
}
static void gen_leaper(const Board *b, int from, MoveList *ml, int caps, const int *d) {
    for (int k = 0; k < 8; k++) {
        int to = from + d[k];
        if (!ONBOARD(to)) continue;
        int p = b->sq[to];
        if (p ? COLOR(p) != b->side : !caps) add(b, ml, from, to, 0);
    }
}
static void gen_slider(const Board *b, int from, MoveList *ml, int caps, const int *d, int nd) {
    for (int k = 0; k < nd; k++)
        for (int to = from + d[k]; ONBOARD(to); to += d[k]) {
            int p = b->sq[to];
            if (!p) { if (!caps) add(b, ml, from, to, 0); continue; }
            if (COLOR(p) != b->side) add(b, ml, from, to, 0);
            break;
        }
}
static void gen_knight(const Board *b, int from, MoveList *ml, int caps) { gen_leaper(b, from, ml, caps, knight_d); }
static void gen_king(const Board *b, int from, MoveList *ml, int caps) { gen_leaper(b, from, ml, caps, king_d); }
static void gen_bishop(const Board *b, int from, MoveList *ml, int caps) { gen_slider(b, from, ml, caps, bishop_d, 4); }
static void gen_rook(const Board *b, int from, MoveList *ml, int caps) { gen_slider(b, from, ml, caps, rook_d, 4); }
static void gen_queen(const Board *b, int from, MoveList *ml, int caps) {
    gen_slider(b, from, ml, caps, bishop_d, 4);
    gen_slider(b, from, ml, caps, rook_d, 4);
}
static const GenFn generators[7] = { NULL, gen_pawn, gen_knight, gen_bishop, gen_rook, gen_queen, gen_king };

static void generate(const Board *b, MoveList *ml, int caps) {
    ml->n = 0;
    for (int sq = 0; sq < 128; sq++) {
        if (!ONBOARD(sq)) { sq += 7; continue; }
        int p = b->sq[sq];
        if (p && COLOR(p) == b->side) generators[TYPE(p)](b, sq, ml, caps);
    }
}

static void make(Board *b, Move m) {
    int p = b->sq[m.from];
    b->hash ^= zobrist[zidx(p)][m.from];
    if (m.captured) b->hash ^= zobrist[zidx(m.captured)][m.to];
    if (m.promo) p = PIECE(b->side, QUEEN);
    b->sq[m.to] = (int8_t)p; b->sq[m.from] = EMPTY;
    b->hash ^= zobrist[zidx(p)][m.to] ^ zobrist_side;
    if (TYPE(p) == KING) b->king[b->side] = m.to;
    b->side ^= 1;
}
static void unmake(Board *b, Move m) {
    b->side ^= 1;
    int p = b->sq[m.to];
    b->hash ^= zobrist[zidx(p)][m.to] ^ zobrist_side;
    if (m.promo) p = PIECE(b->side, PAWN);
    b->sq[m.from] = (int8_t)p; b->sq[m.to] = m.captured;
    b->hash ^= zobrist[zidx(p)][m.from];
    if (m.captured) b->hash ^= zobrist[zidx(m.captured)][m.to];
    if (TYPE(p) == KING) b->king[b->side] = m.from;
}
static int in_check(const Board *b, int side) { return attacked(b, b->king[side], side ^ 1); }

STAGE static uint64_t perft(Board *b, int depth) {
    if (depth == 0) return 1;
    MoveList ml; generate(b, &ml, 0);
    uint64_t total = 0;
    for (int i = 0; i < ml.n; i++) {
        make(b, ml.m[i]);
        if (!in_check(b, b->side ^ 1)) total += perft(b, depth - 1);
        unmake(b, ml.m[i]);
    }
    return total;
}

/* ---------------- evaluation and search ---------------- */
static int evaluate(const Board *b) {
    int score = 0;
    for (int sq = 0; sq < 128; sq++) {
        if (!ONBOARD(sq)) { sq += 7; continue; }
        int p = b->sq[sq];
        if (!p) continue;
        int t = TYPE(p);
        if (p > 0) score += value[t] + pst[t][sq];
        else score -= value[t] + pst[t][sq ^ 0x70];        /* mirror rank for black */
    }
    return b->side == WHITE ? score : -score;
}

typedef struct { uint64_t key; int16_t depth; int8_t flag; Move best; int score; } TTEntry;
enum { TT_EXACT, TT_LOWER, TT_UPPER };
#define TT_BITS 16
static TTEntry *tt;
static Move killers[64][2];

static void pick(MoveList *ml, int i) {             /* selection sort step: best remaining first */
    int best = i;
    for (int j = i + 1; j < ml->n; j++) if (ml->m[j].score > ml->m[best].score) best = j;
    Move t = ml->m[i]; ml->m[i] = ml->m[best]; ml->m[best] = t;
}

static int quiesce(Board *b, int alpha, int beta) {
    qnodes++;
    int stand = evaluate(b);
    if (stand >= beta) return stand;
    if (stand > alpha) alpha = stand;
    MoveList ml; generate(b, &ml, 1);
    for (int i = 0; i < ml.n; i++) {
        pick(&ml, i);
        make(b, ml.m[i]);
        if (!in_check(b, b->side ^ 1)) {
            int s = -quiesce(b, -beta, -alpha);
            if (s > alpha) alpha = s;
        }
        unmake(b, ml.m[i]);
        if (alpha >= beta) break;
    }
    return alpha;
}

static int same(Move a, Move b) { return a.from == b.from && a.to == b.to; }

static int search(Board *b, int depth, int alpha, int beta, int ply, Move *best_out) {
    if (depth <= 0) return quiesce(b, alpha, beta);
    nodes++;
    TTEntry *e = &tt[b->hash & ((1 << TT_BITS) - 1)];
    Move hash_move = {0};
    if (e->key == b->hash) {
        hash_move = e->best;
        if (e->depth >= depth && ply > 0) {
            tt_hits++;
            if (e->flag == TT_EXACT || (e->flag == TT_LOWER && e->score >= beta) || (e->flag == TT_UPPER && e->score <= alpha))
                return e->score;
        }
    }
    MoveList ml; generate(b, &ml, 0);
    for (int i = 0; i < ml.n; i++) {
        Move *m = &ml.m[i];
        if (same(*m, hash_move)) m->score = 1 << 20;
        else if (!m->captured && ply < 64 && (same(*m, killers[ply][0]) || same(*m, killers[ply][1]))) m->score = 5000;
    }
    int legal = 0, orig_alpha = alpha, best_score = -INF;
    Move best = {0};
    for (int i = 0; i < ml.n; i++) {
        pick(&ml, i);
        Move m = ml.m[i];
        make(b, m);
        if (in_check(b, b->side ^ 1)) { unmake(b, m); continue; }
        legal++;
        int s = -search(b, depth - 1, -beta, -alpha, ply + 1, NULL);
        unmake(b, m);
        if (s > best_score) { best_score = s; best = m; }
        if (s > alpha) alpha = s;
        if (alpha >= beta) {
            if (!m.captured && ply < 64) { killers[ply][1] = killers[ply][0]; killers[ply][0] = m; }
            break;
        }
    }
    if (!legal) return in_check(b, b->side) ? -MATE + ply : 0;
    e->key = b->hash; e->depth = (int16_t)depth; e->best = best; e->score = best_score;
    e->flag = best_score <= orig_alpha ? TT_UPPER : best_score >= beta ? TT_LOWER : TT_EXACT;
    if (best_out) *best_out = best;
    return best_score;
}

STAGE static int think(Board *b, int max_depth, Move *best) {
    int score = 0;
    memset(killers, 0, sizeof killers);
    for (int d = 1; d <= max_depth; d++) score = search(b, d, -INF, INF, 0, best);   /* iterative deepening */
    return score;
}

int main(int argc, char **argv) {
    int scale = scale_arg(argc, argv, 2, 4);   /* work grows ~5-8x per step */
    static const struct { const char *name, *fen; } positions[] = {
        { "opening", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w" },
        { "italian", "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w" },
        { "middlegame", "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2Q1RK1 b" },
        { "tactics", "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w" },
        { "endgame", "8/5pk1/6p1/3R4/2r5/6P1/5PK1/8 w" },
        { "pawns", "8/pp3k2/2p5/3p4/3P4/2P5/PP3K2/8 b" },
    };
    int npos = (int)(sizeof positions / sizeof positions[0]);
    init_tables();
    tt = xcalloc((size_t)1 << TT_BITS, sizeof(TTEntry));
    Sum sum; sum_init(&sum);
    printf("chess: scale %d, search depth %d, %d positions\n", scale, scale + 2, npos);
    for (int i = 0; i < npos; i++) {
        Board b;
        if (parse_fen(&b, positions[i].fen)) { fprintf(stderr, "chess: bad FEN\n"); return 1; }
        int pdepth = scale + (i < 4 ? 1 : 2);
        uint64_t pn = perft(&b, pdepth);
        memset(tt, 0, sizeof(TTEntry) << TT_BITS);
        nodes = qnodes = tt_hits = 0;
        Move best = {0};
        int score = think(&b, scale + 2, &best);
        char ms[8]; move_str(best, ms);
        printf("  %-10s perft(%d) %9llu  best %-5s score %6d  nodes %8ld  qnodes %8ld  tt hits %6ld\n", positions[i].name, pdepth,
               (unsigned long long)pn, ms, score, nodes, qnodes, tt_hits);
        sum_u64(&sum, pn); sum_u64(&sum, (uint64_t)score); sum_u64(&sum, (uint64_t)nodes); sum_u64(&sum, (uint64_t)qnodes);
        sum_bytes(&sum, ms, strlen(ms));
    }
    free(tt);
    printf("checksum %016llx\n", (unsigned long long)sum.h);
    return 0;
}

/* mcf: minimum-cost flow on generated transport networks (models SPECint
 * 181/429.mcf, a vehicle-scheduling network-flow solver).
 *
 * Each instance (several sizes and densities) runs these stages:
 *   1. generation: random depots on a plane, arcs to nearby depots with
 *      Euclidean costs (integer square root) and random capacities, supply and
 *      demand nodes joined to a super source and sink; CSR adjacency build;
 *   2. solve: successive shortest paths, Dijkstra with node potentials on a
 *      binary heap, bottleneck augmentation;
 *   3. check: flow conservation and capacity, then optimality by searching
 *      for a negative cycle in the residual network (queue-based Bellman-Ford).
 * argv[1] = scale (default 2): network sizes and the number of supply/demand
 * pairs grow linearly with it, so the work grows roughly quadratically.
 */
#include "common.h"

typedef struct { int to, rev, cap, cost, orig; } Arc;   /* orig = 0 on reverse arcs */
typedef struct {
    int n, m;               /* nodes, arcs (including reverse arcs) */
    int *first;             /* CSR: arcs of u are first[u] .. first[u+1]-1 */
    Arc *arcs;
    int src, snk;
} Graph;

typedef struct { int from, to, cap, cost; } Edge;

static unsigned isqrt(unsigned long v) {
    if (v == 0) return 0;
    unsigned long x = v, y = (x + 1) / 2;
    while (y < x) { x = y; y = (x + v / x) / 2; }
    return (unsigned)x;
}

static int cmp_edge_from(const void *a, const void *b) {
    const Edge *x = a, *y = b;
    if (x->from != y->from) return x->from - y->from;
    return x->to - y->to;
}

STAGE static Graph build_graph(int depots, int degree, int terminals, Rng *r, long *total_supply) {
    int n = depots + 2;
    int *xs = xmalloc(sizeof(int) * depots), *ys = xmalloc(sizeof(int) * depots);
    for (int i = 0; i < depots; i++) { xs[i] = (int)rng_below(r, 10000); ys[i] = (int)rng_below(r, 10000); }
    int cap_e = depots * degree + 2 * terminals;
    Edge *e = xmalloc(sizeof(Edge) * cap_e);
    int ne = 0;
    for (int u = 0; u < depots; u++) {
        /* sample candidates, keep the nearest `degree` of them */
        int best[16], bestd[16], nb = 0;
        for (int c = 0; c < 3 * degree; c++) {
            int v = (int)rng_below(r, (uint32_t)depots);
            if (v == u) continue;
            long dx = xs[u] - xs[v], dy = ys[u] - ys[v];
            int d = (int)isqrt((unsigned long)(dx * dx + dy * dy));
            int pos = nb < degree ? nb++ : degree;
            if (pos == degree && d >= bestd[degree - 1]) continue;
            if (pos == degree) pos = degree - 1;
            while (pos > 0 && bestd[pos - 1] > d) { best[pos] = best[pos - 1]; bestd[pos] = bestd[pos - 1]; pos--; }
            best[pos] = v; bestd[pos] = d;
        }
        for (int k = 0; k < nb; k++)
            e[ne++] = (Edge){ u, best[k], 5 + (int)rng_below(r, 40), 1 + bestd[k] / 10 };
    }
    int src = depots, snk = depots + 1;
    *total_supply = 0;
    for (int t = 0; t < terminals; t++) {
        int s = (int)rng_below(r, (uint32_t)depots), d = (int)rng_below(r, (uint32_t)depots);
        int amount = 10 + (int)rng_below(r, 60);
        e[ne++] = (Edge){ src, s, amount, 0 };
        e[ne++] = (Edge){ d, snk, amount, 0 };
        *total_supply += amount;
    }
    qsort(e, (size_t)ne, sizeof(Edge), cmp_edge_from);
    Graph g = { n, 2 * ne, xcalloc((size_t)n + 1, sizeof(int)), xmalloc(sizeof(Arc) * 2 * ne), src, snk };
    for (int i = 0; i < ne; i++) { g.first[e[i].from + 1]++; g.first[e[i].to + 1]++; }
    for (int u = 0; u < n; u++) g.first[u + 1] += g.first[u];
    int *fill = xmalloc(sizeof(int) * n);
    memcpy(fill, g.first, sizeof(int) * n);
    for (int i = 0; i < ne; i++) {
        int a = fill[e[i].from]++, b = fill[e[i].to]++;
        g.arcs[a] = (Arc){ e[i].to, b, e[i].cap, e[i].cost, e[i].cap };
        g.arcs[b] = (Arc){ e[i].from, a, 0, -e[i].cost, 0 };
    }
    free(fill); free(e); free(xs); free(ys);
    return g;
}

/* ---------------- binary heap keyed by distance ---------------- */
typedef struct { long key; int node; } HeapEnt;
typedef struct { HeapEnt *h; int n; } Heap;

static void heap_push(Heap *hp, long key, int node) {
    int i = hp->n++;
    while (i > 0) {
        int p = (i - 1) >> 1;
        if (hp->h[p].key <= key) break;
        hp->h[i] = hp->h[p]; i = p;
    }
    hp->h[i] = (HeapEnt){ key, node };
}
static HeapEnt heap_pop(Heap *hp) {
    HeapEnt top = hp->h[0], last = hp->h[--hp->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= hp->n) break;
        if (c + 1 < hp->n && hp->h[c + 1].key < hp->h[c].key) c++;
        if (last.key <= hp->h[c].key) break;
        hp->h[i] = hp->h[c]; i = c;
    }
    hp->h[i] = last;
    return top;
}

typedef struct { long flow, cost; int augmentations; long pops; } Result;

#define INF (1L << 60)

STAGE static int dijkstra(const Graph *g, const long *pot, long *dist, int *parc, Heap *hp, long *pops) {
    for (int i = 0; i < g->n; i++) dist[i] = INF;
    dist[g->src] = 0; parc[g->src] = -1;
    hp->n = 0;
    heap_push(hp, 0, g->src);
    while (hp->n) {
        HeapEnt e = heap_pop(hp);
        int u = e.node;
        if (e.key > dist[u]) continue;
        (*pops)++;
        for (int a = g->first[u]; a < g->first[u + 1]; a++) {
            const Arc *arc = &g->arcs[a];
            if (arc->cap <= 0) continue;
            long nd = dist[u] + arc->cost + pot[u] - pot[arc->to];
            if (nd < dist[arc->to]) { dist[arc->to] = nd; parc[arc->to] = a; heap_push(hp, nd, arc->to); }
        }
    }
    return dist[g->snk] < INF;
}

static int arc_tail(const Graph *g, int a) { return g->arcs[g->arcs[a].rev].to; }

STAGE static Result min_cost_flow(Graph *g) {
    Result res = { 0, 0, 0, 0 };
    long *pot = xcalloc((size_t)g->n, sizeof(long)), *dist = xmalloc(sizeof(long) * g->n);
    int *parc = xmalloc(sizeof(int) * g->n);
    Heap hp = { xmalloc(sizeof(HeapEnt) * (size_t)(g->m + g->n)), 0 };
    while (dijkstra(g, pot, dist, parc, &hp, &res.pops)) {
        for (int i = 0; i < g->n; i++) if (dist[i] < INF) pot[i] += dist[i];
        int push = 1 << 30;
        for (int v = g->snk; v != g->src; v = arc_tail(g, parc[v]))
            if (g->arcs[parc[v]].cap < push) push = g->arcs[parc[v]].cap;
        for (int v = g->snk; v != g->src; v = arc_tail(g, parc[v])) {
            Arc *a = &g->arcs[parc[v]];
            a->cap -= push;
            g->arcs[a->rev].cap += push;
            res.cost += (long)push * a->cost;
        }
        res.flow += push;
        res.augmentations++;
    }
    free(pot); free(dist); free(parc); free(hp.h);
    return res;
}

/* capacity and conservation at every node except source and sink; 0 = ok */
STAGE static int check_conservation(const Graph *g, long flow) {
    long *net = xcalloc((size_t)g->n, sizeof(long));
    int bad = 0;
    for (int u = 0; u < g->n && !bad; u++)
        for (int a = g->first[u]; a < g->first[u + 1]; a++) {
            const Arc *arc = &g->arcs[a];
            if (arc->orig == 0) continue;
            int f = arc->orig - arc->cap;
            if (f < 0 || f > arc->orig || g->arcs[arc->rev].cap != f) { bad = 1; break; }
            net[u] -= f; net[arc->to] += f;
        }
    for (int u = 0; u < g->n && !bad; u++)
        if (net[u] != (u == g->src ? -flow : u == g->snk ? flow : 0)) bad = 1;
    free(net);
    return bad;
}

/* optimal iff the residual network has no negative-cost cycle */
STAGE static int has_negative_cycle(const Graph *g, long *relax) {
    long *d = xcalloc((size_t)g->n, sizeof(long));
    int *len = xcalloc((size_t)g->n, sizeof(int)), *queue = xmalloc(sizeof(int) * (g->n + 1));
    char *inq = xmalloc((size_t)g->n);
    int head = 0, tail = 0, found = 0;
    for (int i = 0; i < g->n; i++) { queue[tail++] = i; inq[i] = 1; }
    while (head != tail && !found) {
        int u = queue[head]; head = head == g->n ? 0 : head + 1;
        inq[u] = 0;
        for (int a = g->first[u]; a < g->first[u + 1]; a++) {
            const Arc *arc = &g->arcs[a];
            if (arc->cap <= 0) continue;
            (*relax)++;
            if (d[u] + arc->cost < d[arc->to]) {
                d[arc->to] = d[u] + arc->cost;
                len[arc->to] = len[u] + 1;
                if (len[arc->to] >= g->n) { found = 1; break; }
                if (!inq[arc->to]) { inq[arc->to] = 1; queue[tail] = arc->to; tail = tail == g->n ? 0 : tail + 1; }
            }
        }
    }
    free(d); free(len); free(queue); free(inq);
    return found;
}

int main(int argc, char **argv) {
    int scale = scale_arg(argc, argv, 2, 1000);
    static const struct { int depots, degree, terminals; } inst[] = {
        { 1200, 6, 40 }, { 800, 10, 30 }, { 1600, 4, 60 }, { 1000, 8, 50 }, { 600, 12, 25 } };
    int ninst = (int)(sizeof inst / sizeof inst[0]);
    Rng rng; rng_seed(&rng, 0x3CF);
    Sum sum; sum_init(&sum);
    printf("mcf: scale %d, %d networks\n", scale, ninst);
    for (int i = 0; i < ninst; i++) {
        long supply;
        Graph g = build_graph(inst[i].depots * scale / 4, inst[i].degree, inst[i].terminals * scale / 4, &rng, &supply);
        Result r = min_cost_flow(&g);
        long relax = 0;
        int bad = check_conservation(&g, r.flow);
        int negcyc = has_negative_cycle(&g, &relax);
        printf("  net %d: %5d nodes %6d arcs  supply %6ld  flow %6ld  cost %9ld  %4d augmentations  %8ld pops  %s\n",
               i, g.n, g.m, supply, r.flow, r.cost, r.augmentations, r.pops,
               bad ? "CONSERVATION FAILED" : negcyc ? "NOT OPTIMAL" : "optimal");
        if (bad || negcyc) return 1;
        sum_u64(&sum, (uint64_t)r.flow); sum_u64(&sum, (uint64_t)r.cost); sum_u64(&sum, (uint64_t)r.augmentations);
        free(g.first); free(g.arcs);
    }
    printf("checksum %016llx\n", (unsigned long long)sum.h);
    return 0;
}

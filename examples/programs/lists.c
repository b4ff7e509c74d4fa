/* lists: pointer-chasing code over many small heap allocations (models SPECint mcf's and
 * gcc's/perlbmk's linked structures, which acf bench's long set needs: issue 29).
 *
 * Three stages, each its own function, every node malloc'd and freed on its own:
 *   sort_lists  singly linked lists of random keys, merge-sorted by relinking, checked, freed;
 *   word_table  a chained hash table of words (each word a malloc'd copy) counted over a
 *               generated text, then half the words deleted and the text counted again;
 *   tree_churn  an unbalanced binary search tree: random inserts and deletes (one malloc or
 *               free each), lookups and in-order walks.
 * argv[1] = scale (default 4): list lengths, text size and tree operations grow with it.
 */
#include "common.h"
#include <string.h>

/* ---------------- linked lists ---------------- */
typedef struct LNode { struct LNode *next; uint64_t key; } LNode;

static LNode *merge(LNode *a, LNode *b) {
    LNode head, *t = &head;
    while (a && b) {
        if (a->key <= b->key) { t->next = a; a = a->next; } else { t->next = b; b = b->next; }
        t = t->next;
    }
    t->next = a ? a : b;
    return head.next;
}

static LNode *merge_sort(LNode *l) {
    if (!l || !l->next) return l;
    LNode *slow = l, *fast = l->next;
    while (fast && fast->next) { slow = slow->next; fast = fast->next->next; }
    LNode *second = slow->next;
    slow->next = NULL;
    return merge(merge_sort(l), merge_sort(second));
}

STAGE static void sort_lists(int scale, Sum *sum) {
    Rng r; rng_seed(&r, 0x11575);
    for (int round = 0; round < 6; round++) {
        int n = 6000 * scale + round * 1000;
        LNode *l = NULL;
        for (int i = 0; i < n; i++) {
            LNode *x = xmalloc(sizeof(LNode));
            x->key = rng_next(&r) % 1000003;
            x->next = l;
            l = x;
        }
        l = merge_sort(l);
        uint64_t prev = 0, acc = 0;
        long count = 0;
        for (LNode *p = l; p; p = p->next) {
            if (p->key < prev) { printf("sort_lists: out of order\n"); exit(1); }
            prev = p->key; acc = acc * 31 + p->key; count++;
        }
        if (count != n) { printf("sort_lists: lost nodes\n"); exit(1); }
        while (l) { LNode *next = l->next; free(l); l = next; }
        printf("sort_lists %d: %ld nodes, hash %016llx\n", round, count, (unsigned long long)acc);
        sum_u64(sum, acc);
    }
}

/* ---------------- hash table of words ---------------- */
typedef struct Entry { struct Entry *next; char *word; uint32_t hash; long count; } Entry;
typedef struct { Entry **b; uint32_t mask; long n; } Table;

static uint32_t hash_word(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static Entry **find(Table *t, const char *w, size_t n, uint32_t h) {
    Entry **p = &t->b[h & t->mask];
    while (*p && !((*p)->hash == h && strncmp((*p)->word, w, n) == 0 && (*p)->word[n] == 0))
        p = &(*p)->next;
    return p;
}

static void count_text(Table *t, const char *text, size_t len) {
    size_t i = 0;
    while (i < len) {
        while (i < len && text[i] == ' ') i++;
        size_t s = i;
        while (i < len && text[i] != ' ') i++;
        if (i == s) break;
        uint32_t h = hash_word(text + s, i - s);
        Entry **p = find(t, text + s, i - s, h);
        if (*p) { (*p)->count++; continue; }
        Entry *e = xmalloc(sizeof(Entry));
        e->word = xmalloc(i - s + 1);
        memcpy(e->word, text + s, i - s);
        e->word[i - s] = 0;
        e->hash = h; e->count = 1; e->next = NULL;
        *p = e;
        t->n++;
    }
}

STAGE static void word_table(int scale, Sum *sum) {
    Rng r; rng_seed(&r, 0x3057);
    size_t len = (size_t)256 * 1024 * scale;
    char *text = xmalloc(len);
    static const char syll[][4] = { "ka", "lo", "mi", "ren", "tu", "sa", "vo", "qui", "de", "xa", "ni", "po" };
    size_t i = 0;
    while (i < len) {
        int k = 1 + (int)rng_below(&r, (rng_below(&r, 8) == 0) ? 6 : 3);
        for (int s = 0; s < k && i < len; s++)
            for (const char *c = syll[rng_below(&r, 12)]; *c && i < len; c++) text[i++] = *c;
        if (i < len) text[i++] = ' ';
    }
    Table t = { xcalloc(1u << 12, sizeof(Entry *)), (1u << 12) - 1, 0 };
    count_text(&t, text, len);
    long words = t.n;
    /* Delete every entry seen an odd number of times, then count the text again. */
    long deleted = 0;
    for (uint32_t b = 0; b <= t.mask; b++) {
        Entry **p = &t.b[b];
        while (*p) {
            Entry *e = *p;
            if (e->count & 1) { *p = e->next; free(e->word); free(e); deleted++; }
            else { e->count = 0; p = &e->next; }
        }
    }
    count_text(&t, text, len);
    uint64_t acc = 0;
    long total = 0;
    for (uint32_t b = 0; b <= t.mask; b++)
        for (Entry *e = t.b[b], *next; e; e = next) {
            next = e->next;
            acc += (uint64_t)e->count * e->hash;
            total += e->count;
            free(e->word); free(e);
        }
    free(t.b); free(text);
    printf("word_table: %zu bytes, %ld words, %ld deleted, %ld counted, hash %016llx\n", len, words,
           deleted, total, (unsigned long long)acc);
    sum_u64(sum, acc);
}

/* ---------------- binary search tree ---------------- */
typedef struct TNode { struct TNode *l, *r; uint32_t key; uint32_t hits; } TNode;

static TNode *insert(TNode *t, uint32_t key) {
    TNode **p = &t;
    while (*p) {
        if (key == (*p)->key) { (*p)->hits++; return t; }
        p = key < (*p)->key ? &(*p)->l : &(*p)->r;
    }
    TNode *n = xmalloc(sizeof(TNode));
    n->l = n->r = NULL; n->key = key; n->hits = 1;
    *p = n;
    return t;
}

static TNode *delete(TNode *t, uint32_t key) {
    TNode **p = &t;
    while (*p && (*p)->key != key) p = key < (*p)->key ? &(*p)->l : &(*p)->r;
    if (!*p) return t;
    TNode *n = *p;
    if (!n->l) *p = n->r;
    else if (!n->r) *p = n->l;
    else {
        TNode **m = &n->r;               /* the successor takes n's place */
        while ((*m)->l) m = &(*m)->l;
        TNode *s = *m;
        *m = s->r;
        s->l = n->l; s->r = n->r;
        *p = s;
    }
    free(n);
    return t;
}

static uint64_t walk(const TNode *t, uint64_t acc, long *count) {
    while (t) {
        acc = walk(t->l, acc, count);
        acc = acc * 1099511628211ULL + t->key * 7 + t->hits;
        (*count)++;
        t = t->r;
    }
    return acc;
}

static void free_tree(TNode *t) {
    while (t) { free_tree(t->l); TNode *r = t->r; free(t); t = r; }
}

STAGE static void tree_churn(int scale, Sum *sum) {
    Rng r; rng_seed(&r, 0x72EE);
    TNode *t = NULL;
    long ops = 40000L * scale, found = 0;
    for (long i = 0; i < ops; i++) {
        uint32_t key = rng_below(&r, 20000 * (uint32_t)scale);
        switch (rng_below(&r, 4)) {
        case 0: case 1: t = insert(t, key); break;
        case 2: t = delete(t, key); break;
        default: {
            const TNode *p = t;
            while (p && p->key != key) p = key < p->key ? p->l : p->r;
            found += p != NULL;
        }
        }
        if ((i & 8191) == 8191) {
            long count = 0;
            uint64_t acc = walk(t, 0, &count);
            sum_u64(sum, acc ^ (uint64_t)count);
        }
    }
    long count = 0;
    uint64_t acc = walk(t, 0, &count);
    free_tree(t);
    printf("tree_churn: %ld operations, %ld found, %ld nodes left, hash %016llx\n", ops, found, count,
           (unsigned long long)acc);
    sum_u64(sum, acc);
}

int main(int argc, char **argv) {
    int scale = scale_arg(argc, argv, 4, 1000);
    printf("lists: scale %d\n", scale);
    Sum sum; sum_init(&sum);
    sort_lists(scale, &sum);
    word_table(scale, &sum);
    tree_churn(scale, &sum);
    printf("checksum %016llx\n", (unsigned long long)sum.h);
    return 0;
}

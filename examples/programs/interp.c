/* interp: a small language implementation (models SPECint perlbmk/gcc-style
 * front ends and interpreters, and the parsing work of 197.parser).
 *
 * Several generated programs (recursive Fibonacci, prime sieve, insertion
 * sort, N-queens, Collatz) go through:
 *   1. lexing and recursive-descent parsing into an AST (malloc'd nodes,
 *      keyword lookup with strcmp, a symbol table for locals and globals);
 *   2. execution by an AST walker that dispatches through a table of
 *      function pointers, one per node kind;
 *   3. compilation of the AST to stack bytecode;
 *   4. execution by a bytecode VM with a switch-dispatched loop;
 * and the two engines' outputs must agree.
 * argv[1] = scale (default 4): the programs' problem sizes grow with it;
 * argv[2] (optional) selects programs by name, e.g. "fib,sort".
 */
#include "common.h"
#include <ctype.h>

/* ---------------- lexer ---------------- */
enum { T_EOF, T_NUM, T_ID, T_FUNC, T_VAR, T_IF, T_ELSE, T_WHILE, T_RETURN, T_PRINT,
       T_LP, T_RP, T_LB, T_RB, T_LS, T_RS, T_COMMA, T_SEMI, T_ASSIGN,
       T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PCT, T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE, T_AND, T_OR, T_NOT };

typedef struct { int kind; long num; char name[32]; int line; } Token;
typedef struct { const char *src; size_t pos; int line; Token tok; } Lexer;

static const struct { const char *word; int kind; } keywords[] = {
    { "func", T_FUNC }, { "var", T_VAR }, { "if", T_IF }, { "else", T_ELSE },
    { "while", T_WHILE }, { "return", T_RETURN }, { "print", T_PRINT } };

static void fail(const char *msg, int line) { fprintf(stderr, "interp: %s (line %d)\n", msg, line); exit(1); }

static void next(Lexer *lx) {
    const char *s = lx->src;
    for (;;) {
        while (isspace((unsigned char)s[lx->pos])) { if (s[lx->pos] == '\n') lx->line++; lx->pos++; }
        if (s[lx->pos] == '#') { while (s[lx->pos] && s[lx->pos] != '\n') lx->pos++; continue; }
        break;
    }
    Token *t = &lx->tok;
    t->line = lx->line;
    char c = s[lx->pos];
    if (!c) { t->kind = T_EOF; return; }
    if (isdigit((unsigned char)c)) {
        char *end;
        t->num = strtol(s + lx->pos, &end, 10);
        lx->pos = (size_t)(end - s);
        t->kind = T_NUM;
        return;
    }
    if (isalpha((unsigned char)c) || c == '_') {
        size_t n = 0;
        while (isalnum((unsigned char)s[lx->pos]) || s[lx->pos] == '_') {
            if (n < sizeof t->name - 1) t->name[n++] = s[lx->pos];
            lx->pos++;
        }
        t->name[n] = 0;
        t->kind = T_ID;
        for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
            if (!strcmp(t->name, keywords[k].word)) { t->kind = keywords[k].kind; break; }
        return;
    }
    lx->pos++;
    char d = s[lx->pos];
    switch (c) {
    case '(': t->kind = T_LP; break;
    case ')': t->kind = T_RP; break;
    case '{': t->kind = T_LB; break;
    case '}': t->kind = T_RB; break;
    case '[': t->kind = T_LS; break;
    case ']': t->kind = T_RS; break;
    case ',': t->kind = T_COMMA; break;
    case ';': t->kind = T_SEMI; break;
    case '+': t->kind = T_PLUS; break;
    case '-': t->kind = T_MINUS; break;
    case '*': t->kind = T_STAR; break;
    case '/': t->kind = T_SLASH; break;
    case '%': t->kind = T_PCT; break;
    case '<': if (d == '=') { lx->pos++; t->kind = T_LE; } else t->kind = T_LT; break;
    case '>': if (d == '=') { lx->pos++; t->kind = T_GE; } else t->kind = T_GT; break;
    case '=': if (d == '=') { lx->pos++; t->kind = T_EQ; } else t->kind = T_ASSIGN; break;
    case '!': if (d == '=') { lx->pos++; t->kind = T_NE; } else t->kind = T_NOT; break;
    case '&': if (d == '&') { lx->pos++; t->kind = T_AND; break; } /* fall through */
    case '|': if (d == '|') { lx->pos++; t->kind = T_OR; break; } /* fall through */
    default: fail("unexpected character", lx->line);
    }
}

/* ---------------- AST ---------------- */
enum { N_NUM, N_LOCAL, N_GLOBAL, N_INDEX, N_CALL, N_BUILTIN, N_BIN, N_NEG, N_NOT, N_AND, N_OR,
       N_SET_LOCAL, N_SET_GLOBAL, N_SET_INDEX, N_IF, N_WHILE, N_BLOCK, N_RETURN, N_PRINT, N_EXPR, N_KINDS };
enum { B_ARRAY, B_LEN };

typedef struct Node {
    int kind, op, slot;           /* op: binary operator token; slot: variable / function / builtin */
    long num;
    struct Node *a, *b, *c;       /* children */
    struct Node **list;           /* block statements or call arguments */
    int nlist;
} Node;

#define MAXF 16
#define MAXVARS 64
typedef struct { char name[32]; int nparams, nlocals; Node *body; int code_at; } Func;
typedef struct {
    Lexer lx;
    Func funcs[MAXF]; int nfuncs;
    char globals[MAXVARS][32]; int nglobals;
    char locals[MAXVARS][32]; int nlocals; int in_func;
    long nodes;
} Parser;

static Node *mk(Parser *p, int kind) { Node *n = xcalloc(1, sizeof(Node)); n->kind = kind; p->nodes++; return n; }
static void expect(Parser *p, int kind, const char *what) { if (p->lx.tok.kind != kind) fail(what, p->lx.tok.line); next(&p->lx); }

static int find_name(char tab[][32], int n, const char *name) { for (int i = 0; i < n; i++) if (!strcmp(tab[i], name)) return i; return -1; }
static int find_func(Parser *p, const char *name) { for (int i = 0; i < p->nfuncs; i++) if (!strcmp(p->funcs[i].name, name)) return i; return -1; }

static Node *expr(Parser *p);

static void push_list(Node *n, Node *item) {
    n->list = realloc(n->list, sizeof(Node *) * (size_t)(n->nlist + 1));
    n->list[n->nlist++] = item;
}

static Node *var_ref(Parser *p, const char *name) {
    int s;
    Node *n;
    if (p->in_func && (s = find_name(p->locals, p->nlocals, name)) >= 0) { n = mk(p, N_LOCAL); n->slot = s; return n; }
    if ((s = find_name(p->globals, p->nglobals, name)) >= 0) { n = mk(p, N_GLOBAL); n->slot = s; return n; }
    fail("undefined variable", p->lx.tok.line);
    return NULL;
}

static Node *primary(Parser *p) {
    Token t = p->lx.tok;
    if (t.kind == T_NUM) { next(&p->lx); Node *n = mk(p, N_NUM); n->num = t.num; return n; }
    if (t.kind == T_LP) { next(&p->lx); Node *n = expr(p); expect(p, T_RP, "expected )"); return n; }
    if (t.kind == T_MINUS) { next(&p->lx); Node *n = mk(p, N_NEG); n->a = primary(p); return n; }
    if (t.kind == T_NOT) { next(&p->lx); Node *n = mk(p, N_NOT); n->a = primary(p); return n; }
    if (t.kind != T_ID) fail("expected expression", t.line);
    next(&p->lx);
    if (p->lx.tok.kind == T_LP) {                   /* call */
        next(&p->lx);
        Node *n;
        if (!strcmp(t.name, "array")) { n = mk(p, N_BUILTIN); n->slot = B_ARRAY; }
        else if (!strcmp(t.name, "len")) { n = mk(p, N_BUILTIN); n->slot = B_LEN; }
        else {
            n = mk(p, N_CALL);
            n->slot = find_func(p, t.name);
            if (n->slot < 0) fail("undefined function", t.line);
        }
        while (p->lx.tok.kind != T_RP) {
            push_list(n, expr(p));
            if (p->lx.tok.kind == T_COMMA) next(&p->lx);
        }
        next(&p->lx);
        if (n->kind == N_CALL && n->nlist != p->funcs[n->slot].nparams) fail("wrong argument count", t.line);
        return n;
    }
    Node *v = var_ref(p, t.name);
    if (p->lx.tok.kind == T_LS) {
        next(&p->lx);
        Node *n = mk(p, N_INDEX); n->a = v; n->b = expr(p);
        expect(p, T_RS, "expected ]");
        return n;
    }
    return v;
}

static int prec(int tok) {
    switch (tok) {
    case T_OR: return 1;
    case T_AND: return 2;
    case T_EQ: case T_NE: return 3;
    case T_LT: case T_LE: case T_GT: case T_GE: return 4;
    case T_PLUS: case T_MINUS: return 5;
    case T_STAR: case T_SLASH: case T_PCT: return 6;
    default: return 0;
    }
}

static Node *binary(Parser *p, int min) {                 /* precedence climbing */
    Node *l = primary(p);
    for (;;) {
        int op = p->lx.tok.kind, pr = prec(op);
        if (pr == 0 || pr < min) return l;
        next(&p->lx);
        Node *r = binary(p, pr + 1);
        Node *n = mk(p, op == T_AND ? N_AND : op == T_OR ? N_OR : N_BIN);
        n->op = op; n->a = l; n->b = r;
        l = n;
    }
}
static Node *expr(Parser *p) { return binary(p, 1); }

static Node *statement(Parser *p);

static Node *block(Parser *p) {
    expect(p, T_LB, "expected {");
    Node *n = mk(p, N_BLOCK);
    while (p->lx.tok.kind != T_RB) push_list(n, statement(p));
    next(&p->lx);
    return n;
}

static Node *assignment(Parser *p, Node *target) {
    Node *n;
    if (target->kind == N_LOCAL) { n = mk(p, N_SET_LOCAL); n->slot = target->slot; }
    else if (target->kind == N_GLOBAL) { n = mk(p, N_SET_GLOBAL); n->slot = target->slot; }
    else if (target->kind == N_INDEX) { n = mk(p, N_SET_INDEX); n->b = target->a; n->c = target->b; }
    else { fail("bad assignment target", p->lx.tok.line); return NULL; }
    n->a = expr(p);
    return n;
}

static Node *statement(Parser *p) {
    Token t = p->lx.tok;
    Node *n;
    switch (t.kind) {
    case T_VAR: {
        next(&p->lx);
        Token id = p->lx.tok;
        expect(p, T_ID, "expected name");
        if (p->in_func) { if (find_name(p->locals, p->nlocals, id.name) < 0) strcpy(p->locals[p->nlocals++], id.name); }
        else if (find_name(p->globals, p->nglobals, id.name) < 0) strcpy(p->globals[p->nglobals++], id.name);
        expect(p, T_ASSIGN, "expected =");
        n = assignment(p, var_ref(p, id.name));
        expect(p, T_SEMI, "expected ;");
        return n;
    }
    case T_IF:
        next(&p->lx); expect(p, T_LP, "expected (");
        n = mk(p, N_IF); n->a = expr(p); expect(p, T_RP, "expected )");
        n->b = block(p);
        if (p->lx.tok.kind == T_ELSE) {
            next(&p->lx);
            n->c = p->lx.tok.kind == T_IF ? statement(p) : block(p);
        }
        return n;
    case T_WHILE:
        next(&p->lx); expect(p, T_LP, "expected (");
        n = mk(p, N_WHILE); n->a = expr(p); expect(p, T_RP, "expected )");
        n->b = block(p);
        return n;
    case T_RETURN:
        next(&p->lx);
        n = mk(p, N_RETURN); n->a = expr(p);
        expect(p, T_SEMI, "expected ;");
        return n;
    case T_PRINT:
        next(&p->lx);
        n = mk(p, N_PRINT); n->a = expr(p);
        expect(p, T_SEMI, "expected ;");
        return n;
    case T_LB:
        return block(p);
    default: {
        Node *e = expr(p);
        if (p->lx.tok.kind == T_ASSIGN) { next(&p->lx); n = assignment(p, e); }
        else { n = mk(p, N_EXPR); n->a = e; }
        expect(p, T_SEMI, "expected ;");
        return n;
    }
    }
}

STAGE static Node *parse_program(Parser *p, const char *src) {
    memset(p, 0, sizeof *p);
    p->lx.src = src; p->lx.line = 1;
    next(&p->lx);
    Node *top = mk(p, N_BLOCK);
    while (p->lx.tok.kind != T_EOF) {
        if (p->lx.tok.kind == T_FUNC) {
            next(&p->lx);
            Func *f = &p->funcs[p->nfuncs];
            strcpy(f->name, p->lx.tok.name);
            expect(p, T_ID, "expected function name");
            p->nfuncs++;                         /* visible inside its body: recursion */
            expect(p, T_LP, "expected (");
            p->nlocals = 0; p->in_func = 1;
            while (p->lx.tok.kind == T_ID) {
                strcpy(p->locals[p->nlocals++], p->lx.tok.name);
                next(&p->lx);
                if (p->lx.tok.kind == T_COMMA) next(&p->lx);
            }
            expect(p, T_RP, "expected )");
            f->nparams = p->nlocals;
            f->body = block(p);
            f->nlocals = p->nlocals;
            p->in_func = 0;
        } else push_list(top, statement(p));
    }
    return top;
}

/* ---------------- runtime values: integers, arrays are handles ---------------- */
typedef struct { long *data; long n; } Array;
typedef struct {
    Array arrays[256]; int narrays;
    long globals[MAXVARS];
    Sum out; long printed; long last[4];
    long steps;
} Runtime;

static void rt_reset(Runtime *rt) {
    for (int i = 0; i < rt->narrays; i++) free(rt->arrays[i].data);
    memset(rt, 0, sizeof *rt);
    sum_init(&rt->out);
}
static void rt_print(Runtime *rt, long v) {
    sum_u64(&rt->out, (uint64_t)v);
    rt->last[rt->printed % 4] = v;
    rt->printed++;
}
static long rt_array(Runtime *rt, long n) {
    if (rt->narrays == 256 || n < 0) fail("array limit", 0);
    rt->arrays[rt->narrays].data = xcalloc((size_t)n + 1, sizeof(long));
    rt->arrays[rt->narrays].n = n;
    return rt->narrays++;
}
static long *rt_elem(Runtime *rt, long h, long i) {
    if (h < 0 || h >= rt->narrays || i < 0 || i >= rt->arrays[h].n) fail("index out of range", 0);
    return &rt->arrays[h].data[i];
}
static long arith(int op, long x, long y) {
    switch (op) {
    case T_PLUS: return x + y;
    case T_MINUS: return x - y;
    case T_STAR: return x * y;
    case T_SLASH: if (!y) fail("division by zero", 0); return x / y;
    case T_PCT: if (!y) fail("division by zero", 0); return x % y;
    case T_LT: return x < y;
    case T_LE: return x <= y;
    case T_GT: return x > y;
    case T_GE: return x >= y;
    case T_EQ: return x == y;
    case T_NE: return x != y;
    }
    return 0;
}

/* ---------------- engine 1: AST walker, dispatch through function pointers ---------------- */
typedef struct { Runtime *rt; Parser *prog; long *locals; int returning; long retval; int depth; } Ctx;
typedef long (*EvalFn)(Ctx *c, const Node *n);
static EvalFn eval_table[N_KINDS];
#define EVAL(c, n) (eval_table[(n)->kind]((c), (n)))

static long ev_num(Ctx *c, const Node *n) { return n->num; }
static long ev_local(Ctx *c, const Node *n) { return c->locals[n->slot]; }
static long ev_global(Ctx *c, const Node *n) { return c->rt->globals[n->slot]; }
static long ev_index(Ctx *c, const Node *n) { long h = EVAL(c, n->a); return *rt_elem(c->rt, h, EVAL(c, n->b)); }
static long ev_bin(Ctx *c, const Node *n) { long x = EVAL(c, n->a); return arith(n->op, x, EVAL(c, n->b)); }
static long ev_neg(Ctx *c, const Node *n) { return -EVAL(c, n->a); }
static long ev_not(Ctx *c, const Node *n) { return !EVAL(c, n->a); }
static long ev_and(Ctx *c, const Node *n) { return EVAL(c, n->a) && EVAL(c, n->b); }
static long ev_or(Ctx *c, const Node *n) { return EVAL(c, n->a) || EVAL(c, n->b); }
static long ev_set_local(Ctx *c, const Node *n) { return c->locals[n->slot] = EVAL(c, n->a); }
static long ev_set_global(Ctx *c, const Node *n) { return c->rt->globals[n->slot] = EVAL(c, n->a); }
static long ev_set_index(Ctx *c, const Node *n) {
    long h = EVAL(c, n->b), i = EVAL(c, n->c), v = EVAL(c, n->a);
    return *rt_elem(c->rt, h, i) = v;
}
static long ev_builtin(Ctx *c, const Node *n) {
    long v = EVAL(c, n->list[0]);
    if (n->slot == B_ARRAY) return rt_array(c->rt, v);
    if (v < 0 || v >= c->rt->narrays) fail("bad array", 0);
    return c->rt->arrays[v].n;
}
static long ev_call(Ctx *c, const Node *n) {
    const Func *f = &c->prog->funcs[n->slot];
    long frame[MAXVARS];
    for (int i = 0; i < n->nlist; i++) frame[i] = EVAL(c, n->list[i]);
    for (int i = n->nlist; i < f->nlocals; i++) frame[i] = 0;
    if (++c->depth > 10000) fail("stack overflow", 0);
    long *saved = c->locals;
    c->locals = frame;
    EVAL(c, f->body);
    c->locals = saved;
    c->depth--;
    long r = c->returning ? c->retval : 0;
    c->returning = 0;
    return r;
}
static long ev_if(Ctx *c, const Node *n) {
    if (EVAL(c, n->a)) EVAL(c, n->b);
    else if (n->c) EVAL(c, n->c);
    return 0;
}
static long ev_while(Ctx *c, const Node *n) {
    while (!c->returning && EVAL(c, n->a)) { c->rt->steps++; EVAL(c, n->b); }
    return 0;
}
static long ev_block(Ctx *c, const Node *n) {
    for (int i = 0; i < n->nlist && !c->returning; i++) EVAL(c, n->list[i]);
    return 0;
}
static long ev_return(Ctx *c, const Node *n) { c->retval = EVAL(c, n->a); c->returning = 1; return 0; }
static long ev_print(Ctx *c, const Node *n) { rt_print(c->rt, EVAL(c, n->a)); return 0; }
static long ev_expr(Ctx *c, const Node *n) { EVAL(c, n->a); return 0; }

static void init_eval_table(void) {
    eval_table[N_NUM] = ev_num; eval_table[N_LOCAL] = ev_local; eval_table[N_GLOBAL] = ev_global;
    eval_table[N_INDEX] = ev_index; eval_table[N_CALL] = ev_call; eval_table[N_BUILTIN] = ev_builtin;
    eval_table[N_BIN] = ev_bin; eval_table[N_NEG] = ev_neg; eval_table[N_NOT] = ev_not;
    eval_table[N_AND] = ev_and; eval_table[N_OR] = ev_or; eval_table[N_SET_LOCAL] = ev_set_local;
    eval_table[N_SET_GLOBAL] = ev_set_global; eval_table[N_SET_INDEX] = ev_set_index; eval_table[N_IF] = ev_if;
    eval_table[N_WHILE] = ev_while; eval_table[N_BLOCK] = ev_block; eval_table[N_RETURN] = ev_return;
    eval_table[N_PRINT] = ev_print; eval_table[N_EXPR] = ev_expr;
}

STAGE static void run_ast(Parser *prog, Node *top, Runtime *rt) {
    long none[1] = {0};
    Ctx c = { rt, prog, none, 0, 0, 0 };
    EVAL(&c, top);
}

/* ---------------- engine 2: bytecode compiler + VM ---------------- */
enum { OP_PUSH, OP_LOADL, OP_STOREL, OP_LOADG, OP_STOREG, OP_INDEX, OP_STOREIDX, OP_BIN, OP_NEG, OP_NOT,
       OP_JMP, OP_JZ, OP_JNZ, OP_CALL, OP_RET, OP_PRINT, OP_POP, OP_ARRAY, OP_LEN, OP_DUP, OP_HALT };
typedef struct { int op, arg; long k; } Insn;
typedef struct { Insn *code; int n, cap; } Code;

static int emit(Code *c, int op, int arg, long k) {
    if (c->n == c->cap) { c->cap = c->cap ? 2 * c->cap : 256; c->code = realloc(c->code, sizeof(Insn) * (size_t)c->cap); }
    c->code[c->n] = (Insn){ op, arg, k };
    return c->n++;
}

static void gen(Code *c, const Node *n) {
    int j1, j2, top;
    switch (n->kind) {
    case N_NUM: emit(c, OP_PUSH, 0, n->num); break;
    case N_LOCAL: emit(c, OP_LOADL, n->slot, 0); break;
    case N_GLOBAL: emit(c, OP_LOADG, n->slot, 0); break;
    case N_INDEX: gen(c, n->a); gen(c, n->b); emit(c, OP_INDEX, 0, 0); break;
    case N_BIN: gen(c, n->a); gen(c, n->b); emit(c, OP_BIN, n->op, 0); break;
    case N_NEG: gen(c, n->a); emit(c, OP_NEG, 0, 0); break;
    case N_NOT: gen(c, n->a); emit(c, OP_NOT, 0, 0); break;
    case N_AND:                                   /* a && b  ->  a ? !!b : 0 */
        gen(c, n->a); j1 = emit(c, OP_JZ, 0, 0);
        gen(c, n->b); emit(c, OP_NOT, 0, 0); emit(c, OP_NOT, 0, 0); j2 = emit(c, OP_JMP, 0, 0);
        c->code[j1].arg = emit(c, OP_PUSH, 0, 0); c->code[j2].arg = c->n; break;
    case N_OR:
        gen(c, n->a); j1 = emit(c, OP_JNZ, 0, 0);
        gen(c, n->b); emit(c, OP_NOT, 0, 0); emit(c, OP_NOT, 0, 0); j2 = emit(c, OP_JMP, 0, 0);
        c->code[j1].arg = emit(c, OP_PUSH, 0, 1); c->code[j2].arg = c->n; break;
    case N_CALL:
        for (int i = 0; i < n->nlist; i++) gen(c, n->list[i]);
        emit(c, OP_CALL, n->slot, n->nlist); break;
    case N_BUILTIN: gen(c, n->list[0]); emit(c, n->slot == B_ARRAY ? OP_ARRAY : OP_LEN, 0, 0); break;
    case N_SET_LOCAL: gen(c, n->a); emit(c, OP_STOREL, n->slot, 0); break;
    case N_SET_GLOBAL: gen(c, n->a); emit(c, OP_STOREG, n->slot, 0); break;
    case N_SET_INDEX: gen(c, n->b); gen(c, n->c); gen(c, n->a); emit(c, OP_STOREIDX, 0, 0); break;
    case N_IF:
        gen(c, n->a); j1 = emit(c, OP_JZ, 0, 0);
        gen(c, n->b);
        if (n->c) { j2 = emit(c, OP_JMP, 0, 0); c->code[j1].arg = c->n; gen(c, n->c); c->code[j2].arg = c->n; }
        else c->code[j1].arg = c->n;
        break;
    case N_WHILE:
        top = c->n; gen(c, n->a); j1 = emit(c, OP_JZ, 0, 0);
        gen(c, n->b); emit(c, OP_JMP, top, 0); c->code[j1].arg = c->n; break;
    case N_BLOCK: for (int i = 0; i < n->nlist; i++) gen(c, n->list[i]); break;
    case N_RETURN: gen(c, n->a); emit(c, OP_RET, 0, 0); break;
    case N_PRINT: gen(c, n->a); emit(c, OP_PRINT, 0, 0); break;
    case N_EXPR: gen(c, n->a); emit(c, OP_POP, 0, 0); break;
    }
}

STAGE static Code compile(Parser *prog, const Node *top) {
    Code c = {0};
    gen(&c, top);
    emit(&c, OP_HALT, 0, 0);
    for (int f = 0; f < prog->nfuncs; f++) {
        prog->funcs[f].code_at = c.n;
        gen(&c, prog->funcs[f].body);
        emit(&c, OP_PUSH, 0, 0); emit(&c, OP_RET, 0, 0);
    }
    return c;
}

#define STACK 65536
typedef struct { int ret_pc; int base; } Frame;

STAGE static void run_vm(const Parser *prog, const Code *code, Runtime *rt) {
    long *stack = xmalloc(sizeof(long) * STACK);
    Frame *frames = xmalloc(sizeof(Frame) * 10001);
    int sp = 0, fp = 0, base = 0, pc = 0;
    const Insn *ins = code->code;
    for (;;) {
        const Insn *i = &ins[pc++];
        switch (i->op) {
        case OP_PUSH: stack[sp++] = i->k; break;
        case OP_LOADL: stack[sp++] = stack[base + i->arg]; break;
        case OP_STOREL: stack[base + i->arg] = stack[--sp]; break;
        case OP_LOADG: stack[sp++] = rt->globals[i->arg]; break;
        case OP_STOREG: rt->globals[i->arg] = stack[--sp]; break;
        case OP_INDEX: sp--; stack[sp - 1] = *rt_elem(rt, stack[sp - 1], stack[sp]); break;
        case OP_STOREIDX: sp -= 3; *rt_elem(rt, stack[sp], stack[sp + 1]) = stack[sp + 2]; break;
        case OP_BIN: sp--; stack[sp - 1] = arith(i->arg, stack[sp - 1], stack[sp]); break;
        case OP_NEG: stack[sp - 1] = -stack[sp - 1]; break;
        case OP_NOT: stack[sp - 1] = !stack[sp - 1]; break;
        case OP_JMP: if (i->arg < pc) rt->steps++; pc = i->arg; break;
        case OP_JZ: if (!stack[--sp]) pc = i->arg; break;
        case OP_JNZ: if (stack[--sp]) pc = i->arg; break;
        case OP_CALL: {
            const Func *f = &prog->funcs[i->arg];
            if (fp == 10000 || sp + f->nlocals + 64 > STACK) fail("stack overflow", 0);
            frames[fp++] = (Frame){ pc, base };
            base = sp - (int)i->k;
            for (int l = (int)i->k; l < f->nlocals; l++) stack[sp++] = 0;
            pc = f->code_at;
            break;
        }
        case OP_RET: {
            long v = stack[--sp];
            sp = base;
            Frame fr = frames[--fp];
            pc = fr.ret_pc; base = fr.base;
            stack[sp++] = v;
            break;
        }
        case OP_PRINT: rt_print(rt, stack[--sp]); break;
        case OP_POP: sp--; break;
        case OP_ARRAY: stack[sp - 1] = rt_array(rt, stack[sp - 1]); break;
        case OP_LEN: { long h = stack[sp - 1]; if (h < 0 || h >= rt->narrays) fail("bad array", 0); stack[sp - 1] = rt->arrays[h].n; break; }
        case OP_DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case OP_HALT: free(stack); free(frames); return;
        default: fail("bad opcode", 0);
        }
    }
}

/* ---------------- the generated programs ---------------- */
static const char *tpl_fib =
    "# recursive Fibonacci\n"
    "func fib(n) { if (n < 2) { return n; } return fib(n - 1) + fib(n - 2); }\n"
    "var i = 10; while (i <= %d) { print fib(i); i = i + 1; }\n";
static const char *tpl_sieve =
    "# sieve of Eratosthenes\n"
    "var n = %d; var s = array(n + 1); var count = 0; var i = 2;\n"
    "while (i <= n) {\n"
    "  if (s[i] == 0) { count = count + 1; var j = i * i; while (j <= n) { s[j] = 1; j = j + i; } }\n"
    "  i = i + 1;\n"
    "}\n"
    "print count;\n"
    "var last = n; while (s[last] != 0) { last = last - 1; } print last;\n";
static const char *tpl_sort =
    "# insertion sort of pseudo-random numbers\n"
    "func fill(a, seed) { var i = 0; while (i < len(a)) { seed = (seed * 1103515245 + 12345) %% 2147483648; a[i] = seed %% 100000; i = i + 1; } return seed; }\n"
    "func sort(a) { var i = 1; while (i < len(a)) { var v = a[i]; var j = i - 1;\n"
    "    while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j = j - 1; } a[j + 1] = v; i = i + 1; } return 0; }\n"
    "func check(a) { var i = 1; var h = 0; while (i < len(a)) { if (a[i - 1] > a[i]) { return -1; } h = (h * 31 + a[i]) %% 1000000007; i = i + 1; } return h; }\n"
    "var a = array(%d); var seed = fill(a, 42); sort(a); print check(a); print a[0]; print a[len(a) - 1];\n";
static const char *tpl_queens =
    "# N-queens by backtracking\n"
    "func place(r, n, cols, d1, d2) {\n"
    "  if (r == n) { return 1; }\n"
    "  var c = 0; var total = 0;\n"
    "  while (c < n) {\n"
    "    if (!cols[c] && !d1[r + c] && !d2[r - c + n]) {\n"
    "      cols[c] = 1; d1[r + c] = 1; d2[r - c + n] = 1;\n"
    "      total = total + place(r + 1, n, cols, d1, d2);\n"
    "      cols[c] = 0; d1[r + c] = 0; d2[r - c + n] = 0;\n"
    "    }\n"
    "    c = c + 1;\n"
    "  }\n"
    "  return total;\n"
    "}\n"
    "var n = 4; while (n <= %d) { print place(0, n, array(n), array(2 * n), array(2 * n + 1)); n = n + 1; }\n";
static const char *tpl_collatz =
    "# longest Collatz chain\n"
    "func steps(x) { var s = 0; while (x != 1) { if (x %% 2 == 0) { x = x / 2; } else { x = 3 * x + 1; } s = s + 1; } return s; }\n"
    "var best = 0; var arg = 0; var i = 1;\n"
    "while (i <= %d) { var s = steps(i); if (s > best || (s == best && i %% 7 == 0)) { best = s; arg = i; } i = i + 1; }\n"
    "print best; print arg;\n";

int main(int argc, char **argv) {
    int scale = scale_arg(argc, argv, 4, 64);
    init_eval_table();
    struct { const char *name, *tpl; int size; } progs[] = {
        { "fib", tpl_fib, 18 + scale },
        { "sieve", tpl_sieve, 10000 * scale },
        { "sort", tpl_sort, 125 * scale },
        { "queens", tpl_queens, 5 + scale },
        { "collatz", tpl_collatz, 350 * scale },
    };
    int nprog = (int)(sizeof progs / sizeof progs[0]);
    Sum sum; sum_init(&sum);
    printf("interp: scale %d, %d programs\n", scale, nprog);
    char *src = xmalloc(8192);
    static Parser parser;
    static Runtime rt1, rt2;
    for (int k = 0; k < nprog; k++) {
        if (argc > 2 && !strstr(argv[2], progs[k].name)) continue;   /* optional filter, e.g. "fib,sort" */
        snprintf(src, 8192, progs[k].tpl, progs[k].size);
        Node *top = parse_program(&parser, src);
        rt_reset(&rt1);
        run_ast(&parser, top, &rt1);
        Code code = compile(&parser, top);
        rt_reset(&rt2);
        run_vm(&parser, &code, &rt2);
        if (rt1.out.h != rt2.out.h || rt1.printed != rt2.printed) { fprintf(stderr, "interp: engines disagree on %s\n", progs[k].name); return 1; }
        printf("  %-8s n=%-6d %3ld nodes %4d insns  %3ld values, last %ld  loop iterations %ld\n", progs[k].name, progs[k].size,
               parser.nodes, code.n, rt1.printed, rt1.last[(rt1.printed - 1) % 4], rt1.steps);
        sum_u64(&sum, rt1.out.h);
        free(code.code);
        /* the AST is left to the OS: a one-shot compiler's habit */
    }
    rt_reset(&rt1); rt_reset(&rt2);
    free(src);
    printf("checksum %016llx\n", (unsigned long long)sum.h);
    return 0;
}

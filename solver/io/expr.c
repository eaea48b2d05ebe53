/* expr.c — a recursive-descent parser and tree evaluator for field expressions.
 *
 * Grammar, lowest precedence first (all binary operators left-associative except ^):
 *
 *   cond    := or [ '?' cond ':' cond ]
 *   or      := and { '||' and }
 *   and     := eq { '&&' eq }
 *   eq      := rel { ('==' | '!=') rel }
 *   rel     := add { ('<' | '<=' | '>' | '>=') add }
 *   add     := mul { ('+' | '-') mul }
 *   mul     := unary { ('*' | '/') unary }
 *   unary   := ('-' | '+' | '!') unary | power
 *   power   := primary [ '^' unary ]            right-associative: 2^3^2 = 2^9, -2^2 = -4
 *   primary := NUMBER | 'x' | 'y' | 'X' | 'Y' | 'pi' | FUNC '(' cond { ',' cond } ')' | '(' cond ')'
 *
 * x, y are measured from the grid's corner; X, Y are map coordinates, x + xll and y + yll
 * (expr_set_origin; 0 until set).
 * Comparisons and logical operators give 1 or 0; a value is true when it is nonzero.
 * a^2 is a * a, the square correctly rounded (libm's pow is within 0.52 ulp of it, and
 * takes several times as long: a 4096^2 grid's (x - 20)^2 + (y - 20)^2 spent most of its
 * set-up there); other powers are pow's.
 * FUNC is one of sin cos tan exp log sqrt abs floor (one argument) or min max (two).
 *
 * The tree is an array of nodes referring to each other by index, built once.  The parser
 * appends every node after its operands, so the array is the tree in postfix order (the
 * compiler checks this, and how many values evaluation holds at once); evaluation runs
 * through it with a stack of values, with no recursion, so a long flat chain such as
 * x+x+...+x (10^6 terms) evaluates like any other.  Both branches of c ? a : b, && and
 * || are computed and the right one kept: the operations have no side effects.
 * Parsing recurses once per nesting level, which is limited to EXPR_MAX_DEPTH so a hostile
 * input cannot overflow the stack; the number of nodes is limited to EXPR_MAX_NODES.
 */
#include "expr.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPR_MAX_DEPTH 100
#define EXPR_MAX_NODES (1 << 24)
#define EXPR_LOCAL_STACK 256    /* values evaluation keeps on the C stack; more: malloc'ed */

enum op {
    OP_NUM, OP_X, OP_Y, OP_MX, OP_MY, OP_NEG, OP_NOT,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR,
    OP_COND, OP_FN1, OP_MIN, OP_MAX
};

typedef double (*fn1)(double);

struct node {
    enum op op;
    int a, b, c;     /* operands (node indices) */
    double v;        /* OP_NUM */
    fn1 f;           /* OP_FN1 */
};

struct expr {
    struct node *n;
    int count, cap;
    int root;
    int uses_xy;
    double xll, yll; /* X = x + xll, Y = y + yll */
    int max_stack;   /* values held at once by expr_eval */
};

typedef struct parser {
    const char *text;
    const char *p;
    expr *e;
    int depth;
    int failed;      /* the message is in swgl_last_error() */
} parser;

static const struct { const char *name; fn1 f; } functions1[] = {
    {"sin", sin}, {"cos", cos}, {"tan", tan}, {"exp", exp}, {"log", log},
    {"sqrt", sqrt}, {"abs", fabs}, {"floor", floor}, {NULL, NULL}
};

static int parse_cond(parser *ps);

/* ---- errors and tokens ------------------------------------------------------------- */

/* "column N: " + message; only the first failure is kept. */
static void fail(parser *ps, swgl_status code, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail(parser *ps, swgl_status code, const char *at, const char *fmt, ...)
{
    if (ps->failed) return;
    ps->failed = 1;
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    swgl_fail(code, "column %d: %s", (int)(at - ps->text) + 1, msg);
}

/* A short description of what stands at p, for messages. */
static const char *found(const char *p, char *buf, size_t len)
{
    if (!*p) return "the end";
    size_t k = 0;
    while (p[k] && !isspace((unsigned char)p[k]) && k < 12) k++;
    snprintf(buf, len, "'%.*s'", (int)k, p);
    return buf;
}

static void skip_space(parser *ps)
{
    while (isspace((unsigned char)*ps->p)) ps->p++;
}

/* Consumes tok (after spaces) if it stands next; "<" does not match "<=". */
static int accept(parser *ps, const char *tok)
{
    skip_space(ps);
    size_t n = strlen(tok);
    if (strncmp(ps->p, tok, n) != 0) return 0;
    if (n == 1 && (tok[0] == '<' || tok[0] == '>') && ps->p[1] == '=') return 0;
    if (n == 1 && (tok[0] == '!') && ps->p[1] == '=') return 0;
    if (n == 1 && (tok[0] == '&' || tok[0] == '|')) return 0;
    ps->p += n;
    return 1;
}

static void expect(parser *ps, const char *tok)
{
    if (ps->failed) return;
    if (!accept(ps, tok)) {
        char buf[32];
        fail(ps, SWGL_ERR_INPUT, ps->p, "expected '%s' but found %s", tok,
             found(ps->p, buf, sizeof buf));
    }
}

/* ---- tree building ----------------------------------------------------------------- */

static int add_node(parser *ps, enum op op, int a, int b, int c)
{
    expr *e = ps->e;
    if (ps->failed) return -1;
    if (e->count == EXPR_MAX_NODES) {
        fail(ps, SWGL_ERR_INPUT, ps->p, "expression too long (more than %d numbers, names and "
             "operators)", EXPR_MAX_NODES);
        return -1;
    }
    if (e->count == e->cap) {
        int cap = e->cap ? 2 * e->cap : 16;
        struct node *n = realloc(e->n, (size_t)cap * sizeof *n);
        if (!n) {
            fail(ps, SWGL_ERR_NO_MEMORY, ps->p, "out of memory");
            return -1;
        }
        e->n = n;
        e->cap = cap;
    }
    struct node *nd = &e->n[e->count];
    memset(nd, 0, sizeof *nd);
    nd->op = op;
    nd->a = a;
    nd->b = b;
    nd->c = c;
    return e->count++;
}

static int enter(parser *ps)
{
    if (++ps->depth > EXPR_MAX_DEPTH) {
        fail(ps, SWGL_ERR_INPUT, ps->p, "expression nested more than %d deep", EXPR_MAX_DEPTH);
        return 0;
    }
    return 1;
}

/* ---- grammar ----------------------------------------------------------------------- */

static int parse_number(parser *ps)
{
    const char *s = ps->p, *q = s;
    while (isdigit((unsigned char)*q)) q++;
    if (*q == '.') {
        q++;
        while (isdigit((unsigned char)*q)) q++;
    }
    if (q == s + 1 && *s == '.') {
        fail(ps, SWGL_ERR_INPUT, s, "expected digits after '.'");
        return -1;
    }
    if (*q == 'e' || *q == 'E') {
        const char *r = q + 1;
        if (*r == '+' || *r == '-') r++;
        if (!isdigit((unsigned char)*r)) {
            fail(ps, SWGL_ERR_INPUT, r, "expected the digits of an exponent");
            return -1;
        }
        while (isdigit((unsigned char)*r)) r++;
        q = r;
    }
    char buf[64];
    size_t n = (size_t)(q - s);
    if (n >= sizeof buf) {
        fail(ps, SWGL_ERR_INPUT, s, "number too long");
        return -1;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    ps->p = q;
    int k = add_node(ps, OP_NUM, -1, -1, -1);
    if (k >= 0) ps->e->n[k].v = strtod(buf, NULL);
    return k;
}

static int parse_call(parser *ps, const char *name, size_t len, const char *at)
{
    for (int i = 0; functions1[i].name; i++) {
        if (strlen(functions1[i].name) == len && strncmp(functions1[i].name, name, len) == 0) {
            expect(ps, "(");
            int a = parse_cond(ps);
            expect(ps, ")");
            int k = add_node(ps, OP_FN1, a, -1, -1);
            if (k >= 0) ps->e->n[k].f = functions1[i].f;
            return k;
        }
    }
    if (len == 3 && (strncmp(name, "min", 3) == 0 || strncmp(name, "max", 3) == 0)) {
        expect(ps, "(");
        int a = parse_cond(ps);
        expect(ps, ",");
        int b = parse_cond(ps);
        expect(ps, ")");
        return add_node(ps, name[1] == 'i' ? OP_MIN : OP_MAX, a, b, -1);
    }
    fail(ps, SWGL_ERR_INPUT, at,
         "unknown name '%.*s' (known: x y pi sin cos tan exp log sqrt abs floor min max)",
         (int)len, name);
    return -1;
}

static int parse_name(parser *ps)
{
    const char *s = ps->p, *q = s;
    while (isalnum((unsigned char)*q) || *q == '_') q++;
    size_t len = (size_t)(q - s);
    ps->p = q;
    if (len == 1 && *s == 'x') {
        ps->e->uses_xy = 1;
        return add_node(ps, OP_X, -1, -1, -1);
    }
    if (len == 1 && *s == 'y') {
        ps->e->uses_xy = 1;
        return add_node(ps, OP_Y, -1, -1, -1);
    }
    if (len == 1 && (*s == 'X' || *s == 'Y')) {
        ps->e->uses_xy = 1;
        return add_node(ps, *s == 'X' ? OP_MX : OP_MY, -1, -1, -1);
    }
    if (len == 2 && strncmp(s, "pi", 2) == 0) {
        int k = add_node(ps, OP_NUM, -1, -1, -1);
        if (k >= 0) ps->e->n[k].v = 3.14159265358979323846;
        return k;
    }
    return parse_call(ps, s, len, s);
}

static int parse_primary(parser *ps)
{
    skip_space(ps);
    unsigned char c = (unsigned char)*ps->p;
    if (isdigit(c) || c == '.') return parse_number(ps);
    if (isalpha(c) || c == '_') return parse_name(ps);
    if (accept(ps, "(")) {
        int a = parse_cond(ps);
        expect(ps, ")");
        return a;
    }
    char buf[32];
    fail(ps, SWGL_ERR_INPUT, ps->p, "expected a number, x, y, X, Y, pi, a function or '(' but found %s",
         found(ps->p, buf, sizeof buf));
    return -1;
}

static int parse_unary(parser *ps);

static int parse_power(parser *ps)
{
    int a = parse_primary(ps);
    if (!ps->failed && accept(ps, "^")) {
        if (!enter(ps)) return -1;
        int b = parse_unary(ps);
        ps->depth--;
        return add_node(ps, OP_POW, a, b, -1);
    }
    return a;
}

static int parse_unary(parser *ps)
{
    if (!enter(ps)) return -1;
    int k;
    if (accept(ps, "-")) k = add_node(ps, OP_NEG, parse_unary(ps), -1, -1);
    else if (accept(ps, "+")) k = parse_unary(ps);
    else if (accept(ps, "!")) k = add_node(ps, OP_NOT, parse_unary(ps), -1, -1);
    else k = parse_power(ps);
    ps->depth--;
    return k;
}

/* One level of left-associative binary operators: tokens[i] gives ops[i]. */
static int parse_binary(parser *ps, int (*next)(parser *), const char *const *tokens,
                        const enum op *ops)
{
    int a = next(ps);
    while (!ps->failed) {
        int i = 0;
        while (tokens[i] && !accept(ps, tokens[i])) i++;
        if (!tokens[i]) break;
        int b = next(ps);
        a = add_node(ps, ops[i], a, b, -1);
    }
    return a;
}

static int parse_mul(parser *ps)
{
    static const char *const t[] = {"*", "/", NULL};
    static const enum op o[] = {OP_MUL, OP_DIV};
    return parse_binary(ps, parse_unary, t, o);
}

static int parse_add(parser *ps)
{
    static const char *const t[] = {"+", "-", NULL};
    static const enum op o[] = {OP_ADD, OP_SUB};
    return parse_binary(ps, parse_mul, t, o);
}

static int parse_rel(parser *ps)
{
    static const char *const t[] = {"<=", ">=", "<", ">", NULL};
    static const enum op o[] = {OP_LE, OP_GE, OP_LT, OP_GT};
    return parse_binary(ps, parse_add, t, o);
}

static int parse_eq(parser *ps)
{
    static const char *const t[] = {"==", "!=", NULL};
    static const enum op o[] = {OP_EQ, OP_NE};
    return parse_binary(ps, parse_rel, t, o);
}

static int parse_and(parser *ps)
{
    static const char *const t[] = {"&&", NULL};
    static const enum op o[] = {OP_AND};
    return parse_binary(ps, parse_eq, t, o);
}

static int parse_or(parser *ps)
{
    static const char *const t[] = {"||", NULL};
    static const enum op o[] = {OP_OR};
    return parse_binary(ps, parse_and, t, o);
}

static int parse_cond(parser *ps)
{
    if (!enter(ps)) return -1;
    int c = parse_or(ps);
    if (!ps->failed && accept(ps, "?")) {
        int a = parse_cond(ps);
        expect(ps, ":");
        int b = parse_cond(ps);
        c = add_node(ps, OP_COND, c, a, b);
    }
    ps->depth--;
    return c;
}

/* ---- the postfix program ---------------------------------------------------------- */

static int arity(enum op op)
{
    switch (op) {
    case OP_NUM: case OP_X: case OP_Y: case OP_MX: case OP_MY: return 0;
    case OP_NEG: case OP_NOT: case OP_FN1: return 1;
    case OP_COND: return 3;
    default: return 2;
    }
}

/* Checks that the nodes are the tree in postfix order (every node right after its
 * operands' subtrees, the root last) and sets e->max_stack; 0 (with a message) if not. */
static int check_postfix(expr *e)
{
    int *ids = malloc((size_t)e->count * sizeof *ids);
    if (!ids) {
        swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        return 0;
    }
    int sp = 0, ok = 1;
    e->max_stack = 0;
    for (int k = 0; ok && k < e->count; k++) {
        const struct node *d = &e->n[k];
        int m = arity(d->op);
        const int operand[3] = {d->a, d->b, d->c};
        ok = sp >= m;
        for (int i = 0; ok && i < m; i++) ok = ids[sp - m + i] == operand[i];
        if (!ok) break;
        sp -= m;
        ids[sp++] = k;
        if (sp > e->max_stack) e->max_stack = sp;
    }
    ok = ok && sp == 1 && ids[0] == e->root;
    free(ids);
    if (!ok) swgl_fail(SWGL_ERR_INPUT, "internal error: the expression's nodes are not in postfix order");
    return ok;
}

/* ---- public ------------------------------------------------------------------------ */

expr *expr_compile(const char *text)
{
    expr *e = calloc(1, sizeof *e);
    if (!e) {
        swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        return NULL;
    }
    parser ps = {.text = text, .p = text, .e = e};
    skip_space(&ps);
    if (!*ps.p) fail(&ps, SWGL_ERR_INPUT, ps.p, "empty expression");
    e->root = parse_cond(&ps);
    skip_space(&ps);
    if (!ps.failed && *ps.p) {
        char buf[32];
        fail(&ps, SWGL_ERR_INPUT, ps.p, "expected an operator or the end but found %s",
             found(ps.p, buf, sizeof buf));
    }
    if (ps.failed || !check_postfix(e)) {
        expr_free(e);
        return NULL;
    }
    return e;
}

/* Runs the postfix program: each node pushes its value in place of its operands'. */
double expr_eval(const expr *e, double x, double y)
{
    double local[EXPR_LOCAL_STACK], *st = local;
    if (e->max_stack > EXPR_LOCAL_STACK && !(st = malloc((size_t)e->max_stack * sizeof *st)))
        return NAN;
    int sp = 0;
    st[0] = NAN;    /* (a compiled program always pushes its value there) */
    for (int k = 0; k < e->count; k++) {
        const struct node *d = &e->n[k];
        switch (d->op) {
        case OP_NUM: st[sp++] = d->v; continue;
        case OP_X: st[sp++] = x; continue;
        case OP_Y: st[sp++] = y; continue;
        case OP_MX: st[sp++] = x + e->xll; continue;
        case OP_MY: st[sp++] = y + e->yll; continue;
        case OP_NEG: st[sp - 1] = -st[sp - 1]; continue;
        case OP_NOT: st[sp - 1] = st[sp - 1] == 0.0; continue;
        case OP_FN1: st[sp - 1] = d->f(st[sp - 1]); continue;
        case OP_COND:
            sp -= 2;
            st[sp - 1] = st[sp - 1] != 0.0 ? st[sp] : st[sp + 1];
            continue;
        default: break;
        }
        double b = st[--sp], a = st[sp - 1], r;
        switch (d->op) {
        case OP_ADD: r = a + b; break;
        case OP_SUB: r = a - b; break;
        case OP_MUL: r = a * b; break;
        case OP_DIV: r = a / b; break;
        case OP_POW: r = b == 2.0 ? a * a : pow(a, b); break;
        case OP_LT: r = a < b; break;
        case OP_LE: r = a <= b; break;
        case OP_GT: r = a > b; break;
        case OP_GE: r = a >= b; break;
        case OP_EQ: r = a == b; break;
        case OP_NE: r = a != b; break;
        case OP_AND: r = a != 0.0 && b != 0.0; break;
        case OP_OR: r = a != 0.0 || b != 0.0; break;
        case OP_MIN: r = a < b ? a : b; break;
        case OP_MAX: r = a > b ? a : b; break;
        default: r = NAN; break;
        }
        st[sp - 1] = r;
    }
    double v = st[0];
    if (st != local) free(st);
    return v;
}

void expr_set_origin(expr *e, double xll, double yll)
{
    e->xll = xll;
    e->yll = yll;
}

int expr_uses_xy(const expr *e)
{
    return e->uses_xy;
}

void expr_free(expr *e)
{
    if (!e) return;
    free(e->n);
    free(e);
}

/* test_expr.c — the field-expression parser and evaluator (solver/expr.c): values,
 * precedence and associativity, functions, and error messages with their column. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "expr.h"

/* Value of text at (x, y); NAN when it does not compile. */
static double eval(const char *text, double x, double y)
{
    expr *e = expr_compile(text);
    if (!e) {
        printf("      (compile error: %s)\n", swgl_last_error());
        return NAN;
    }
    double v = expr_eval(e, x, y);
    expr_free(e);
    return v;
}

/* The compile error of text, which must fail. */
static const char *error_of(const char *text, char *err, size_t len)
{
    expr *e = expr_compile(text);
    if (e) {
        expr_free(e);
        snprintf(err, len, "(compiled)");
    } else {
        snprintf(err, len, "%s", swgl_last_error());
    }
    return err;
}

static void test_values(void)
{
    const double tol = 1e-12;   /* a few operations in double: round-off only */
    CHECK_NEAR(eval("42", 0, 0), 42, 0, "a number");
    CHECK_NEAR(eval("1.5e-3", 0, 0), 1.5e-3, 0, "exponent");
    CHECK_NEAR(eval(".5", 0, 0), 0.5, 0, "leading dot");
    CHECK_NEAR(eval("x + 2*y", 3, 4), 11, tol, "x and y");
    CHECK_NEAR(eval("1 + 2 * 3", 0, 0), 7, tol, "* before +");
    CHECK_NEAR(eval("(1 + 2) * 3", 0, 0), 9, tol, "parentheses");
    CHECK_NEAR(eval("8 - 3 - 2", 0, 0), 3, tol, "- left-associative");
    CHECK_NEAR(eval("8 / 4 / 2", 0, 0), 1, tol, "/ left-associative");
    CHECK_NEAR(eval("2^3^2", 0, 0), 512, tol, "^ right-associative");
    CHECK_NEAR(eval("-2^2", 0, 0), -4, tol, "unary minus below ^");
    CHECK_NEAR(eval("2^-1", 0, 0), 0.5, tol, "unary minus in an exponent");
    CHECK_NEAR(eval("--3", 0, 0), 3, tol, "double negation");
    CHECK_NEAR(eval("pi", 0, 0), 3.14159265358979323846, tol, "pi");
    CHECK_NEAR(eval("1 - cos(2*pi*x)/2", 0.5, 0), 1.5, tol, "Lastra's H at x = 0.5");
    CHECK_NEAR(eval("sqrt(16) + abs(-2) + floor(2.7) + exp(0) + log(1)", 0, 0), 9, tol, "functions");
    CHECK_NEAR(eval("sin(pi/2) + tan(0)", 0, 0), 1, tol, "sin tan");
    CHECK_NEAR(eval("min(3, x) + max(y, 1)", 2, 5), 7, tol, "min max");
    /* a^2 is a * a, the correctly rounded square (expr.c), bit for bit over a million values
     * of every magnitude and sign, and the edge cases; other exponents are pow's */
    expr *sq = expr_compile("(x - y)^2");
    long bad = 0;
    uint64_t seed = 0x5eed;
    for (int k = 0; sq && k < 1000000; k++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        double a = ldexp((double)(seed >> 11) / 9007199254740992.0, (int)(seed % 200) - 100) * ((seed >> 7) & 1 ? -1 : 1);
        double d = a - 0.25, v = expr_eval(sq, a, 0.25);
        bad += memcmp(&v, &(double){d * d}, sizeof v) != 0;
    }
    CHECK(sq && bad == 0, "(x - y)^2 = (x - y) * (x - y) to the bit at 10^6 points (%ld differ)", bad);
    if (sq) {
        CHECK(isinf(expr_eval(sq, -INFINITY, 0)) && expr_eval(sq, -INFINITY, 0) > 0 && isnan(expr_eval(sq, NAN, 0)) &&
                  expr_eval(sq, -1e200, 0) == INFINITY && signbit(expr_eval(sq, -0.0, 0)) == 0,
              "^2 of -inf, NaN, -1e200 (overflow), -0: +inf, NaN, +inf, +0 (as pow)");
        expr_free(sq);
    }
    CHECK_NEAR(eval("x^3", 1.1, 0), pow(1.1, 3), 0, "x^3 is pow's");
    CHECK_NEAR(eval("x^0.5", 2, 0), pow(2, 0.5), 0, "x^0.5 is pow's");
}

static void test_logic(void)
{
    CHECK_NEAR(eval("x < 5 ? 2 : 0", 4.9, 0), 2, 0, "ternary true");
    CHECK_NEAR(eval("x < 5 ? 2 : 0", 5, 0), 0, 0, "ternary false");
    CHECK_NEAR(eval("x < 1 ? 1 : x < 2 ? 2 : 3", 1.5, 0), 2, 0, "nested ternary");
    CHECK_NEAR(eval("x > 25/3 && x < 25/2 ? -9 : -10", 10, 0), -9, 0, "&& in a condition");
    CHECK_NEAR(eval("x > 25/3 && x < 25/2 ? -9 : -10", 13, 0), -10, 0, "&& false");
    CHECK_NEAR(eval("x < 1 || y < 1", 5, 0), 1, 0, "||");
    CHECK_NEAR(eval("!(x < 1)", 5, 0), 1, 0, "!");
    CHECK(isnan(eval("1 <= 1) + (2 >= 3", 0, 0)), "unbalanced: must not compile");
    CHECK_NEAR(eval("(1 <= 1) + (2 >= 3) + (1 == 1) + (1 != 1)", 0, 0), 2, 0, "comparisons");
    CHECK_NEAR(eval("1 + 2 < 4", 0, 0), 1, 0, "+ before <");
    CHECK_NEAR(eval("1 < 2 == 1", 0, 0), 1, 0, "< before ==");
}

static void test_errors(void)
{
    char err[256];
    CHECK(strstr(error_of("1 + * 2", err, sizeof err), "column 5"), "%s", err);
    CHECK(strstr(error_of("sin(x", err, sizeof err), "column 6: expected ')'"), "%s", err);
    CHECK(strstr(error_of("z + 1", err, sizeof err), "column 1: unknown name 'z'"), "%s", err);
    CHECK(strstr(error_of("max(1)", err, sizeof err), "column 6: expected ','"), "%s", err);
    CHECK(strstr(error_of("x y", err, sizeof err), "column 3: expected an operator"), "%s", err);
    CHECK(strstr(error_of("x < 1 ? 2", err, sizeof err), "column 10: expected ':'"), "%s", err);
    CHECK(strstr(error_of("", err, sizeof err), "empty"), "%s", err);
    CHECK(strstr(error_of("1e+", err, sizeof err), "exponent"), "%s", err);
    CHECK(strstr(error_of("x = 1", err, sizeof err), "column 3"), "%s", err);
    CHECK(strstr(error_of("nan", err, sizeof err), "unknown name 'nan'"), "%s", err);
    char deep[400];
    memset(deep, '(', 300);
    strcpy(deep + 300, "1");
    CHECK(strstr(error_of(deep, err, sizeof err), "nested"), "%s", err);
}

/* "x+x+...+x" with n terms (malloc'ed). */
static char *chain(int n, const char *term, const char *op)
{
    size_t lt = strlen(term), lo = strlen(op);
    char *s = malloc((size_t)n * (lt + lo) + 1), *p = s;
    if (!s) return NULL;
    for (int i = 0; i < n; i++) {
        if (i) p = memcpy(p, op, lo), p += lo;
        p = memcpy(p, term, lt), p += lt;
    }
    *p = '\0';
    return s;
}

/* A long flat chain (fuzzer: bed = x+x+..., 10^6 terms) once overflowed the stack: the
 * tree was evaluated by recursion, one level per term, which the nesting limit does not
 * count.  Evaluation now runs through the postfix node array with a value stack. */
static void test_long_chains(void)
{
    char *s = chain(1000000, "x", "+");
    if (!CHECK(s != NULL, "memory for the chain")) return;
    expr *e = expr_compile(s);
    CHECK(e != NULL, "a 10^6-term sum compiles: %s", e ? "yes" : swgl_last_error());
    if (e) {
        CHECK_NEAR(expr_eval(e, 0.5, 0), 500000, 0, "x+x+...+x, 10^6 terms, at x = 0.5 (exact: halves)");
        CHECK_NEAR(expr_eval(e, 2, 0), 2000000, 0, "the same at x = 2");
        expr_free(e);
    }
    free(s);
    s = chain(1000000, "y", "-");
    CHECK_NEAR(eval(s, 0, 1), -999998, 0, "y-y-...-y, 10^6 terms, left-associative");
    free(s);
    s = chain(300000, "x", "<");
    CHECK_NEAR(eval(s, 3, 0), 1, 0, "x<x<...<x: (3<3)=0, then 0<3 = 1 onwards");
    free(s);
    s = chain(300000, "1", "&&");
    CHECK_NEAR(eval(s, 0, 0), 1, 0, "1&&1&&...&&1");
    free(s);
    /* deep nesting still stops at the limit, with its message */
    s = chain(100000, "-", "");
    CHECK(strstr(error_of(s, (char[256]){0}, 256), "nested more than 100 deep"), "10^5 unary minus: %s",
          swgl_last_error());
    free(s);
}

/* Values pending at every precedence level of every parenthesis: more than evaluation
 * keeps on the C stack (it then takes a heap buffer), and the result is still right. */
static void test_wide_expressions(void)
{
    char s[4096];
    int n = 0;
    for (int i = 0; i < 48; i++) n += snprintf(s + n, sizeof s - (size_t)n, "x || 0 && x == x < 1 + x * (");
    n += snprintf(s + n, sizeof s - (size_t)n, "1");
    for (int i = 0; i < 48; i++) s[n++] = ')';
    s[n] = '\0';
    /* innermost v = 1; each level: x*v, 1+x*v, x < that (1), x == 1 (1 at x = 1), 0 && .. (0), x || 0 (1) */
    CHECK_NEAR(eval(s, 1, 0), 1, 0, "48 levels of 6 pending operators");
    CHECK_NEAR(eval(s, 0, 0), 0, 0, "the same at x = 0: 0 < 1 = 1, 0 == 1 = 0, 0 || 0 = 0");
    n = 0;
    for (int i = 0; i < 48; i++) n += snprintf(s + n, sizeof s - (size_t)n, "1 + 2 * (");
    n += snprintf(s + n, sizeof s - (size_t)n, "1");
    for (int i = 0; i < 48; i++) s[n++] = ')';
    s[n] = '\0';
    CHECK_NEAR(eval(s, 0, 0), 562949953421311.0, 0, "v = 1 + 2 v nested 48 times from 1: 2^49 - 1");
    CHECK_NEAR(eval("x < 1 ? log(x - 1) : 2", 5, 0), 2, 0, "the branch not taken may be NaN");
    CHECK_NEAR(eval("0 && log(-1) || 1", 0, 0), 1, 0, "&& and || with a NaN operand not needed");
    CHECK_NEAR(eval("min(x, max(y, x ? 3 : 4))", 5, 1), 3, 0, "calls and a condition");
}

static void test_uses_xy(void)
{
    expr *a = expr_compile("2 * pi"), *b = expr_compile("y + 1");
    CHECK(a && !expr_uses_xy(a), "a constant expression");
    CHECK(b && expr_uses_xy(b), "an expression in y");
    expr_free(a);
    expr_free(b);
    expr_free(NULL);
}

int main(void)
{
    test_values();
    test_logic();
    test_errors();
    test_long_chains();
    test_wide_expressions();
    test_uses_xy();
    return check_done();
}

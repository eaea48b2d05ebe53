/* test_expr.c — the field-expression parser and evaluator (solver/expr.c): values,
 * precedence and associativity, functions, and error messages with their column. */
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
    test_uses_xy();
    return check_done();
}

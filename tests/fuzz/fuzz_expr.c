/* fuzz_expr.c — the expression parser and evaluator (expr.h): expr_compile, expr_eval at
 * a few points, expr_uses_xy, expr_free.
 *
 * Input: the expression's text (a NUL ends it early).  Or, to reach long expressions
 * within a small -max_len, a repetition:
 *     0xFE  COUNT  LEN  UNIT[LEN]  SUFFIX...
 * stands for UNIT repeated (COUNT + 1) * 256 times, then SUFFIX (at most 1 MiB in all):
 * "\xFE\xFF\x02" "1+" "1" is a flat sum of 65537 terms, "\xFE\x10\x01" "(" "x" 4352 open
 * parentheses.  tests/fuzz/seeds.sh adds a few such seeds.
 *
 * Checked: a failed compile leaves a message (expr.h); an expression that does not use x
 * or y gives the same value everywhere.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "fuzz_common.h"

enum { MAX_TEXT = 1 << 20 };

static const double points[][2] = {
    {0, 0}, {0.5, 0.25}, {150, 125}, {-3, 1e3}, {1e300, -1e-300}, {2.5e-7, 7.75e4},
};

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* The text the input stands for (malloc'ed, NUL-terminated), or NULL. */
static char *input_text(const uint8_t *data, size_t size)
{
    if (size >= 3 && data[0] == 0xFE) {
        size_t count = ((size_t)data[1] + 1) * 256, len = data[2];
        if (len == 0 || size < 3 + len) return NULL;
        const uint8_t *unit = data + 3, *suffix = unit + len;
        size_t nsuffix = size - 3 - len;
        if (count * len + nsuffix > MAX_TEXT) count = (MAX_TEXT - nsuffix) / len;
        char *t = malloc(count * len + nsuffix + 1);
        if (!t) return NULL;
        for (size_t i = 0; i < count; i++) memcpy(t + i * len, unit, len);
        memcpy(t + count * len, suffix, nsuffix);
        t[count * len + nsuffix] = '\0';
        return t;
    }
    char *t = malloc(size + 1);
    if (!t) return NULL;
    memcpy(t, data, size);
    t[size] = '\0';
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = input_text(data, size);
    if (!text) return 0;
    expr *e = expr_compile(text);
    if (!e) {
        FZ_CHECK(strlen(swgl_last_error()) > 0);
    } else {
        int uses_xy = expr_uses_xy(e);
        FZ_CHECK(uses_xy == 0 || uses_xy == 1);
        double first = expr_eval(e, points[0][0], points[0][1]);
        for (size_t i = 1; i < sizeof points / sizeof points[0]; i++) {
            double v = expr_eval(e, points[i][0], points[i][1]);
            if (!uses_xy) FZ_CHECK(same(v, first));
        }
        expr_free(e);
    }
    free(text);
    return 0;
}

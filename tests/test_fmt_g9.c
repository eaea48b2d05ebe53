/* test_fmt_g9.c — the ESRI ASCII grids' number formatter (solver/io/fmt_g9.h) against printf's
 * "%.9g", byte for byte: the grids it writes must be the bytes they were (issue 28 made it
 * five times as fast).  Every kind of value a grid holds and the cases its rules turn on: the
 * exponent's switch between fixed and exponent forms (1e-5 / 1e-4, 1e8 / 1e9), a rounding
 * that carries into a tenth digit (9.9999999995 -> 10), ties of the exact binary value
 * (0.5 ulp cases: halves at the ninth digit), trailing zeros, negative zero, values too small
 * or too large for its integer arithmetic (printf then), subnormals, NaN and infinities;
 * then 3 million values drawn from a fixed generator: any bit pattern, uniform depths,
 * floats widened to double, powers of two, decimals, tiny discharges.  No tolerance: the
 * same bytes or a failure. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fmt_g9.h"

static long mismatches;

static void same(double x)
{
    char a[64], b[64];
    int la = snprintf(a, sizeof a, "%.9g", x), lb = fmt_g9(b, x);
    if (la != lb || strcmp(a, b) != 0) {
        if (mismatches++ < 8) CHECK(0, "x = %a: printf '%s', fmt_g9 '%s'", x, a, b);
    }
}

static uint64_t s = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
}

int main(void)
{
    static const double edge[] = {0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1e-4, 1e-5, 9.99999999e-5, 0.000099999999949,
                                  1e8, 1e9, 999999999.0, 999999999.5, 999999998.5, 99999999.95, 9.9999999995,
                                  9.9999999949, 0.1234567885, 0.1234567895, 123456789.0, 1234567890.0, 2.5, 1e15,
                                  1e-15, 1e-16, 1e30, 1e31, 1e32, 1e300, 1e-300, DBL_MAX, DBL_MIN, DBL_MIN / 4,
                                  DBL_EPSILON, 9007199254740993.0, -9999.0, 0.01, 3.0000000049999999, 1.5e-7};
    for (size_t k = 0; k < sizeof edge / sizeof edge[0]; k++) {
        same(edge[k]);
        same(-edge[k]);
        same(nextafter(edge[k], INFINITY));
        same(nextafter(edge[k], -INFINITY));
    }
    same(NAN);
    same(INFINITY);
    same(-INFINITY);
    /* the halves at the ninth digit that are exact in binary: n + 0.5 at 10^8 .. 10^9 */
    for (int k = 0; k < 2000; k++) same((double)(100000000 + 3 * k) + 0.5);
    for (long k = 0; k < 3000000; k++) {
        double x;
        uint64_t r = rnd();
        switch (k % 7) {
        case 0: memcpy(&x, &r, sizeof x); break;
        case 1: x = (double)(r >> 11) / 9007199254740992.0 * 10.0; break;
        case 2: x = ldexp((double)(r >> 11), (int)(rnd() % 140) - 130); break;
        case 3: x = (double)(float)((double)(r >> 11) / 9007199254740992.0 * 1000.0 - 500.0); break;
        case 4: x = round((double)(r >> 40)) / (double)fmt_pow10[rnd() % 14]; break;
        case 5: x = ((double)(r >> 20) + 0.5) * 1e-9 * (rnd() % 2 ? 1 : -1); break;
        default: x = (double)(r >> 30) * (rnd() % 2 ? 1.0 : -1.0); break;
        }
        same(x);
    }
    CHECK(mismatches == 0, "%ld values formatted unlike printf's %%.9g", mismatches);
    return check_done();
}

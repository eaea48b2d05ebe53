/* fmt_g9.h — "%.9g" of a double as glibc's printf writes it, at some five times its speed (the
 * ESRI ASCII grids' numbers, output_asc.c: issue 28 asks for 200 MB/s of grid on one core;
 * printf gives some 40): the value's 9 significant digits rounded half to even from its exact
 * binary value with integer arithmetic (unsigned __int128: m 2^e 10^p, the division by a power
 * of two a shift), then %g's layout (fixed for exponents -4 to 8, else d.ddde+XX; trailing zeros
 * dropped).  Where the exact product does not fit or is not worked (|x| below some 1e-15 or
 * above 1e31, 1e9 <= |x| < 2^52, a subnormal), a NaN, an infinity or a zero: printf itself.
 * GCC or Clang on a 64-bit target (unsigned __int128), as swgl's build.  tests/test_fmt_g9.c holds it to
 * printf's bytes over millions of values of every kind. */
#ifndef SWGL_FMT_G9_H
#define SWGL_FMT_G9_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const uint64_t fmt_pow10[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
                                       100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
                                       1000000000000ull, 10000000000000ull, 100000000000000ull,
                                       1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
                                       1000000000000000000ull, 10000000000000000000ull};

/* 10^k as a 128-bit integer, k <= 38 */
static inline unsigned __int128 fmt_p10(int k)
{
    unsigned __int128 r = 1;
    if (k >= 19) {
        r = fmt_pow10[19];
        k -= 19;
    }
    return r * fmt_pow10[k];
}

/* N = round_half_even(m 2^e 10^p) when it fits exactly (1: done) */
static inline int fmt_scaled(uint64_t m, int e, int p, uint64_t *N)
{
    unsigned __int128 A, B;
    if (p >= 0) {
        if (p > 22) return 0;
        A = (unsigned __int128)m * fmt_p10(p);   /* < 2^53 10^22 < 2^127 */
        if (e >= 0) {
            if (e > 10) return 0;
            A <<= e;
            if (A >> 64) return 0;
            *N = (uint64_t)A;
            return 1;
        }
        if (-e > 126) return 0;
        /* a power of two below: a shift, and the rounding from the bits shifted out */
        unsigned __int128 q = A >> -e, r = A - (q << -e), half = (unsigned __int128)1 << (-e - 1);
        if (r > half || (r == half && (q & 1))) q++;
        if (q >> 64) return 0;
        *N = (uint64_t)q;
        return 1;
    } else {
        if (-p > 38) return 0;
        if (e < 0 || e > 74) return 0;
        A = (unsigned __int128)m << e;
        B = fmt_p10(-p);
    }
    unsigned __int128 q = A / B, r = A - q * B;
    if (2 * r > B || (2 * r == B && (q & 1))) q++;
    if (q >> 64) return 0;
    *N = (uint64_t)q;
    return 1;
}

/* "%.9g" of x into buf (at least 32 bytes); its length */
static inline int fmt_g9(char *buf, double x)
{
    if (!isfinite(x) || x == 0.0) return snprintf(buf, 32, "%.9g", x);
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int neg = (int)(bits >> 63), be = (int)((bits >> 52) & 0x7FF);
    if (be == 0) return snprintf(buf, 32, "%.9g", x);   /* (subnormal) */
    uint64_t m = (bits & ((1ull << 52) - 1)) | (1ull << 52);   /* x = +-m 2^e, 53 bits */
    int e = be - 1075;
    /* the decimal exponent floor(log10 |x|) from the binary one: |x| in [2^(e + 52), 2^(e + 53)),
     * so floor((e + 52) log10 2) or one more (78913 / 2^18 = log10 2 to 1e-6; the checks below
     * correct it by one either way) */
    const int t = (e + 52) * 78913;
    int d = t >= 0 ? t >> 18 : -((-t + (1 << 18) - 1) >> 18);
    uint64_t N;
    if (!fmt_scaled(m, e, 8 - d, &N)) return snprintf(buf, 32, "%.9g", x);
    if (N < 100000000ull) {                        /* d was one too high */
        d--;
        if (!fmt_scaled(m, e, 8 - d, &N)) return snprintf(buf, 32, "%.9g", x);
    } else if (N >= 1000000000ull) {               /* one too low, or rounded up to 10^9 */
        d++;
        if (!fmt_scaled(m, e, 8 - d, &N)) return snprintf(buf, 32, "%.9g", x);
    }
    if (N >= 1000000000ull) {                      /* (9.999999995 -> 10.0000000) */
        N /= 10;
        d++;
    }
    char dig[9];
    for (int k = 8; k >= 0; k--) {
        dig[k] = (char)('0' + N % 10);
        N /= 10;
    }
    int nd = 9;
    while (nd > 1 && dig[nd - 1] == '0') nd--;     /* (%g drops trailing zeros) */
    char *p = buf;
    if (neg) *p++ = '-';
    if (d < -4 || d >= 9) {                        /* d.ddde+XX */
        *p++ = dig[0];
        if (nd > 1) {
            *p++ = '.';
            memcpy(p, dig + 1, (size_t)nd - 1);
            p += nd - 1;
        }
        *p++ = 'e';
        *p++ = d < 0 ? '-' : '+';
        int ad = d < 0 ? -d : d;
        if (ad >= 100) *p++ = (char)('0' + ad / 100);
        *p++ = (char)('0' + ad / 10 % 10);
        *p++ = (char)('0' + ad % 10);
    } else if (d >= 0) {                           /* ddd.ddd */
        int ip = d + 1;
        for (int k = 0; k < ip; k++) *p++ = k < nd ? dig[k] : '0';
        if (nd > ip) {
            *p++ = '.';
            memcpy(p, dig + ip, (size_t)(nd - ip));
            p += nd - ip;
        }
    } else {                                       /* 0.000ddd */
        *p++ = '0';
        *p++ = '.';
        for (int k = 0; k < -d - 1; k++) *p++ = '0';
        memcpy(p, dig, (size_t)nd);
        p += nd;
    }
    *p = '\0';
    return (int)(p - buf);
}

#endif

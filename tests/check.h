/* check.h — the tests' assertions: each check reports file:line and carries on; the
 * program ends with  "N passed, N failed"  and exits 1 if any failed.  A GL test that
 * finds no EGL device calls check_skip(), which prints the reason and exits 77. */
#ifndef SWGL_CHECK_H
#define SWGL_CHECK_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int check_passed_, check_failed_;

#define CHECK(cond, ...) check_((cond) != 0, __FILE__, __LINE__, #cond, __VA_ARGS__)
/* |a - b| <= tol, with a reason for the tolerance in the message */
#define CHECK_NEAR(a, b, tol, ...) \
    check_near_((double)(a), (double)(b), (double)(tol), __FILE__, __LINE__, #a, __VA_ARGS__)
#define CHECK_LE(a, b, ...) \
    check_le_((double)(a), (double)(b), __FILE__, __LINE__, #a " <= " #b, __VA_ARGS__)

static void check_report_(int ok, const char *file, int line, const char *what, const char *fmt, va_list ap)
{
    if (ok) {
        check_passed_++;
        printf("ok    ");
    } else {
        check_failed_++;
        printf("FAIL  %s:%d: %s: ", file, line, what);
    }
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
}

static inline int check_(int ok, const char *file, int line, const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    check_report_(ok, file, line, what, fmt, ap);
    va_end(ap);
    return ok;
}

static inline int check_near_(double a, double b, double tol, const char *file, int line,
                              const char *what, const char *fmt, ...)
{
    int ok = isfinite(a) && isfinite(b) && fabs(a - b) <= tol;
    va_list ap;
    va_start(ap, fmt);
    if (!ok) printf("FAIL  %s:%d: %s = %.9g, expected %.9g +- %.3g: ", file, line, what, a, b, tol);
    else printf("ok    [%.9g vs %.9g, tol %.3g] ", a, b, tol);
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
    if (ok) check_passed_++; else check_failed_++;
    return ok;
}

static inline int check_le_(double a, double b, const char *file, int line, const char *what,
                            const char *fmt, ...)
{
    int ok = !isnan(a) && !isnan(b) && a <= b;
    va_list ap;
    va_start(ap, fmt);
    if (!ok) printf("FAIL  %s:%d: %s: %.9g > %.9g: ", file, line, what, a, b);
    else printf("ok    [%.3g <= %.3g] ", a, b);
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
    if (ok) check_passed_++; else check_failed_++;
    return ok;
}

static inline void check_skip(const char *why)
{
    printf("SKIP: %s\n", why);
    exit(77);
}

static inline int check_done(void)
{
    printf("%d passed, %d failed\n", check_passed_, check_failed_);
    return check_failed_ ? 1 : 0;
}

#endif

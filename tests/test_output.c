/* test_output.c — what a run leaves behind (solver/output*.c): ESRI grids written and
 * read back, header variants, PNG pictures (read back through libpng), summary.json text,
 * and the staged output folder (commit, abort, a failed run leaving old files alone). */
#include <png.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "output.h"
#include "raster.h"

static char tmp[256];

static const char *tmp_path(const char *name)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", tmp, name);
    return p;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The whole file as a string (static buffer); "" if unreadable. */
static const char *read_text(const char *path)
{
    static char buf[8192];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = '\0';
    if (f) fclose(f);
    return buf;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void test_asc_roundtrip(void)
{
    double v[6] = {1, 2, 3, 4.5, 1.0 / 3.0, -7e-12};   /* 3 x 2, row 0 south */
    unsigned char mask[6] = {1, 1, 0, 1, 1, 1};
    swgl_status rc = asc_write(tmp_path("a.asc"), 3, 2, 10, 20, 0.5, 0.5, v, mask);
    CHECK(rc == 0, "asc_write: %s", swgl_last_error());
    const char *text = read_text(tmp_path("a.asc"));
    CHECK(strstr(text, "ncols 3\nnrows 2\nxllcorner 10\nyllcorner 20\ncellsize 0.5\nNODATA_value -9999\n"
                       "4.5 0.333333333 -7e-12\n1 2 -9999\n") == text, "the file, north row first:\n%s", text);
    int nx, ny;
    double xll, yll, dx, dy, *r;
    unsigned char *nd;
    rc = asc_read(tmp_path("a.asc"), &nx, &ny, &xll, &yll, &dx, &dy, &r, &nd);
    if (!CHECK(rc == 0, "asc_read: %s", swgl_last_error())) return;
    CHECK(nx == 3 && ny == 2 && xll == 10 && yll == 20 && dx == 0.5 && dy == 0.5, "header read back");
    CHECK_NEAR(r[3], 4.5, 0, "row 0 is southern after reading");
    CHECK_NEAR(r[4], 1.0 / 3.0, 1e-9, "%%.9g keeps 9 significant digits");
    CHECK(nd[2] == 1 && isnan(r[2]) && nd[0] == 0, "a masked cell comes back as NODATA (NaN)");
    free(r);
    free(nd);
    rc = asc_read(tmp_path("a.asc"), &nx, &ny, &xll, &yll, &dx, &dy, &r, NULL);
    CHECK(rc != SWGL_OK && strstr(swgl_last_error(), "a.asc:8: NODATA value at row 2, column 3"),
          "NODATA without nodata[]: %s", swgl_last_error());

    double w[4] = {1, 2, 3, 4};
    rc = asc_write(tmp_path("b.asc"), 2, 2, 0, 0, 1, 2, w, NULL);
    CHECK(rc == 0 && strstr(read_text(tmp_path("b.asc")), "dx 1\ndy 2\n"), "dx and dy when they differ");
    rc = asc_read(tmp_path("b.asc"), &nx, &ny, &xll, &yll, &dx, &dy, &r, NULL);
    CHECK(rc == 0 && dx == 1 && dy == 2, "dx and dy read back: %s", swgl_last_error());
    if (rc == 0) free(r);
    rc = asc_write("/nonexistent/x.asc", 2, 2, 0, 0, 1, 1, w, NULL);
    CHECK(rc != SWGL_OK && strstr(swgl_last_error(), "/nonexistent/x.asc: cannot create"),
          "%s", swgl_last_error());
}

static void test_asc_variants(void)
{
    int nx, ny;
    double xll, yll, dx, dy, *r;
    write_text(tmp_path("c.asc"), "NROWS 2\r\nNCOLS 2\r\nXLLCENTER 1\r\nYLLCENTER 3\r\nCELLSIZE 2\r\n"
                                  "1 2 3\r\n4\r\n");
    swgl_status rc = asc_read(tmp_path("c.asc"), &nx, &ny, &xll, &yll, &dx, &dy, &r, NULL);
    CHECK(rc == 0, "upper case, any order, CRLF, values across lines, no NODATA: %s", swgl_last_error());
    if (rc == 0) {
        CHECK(xll == 0 && yll == 2, "xllcenter / yllcenter: the corner is half a cell away");
        CHECK(r[0] == 3 && r[1] == 4 && r[2] == 1, "values in order, north row first");
        free(r);
    }
    write_text(tmp_path("d.asc"), "ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3 4 5\n");
    rc = asc_read(tmp_path("d.asc"), &nx, &ny, &xll, &yll, &dx, &dy, &r, NULL);
    CHECK(rc != SWGL_OK && strstr(swgl_last_error(), "d.asc:6: more than ncols x nrows = 2 x 2 values"),
          "%s", swgl_last_error());
    write_text(tmp_path("e.asc"), "ncols 2\nnrows 2\nxllcorner 0\ncellsize 1\n1 2 3 4\n");
    rc = asc_read(tmp_path("e.asc"), &nx, &ny, &xll, &yll, &dx, &dy, &r, NULL);
    CHECK(rc != SWGL_OK && strstr(swgl_last_error(), "e.asc:5: bad header: missing yllcorner or yllcenter"),
          "%s", swgl_last_error());
    write_text(tmp_path("f.asc"), "ncols -2\nnrows 2\n");
    rc = asc_read(tmp_path("f.asc"), &nx, &ny, &xll, &yll, &dx, &dy, &r, NULL);
    CHECK(rc != SWGL_OK && strstr(swgl_last_error(), "f.asc:1: bad header: ncols must be a positive integer"),
          "%s", swgl_last_error());
    rc = asc_read(tmp_path("none.asc"), &nx, &ny, &xll, &yll, &dx, &dy, &r, NULL);
    CHECK(rc != SWGL_OK && strstr(swgl_last_error(), "none.asc: cannot open"), "%s", swgl_last_error());
}

static void write_bytes(const char *path, const char *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(bytes, 1, n, f);
        fclose(f);
    }
}

/* asc_read of tmp/NAME must fail with want in its message; the message of any other
 * outcome otherwise. */
static int asc_fails_with(const char *name, const char *want, char *got, size_t len)
{
    int nx, ny;
    double xll, yll, dx, dy, *r = NULL;
    unsigned char *nd = NULL;
    swgl_clear_error();
    swgl_status rc = asc_read(tmp_path(name), &nx, &ny, &xll, &yll, &dx, &dy, &r, &nd);
    snprintf(got, len, "%s", rc == SWGL_OK ? "(read)" : swgl_last_error());
    free(r);
    free(nd);
    return rc != SWGL_OK && strstr(got, want) != NULL;
}
#define CHECK_ASC_FAILS(name, want) do { \
        char got_[1024]; \
        CHECK(asc_fails_with(name, want, got_, sizeof got_), "want \"%s\", got \"%s\"", want, got_); \
    } while (0)

/* Bytes of address space the process may still map is capped for the call (not under
 * ASan, whose shadow memory is already larger than any cap). */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* Caps the address space at what is in use now (/proc/self/statm) plus extra bytes,
 * keeping the old limit in *old; 1 if capped (never under ASan). */
static int cap_address_space(size_t extra, struct rlimit *old)
{
#ifdef UNDER_ASAN
    (void)extra;
    (void)old;
    return 0;
#else
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1) pages = 0;
        fclose(f);
    }
    rlim_t want = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (rlim_t)extra;
    if (!pages || getrlimit(RLIMIT_AS, old) != 0 ||
        (old->rlim_cur != RLIM_INFINITY && old->rlim_cur <= want))
        return 0;
    struct rlimit lim = *old;
    lim.rlim_cur = want;
    return setrlimit(RLIMIT_AS, &lim) == 0;
#endif
}

/* .asc files that once misbehaved (a fuzzer, a careful user), and their relatives. */
static void test_asc_hostile(void)
{
    static const char hdr[] = "ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n";
    char text[8192];
    /* a keyword, then a line long enough to move getline's buffer: the keyword's token
     * was freed under the message (printf 'ncols\n%0150d\n' 0) */
    snprintf(text, sizeof text, "ncols\n%0150d\n", 0);
    write_text(tmp_path("k1.asc"), text);
    CHECK_ASC_FAILS("k1.asc", "k1.asc:2: bad header: ncols must be a positive integer");
    snprintf(text, sizeof text, "ncols 2\nnrows\n%4000s\n", "abc");
    write_text(tmp_path("k2.asc"), text);
    CHECK_ASC_FAILS("k2.asc", "k2.asc:3: bad header: expected a number after nrows");
    snprintf(text, sizeof text, "NCOLS 2\n%4000s\nNCOLS\n%4000s\n", "", "3");
    write_text(tmp_path("k3.asc"), text);
    CHECK_ASC_FAILS("k3.asc", "k3.asc:4: bad header: NCOLS given twice");
    snprintf(text, sizeof text, "ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize\n%4000s\n", "-1");
    write_text(tmp_path("k4.asc"), text);
    CHECK_ASC_FAILS("k4.asc", "k4.asc:6: bad header: cellsize must be positive");
    snprintf(text, sizeof text, "nrows\n%4000s\n", "2000000");
    write_text(tmp_path("k5.asc"), text);
    CHECK_ASC_FAILS("k5.asc", "k5.asc:2: bad header: nrows must be at most 1000000, found 2000000");

    /* 1e308 was converted to long before the range check (undefined) */
    write_text(tmp_path("e1.asc"), "ncols 1e308\nnrows 2\n");
    CHECK_ASC_FAILS("e1.asc", "e1.asc:1: bad header: ncols must be at most 1000000, found 1e+308");
    write_text(tmp_path("e2.asc"), "ncols 2\nnrows -1e308\n");
    CHECK_ASC_FAILS("e2.asc", "e2.asc:2: bad header: nrows must be a positive integer");

    /* the cap on cells, before anything is allocated */
    write_text(tmp_path("big.asc"), "ncols 1000000\nnrows 1000\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n");
    CHECK_ASC_FAILS("big.asc", "big.asc:2: bad header: too many cells: ncols x nrows = 1000000 x 1000 = "
                               "1000000000, at most 268435456");
    /* within the cap, but three values: memory follows the data, not the header (10^8
     * values were 900 MB allocated up front: the cap on the address space makes that
     * "out of memory") */
    write_text(tmp_path("short-big.asc"), "ncols 10000\nnrows 10000\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n");
    struct rlimit old_lim;
    int capped = cap_address_space((size_t)256 << 20, &old_lim);
    char got[1024];
    int ok = asc_fails_with("short-big.asc", "short-big.asc:6: short data: expected 10000 x 10000 = 100000000 "
                            "values, found 3", got, sizeof got);
    if (capped) setrlimit(RLIMIT_AS, &old_lim);
    CHECK(ok, "10^8 values promised, 3 given%s: %s", capped ? " (256 MB of address space)" : "", got);

    /* NUL bytes: an error at once (also for a file with no line end at all) */
    static const char nul[] = "ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\0 3 4\n";
    write_bytes(tmp_path("nul.asc"), nul, sizeof nul - 1);
    CHECK_ASC_FAILS("nul.asc", "nul.asc:6: a NUL byte in the file (expected text)");
    char *zeros = calloc(1 << 20, 1);
    if (zeros) {
        write_bytes(tmp_path("zeros.asc"), zeros, 1 << 20);
        free(zeros);
        CHECK_ASC_FAILS("zeros.asc", "zeros.asc:1: a NUL byte in the file");
    }
    /* a folder named .asc: a read error, not an empty grid */
    mkdir(tmp_path("folder.asc"), 0777);
    CHECK_ASC_FAILS("folder.asc", "folder.asc: cannot read: ");
    rmdir(tmp_path("folder.asc"));
    /* a token too long to be a number or a keyword */
    snprintf(text, sizeof text, "%s1 2 3 %0300d\n", hdr, 4);
    write_text(tmp_path("tok.asc"), text);
    CHECK_ASC_FAILS("tok.asc", "tok.asc:6: expected a number or a keyword, found '0000");
    CHECK_ASC_FAILS("tok.asc", "(more than 255 characters)");

    /* lone CRs end lines (old Mac files): line numbers count them */
    write_text(tmp_path("cr.asc"), "ncols 2\rnrows 2\rxllcorner 0\ryllcorner 0\rcellsize 1\r1 2\r3 x\r");
    CHECK_ASC_FAILS("cr.asc", "cr.asc:7: expected a number, found 'x'");
    write_text(tmp_path("crlf.asc"), "ncols 2\r\nnrows 2\r\nxllcorner 0\r\nyllcorner 0\r\ncellsize 1\r\n1 2\r\n3\r\n");
    CHECK_ASC_FAILS("crlf.asc", "crlf.asc:7: short data: expected 2 x 2 = 4 values, found 3");

    /* a big grid with values across lines, chunks and a 1 MB run of blanks: all read back */
    enum { NX = 300, NY = 250 };
    FILE *f = fopen(tmp_path("wide.asc"), "w");
    if (f) {
        fprintf(f, "ncols %d\nnrows %d\nxllcorner 0\nyllcorner 0\ncellsize 1\n", NX, NY);
        for (int k = 0; k < NX * NY; k++) {
            fprintf(f, "%d.25", k);
            if (k == NX * NY / 2) for (int b = 0; b < (1 << 20); b++) fputc(' ', f);
            fputc(k % 7 == 0 ? '\n' : k % 5 == 0 ? '\r' : ' ', f);
        }
        fclose(f);
    }
    int nx, ny;
    double xll, yll, dx, dy, *r = NULL;
    swgl_status rc = asc_read(tmp_path("wide.asc"), &nx, &ny, &xll, &yll, &dx, &dy, &r, NULL);
    if (CHECK(rc == 0 && nx == NX && ny == NY, "a %d x %d grid of %s: %s", NX, NY, "mixed line ends",
              rc == 0 ? "read" : swgl_last_error())) {
        int good = 1;
        for (int j = 0; j < NY; j++)     /* row j = 0 southern: the file's last row */
            for (int i = 0; i < NX; i++) good &= r[j * NX + i] == (NY - 1 - j) * NX + i + 0.25;
        CHECK(good, "every value in its cell");
    }
    free(r);
}

/* Reads a PNG back as RGB: w, h and pixels (malloc'ed). */
static unsigned char *read_png(const char *path, int *w, int *h)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, path)) return NULL;
    im.format = PNG_FORMAT_RGB;
    unsigned char *px = malloc(PNG_IMAGE_SIZE(im));
    if (!px || !png_image_finish_read(&im, NULL, px, 0, NULL)) {
        free(px);
        png_image_free(&im);
        return NULL;
    }
    *w = (int)im.width;
    *h = (int)im.height;
    return px;
}

/* raster_read: the reader by the file's type; the raster's fields. */
static void test_raster_read(void)
{
    double v[6] = {1, 2, 3, 4.5, 5, 6};
    unsigned char mask[6] = {1, 1, 0, 1, 1, 1};
    swgl_status rc = asc_write(tmp_path("r.asc"), 3, 2, 10, 20, 0.5, 0.25, v, mask);
    CHECK(rc == 0, "asc_write: %s", swgl_last_error());
    raster r;
    rc = raster_read(tmp_path("r.asc"), &r);
    if (CHECK(rc == SWGL_OK, "raster_read of an .asc: %s", swgl_last_error())) {
        CHECK(r.nx == 3 && r.ny == 2 && r.x0 == 10 && r.y0 == 20 && r.dx == 0.5 && r.dy == 0.25,
              "header read back");
        CHECK(r.nodata && r.nodata[2] == 1 && isnan(r.v[2]) && r.nodata[0] == 0 && r.v[3] == 4.5,
              "NODATA as the mask and NaN, row 0 southern");
        CHECK(r.has_nodata_value && r.nodata_value == -9999, "the file's NODATA value");
        CHECK(r.crs == NULL && r.format && strcmp(r.format, "ESRI ASCII grid") == 0, "format %s, no CRS",
              r.format ? r.format : "(none)");
    }
    raster_free(&r);
    raster_free(&r);   /* a freed raster is zeroed: freeing it again is fine */
    /* another name: known by the first bytes (an .asc header) */
    char from[512];
    snprintf(from, sizeof from, "%s", tmp_path("r.asc"));   /* (tmp_path's buffer is one) */
    rename(from, tmp_path("r.grid"));
    rc = raster_read(tmp_path("r.grid"), &r);
    CHECK(rc == SWGL_OK && r.nx == 3 && r.ny == 2, "an ASCII grid named r.grid: %s", swgl_last_error());
    raster_free(&r);
    unlink(tmp_path("r.grid"));
    /* a type this build does not read: the file and the formats it reads */
    FILE *f = fopen(tmp_path("dem.tif"), "wb");
    if (f) {
        fwrite("II*\0\10\0\0\0", 1, 8, f);
        fclose(f);
    }
    rc = raster_read(tmp_path("dem.tif"), &r);
    CHECK(rc == SWGL_ERR_INPUT && strstr(swgl_last_error(), "dem.tif: unknown raster type: this build reads "
                                         "ESRI ASCII grid (.asc)"), "%s", swgl_last_error());
    CHECK(r.v == NULL && r.nodata == NULL, "nothing to free after a failure");
    unlink(tmp_path("dem.tif"));
    rc = raster_read(tmp_path("none.tif"), &r);
    CHECK(rc == SWGL_ERR_IO && strstr(swgl_last_error(), "none.tif: cannot open"), "%s", swgl_last_error());
    rc = raster_read(tmp_path("none.asc"), &r);
    CHECK(rc == SWGL_ERR_IO && strstr(swgl_last_error(), "none.asc: cannot open"), "%s", swgl_last_error());
}

static void test_png(void)
{
    enum { NX = 40, NY = 20 };
    double v[NX * NY], relief[NX * NY];
    unsigned char mask[NX * NY];
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            v[j * NX + i] = i / (NX - 1.0);
            relief[j * NX + i] = sin(i * 0.3) * cos(j * 0.2);
            mask[j * NX + i] = !(i < 5 && j < 5);
        }
    swgl_status rc = png_write_field(tmp_path("v.png"), NX, NY, v, mask, NULL, 0, 1, CMAP_DEPTH, 4,
                                     "depth h (t = 5 s)", "m");
    if (!CHECK(rc == 0, "png_write_field: %s", swgl_last_error())) return;
    int w, h;
    unsigned char *px = read_png(tmp_path("v.png"), &w, &h);
    if (!CHECK(px != NULL, "libpng reads the picture back")) return;
    CHECK(w > NX * 4 + 40 && h >= NY * 4 + 34, "picture %d x %d holds the field and the bar", w, h);
    /* field origin: margin 10, title 34 px; the masked south-west cell is grey */
    const unsigned char *sw = px + 3 * ((size_t)(34 + NY * 4 - 2) * (size_t)w + 12);
    CHECK(sw[0] == 128 && sw[1] == 128 && sw[2] == 128, "masked cell grey (%d %d %d)", sw[0], sw[1], sw[2]);
    const unsigned char *west = px + 3 * ((size_t)(34 + 2) * (size_t)w + 12);
    const unsigned char *east = px + 3 * ((size_t)(34 + 2) * (size_t)w + 10 + NX * 4 - 2);
    CHECK(west[0] > 240 && west[2] > 240, "v = 0: white in the depth map");
    CHECK(east[2] > east[0] + 20, "v = 1: blue in the depth map (%d %d %d)", east[0], east[1], east[2]);
    int dark = 0;
    for (int y = 10; y < 24; y++)
        for (int x = 10; x < 100; x++) dark += px[3 * ((size_t)y * (size_t)w + (size_t)x)] == 0;
    CHECK(dark > 50, "the title is drawn (%d black pixels)", dark);
    free(px);

    rc = png_write_field(tmp_path("r.png"), NX, NY, relief, NULL, relief, -1, 1, CMAP_TERRAIN, 0,
                         "basin height", "m");
    px = rc == 0 ? read_png(tmp_path("r.png"), &w, &h) : NULL;
    CHECK(px && w >= 800, "scale 0: about 800 px wide (%d)", px ? w : 0);
    free(px);
    {   /* a tall, narrow grid (40 x 1100): scale 0 keeps every side within 20000 px */
        double *tall = calloc(40 * 1100, sizeof(double));
        rc = tall ? png_write_field(tmp_path("t.png"), 40, 1100, tall, NULL, NULL, 0, 1, CMAP_DEPTH, 0, "tall", "m")
                  : SWGL_ERR_NO_MEMORY;
        px = rc == 0 ? read_png(tmp_path("t.png"), &w, &h) : NULL;
        CHECK(px && h >= 1100 && h <= 20000 + 200, "scale 0 on a 40 x 1100 grid: %d px high (%s)", px ? h : 0,
              rc == 0 ? "written" : swgl_last_error());
        free(px);
        free(tall);
    }
    {   /* a large grid (5000 x 300) at scale 0: every third cell, the picture about 2048 px
         * wide (1667 columns), the field's values where they lie (west white, east blue) */
        const int bx = 5000, by = 300;
        double *big = malloc((size_t)bx * by * sizeof(double));
        for (int k = 0; big && k < bx * by; k++) big[k] = (k % bx) / (bx - 1.0);
        rc = big ? png_write_field(tmp_path("b.png"), bx, by, big, NULL, big, 0, 1, CMAP_DEPTH, 0, "big", "m")
                 : SWGL_ERR_NO_MEMORY;
        px = rc == 0 ? read_png(tmp_path("b.png"), &w, &h) : NULL;
        CHECK(px && w >= 1667 + 40 && w <= 1667 + 200 && h >= 100 + 34 && h <= 100 + 34 + 40,
              "scale 0 on a 5000 x 300 grid: drawn every 3rd cell, %d x %d px (%s)", px ? w : 0, px ? h : 0,
              rc == 0 ? "written" : swgl_last_error());
        if (px) {
            const unsigned char *w0 = px + 3 * ((size_t)(34 + 50) * (size_t)w + 11);
            const unsigned char *e0 = px + 3 * ((size_t)(34 + 50) * (size_t)w + 10 + 1667 - 2);
            CHECK(w0[0] > 200 && e0[2] > e0[0] + 20, "the big picture: white in the west (%d), blue in the east (%d %d)",
                  w0[0], e0[0], e0[2]);
        }
        free(px);
        free(big);
    }
    for (int m = CMAP_DEPTH; m <= CMAP_TERRAIN; m++) {
        rc = png_write_field(tmp_path("m.png"), NX, NY, v, NULL, relief, 0, 1, (enum colormap)m, 2,
                             "colour map", "m^2/s");
        CHECK(rc == 0, "colour map %d with shading: %s", m, swgl_last_error());
    }
    {   /* a field with its ghost ring, read where it lies (png_write_field_at, rows nx + 2
         * apart): the same pixels as its interior copied out, on a small grid (scale 4) and on a
         * large one drawn every 3rd cell (5000 x 300) */
        static const int sizes[2][3] = {{NX, NY, 4}, {5000, 300, 0}};
        for (int c = 0; c < 2; c++) {
            int gx = sizes[c][0], gy = sizes[c][1], W = gx + 2;
            double *ring = malloc((size_t)W * (gy + 2) * sizeof(double)), *in = malloc((size_t)gx * gy * sizeof(double));
            for (int j = 0; ring && in && j < gy + 2; j++)
                for (int i = 0; i < W; i++) {
                    double x = (i == 0 || j == 0 || i == W - 1 || j == gy + 1) ? 1e9 : sin(0.01 * i * j) + 0.01 * i;
                    ring[(size_t)j * W + i] = x;
                    if (i >= 1 && j >= 1 && i <= gx && j <= gy) in[(size_t)(j - 1) * gx + (i - 1)] = x;
                }
            int w1 = 0, h1 = 0, w2 = 0, h2 = 0;
            rc = ring && in ? png_write_field(tmp_path("c1.png"), gx, gy, in, NULL, NULL, -1, 2, CMAP_DEPTH, sizes[c][2], "t", "m")
                            : SWGL_ERR_NO_MEMORY;
            swgl_status rc2 = rc == 0 ? png_write_field_at(tmp_path("c2.png"), gx, gy, ring + W + 1, (size_t)W, NULL, NULL, -1,
                                                           2, CMAP_DEPTH, sizes[c][2], "t", "m")
                                      : rc;
            unsigned char *p1 = rc2 == 0 ? read_png(tmp_path("c1.png"), &w1, &h1) : NULL;
            unsigned char *p2 = rc2 == 0 ? read_png(tmp_path("c2.png"), &w2, &h2) : NULL;
            CHECK(p1 && p2 && w1 == w2 && h1 == h2 && memcmp(p1, p2, (size_t)3 * w1 * h1) == 0,
                  "png_write_field_at of a %d x %d field with its ghost ring (stride %d): the interior's picture, "
                  "pixel for pixel (%s)", gx, gy, W, rc2 == 0 ? "written" : swgl_last_error());
            free(p1);
            free(p2);
            free(ring);
            free(in);
        }
    }
    rc = png_write_field("/nonexistent/v.png", NX, NY, v, NULL, NULL, 0, 1, CMAP_VIRIDIS, 1, "", "");
    CHECK(rc != SWGL_OK && strstr(swgl_last_error(), "/nonexistent/v.png"), "%s", swgl_last_error());
}

static void test_json(void)
{
    json_writer *w = json_open(tmp_path("s.json"));
    if (!CHECK(w != NULL, "json_open: %s", swgl_last_error())) return;
    json_str(w, "scheme", "roe");
    json_str(w, "renderer", "llvmpipe \"LLVM\" \\ tab\there\x01");
    json_str(w, "source", "caf\xc3\xa9/\xe9t\xe9.ini\xe2\x82");   /* UTF-8, Latin-1, a cut sequence */
    json_int(w, "nx", 200);
    json_num(w, "dx", 0.1);
    json_num(w, "mass", 1.0 / 3.0);
    json_num(w, "bad", NAN);
    json_num(w, "big", INFINITY);
    json_bool(w, "ok", 1);
    json_begin_object(w, "errors");
    json_num(w, "l1", 1.5e-3);
    json_begin_object(w, "empty");
    json_end_object(w);
    json_end_object(w);
    swgl_status rc = json_close(w);
    CHECK(rc == 0, "json_close: %s", swgl_last_error());
    const char *want =
        "{\n"
        "  \"scheme\": \"roe\",\n"
        "  \"renderer\": \"llvmpipe \\\"LLVM\\\" \\\\ tab\\there\\u0001\",\n"
        "  \"source\": \"caf\xc3\xa9/\\ufffdt\\ufffd.ini\\ufffd\\ufffd\",\n"
        "  \"nx\": 200,\n"
        "  \"dx\": 0.1,\n"
        "  \"mass\": 0.3333333333333333,\n"
        "  \"bad\": null,\n"
        "  \"big\": null,\n"
        "  \"ok\": true,\n"
        "  \"errors\": {\n"
        "    \"l1\": 0.0015,\n"
        "    \"empty\": {}\n"
        "  }\n"
        "}\n";
    const char *got = read_text(tmp_path("s.json"));
    CHECK(strcmp(got, want) == 0, "summary.json text:\n%s", got);
    w = json_open(tmp_path("t.json"));
    json_begin_object(w, "open");
    CHECK(json_close(w) != SWGL_OK && strstr(swgl_last_error(), "unbalanced"),
          "an unclosed object: %s", swgl_last_error());
    CHECK(json_open("/nonexistent/s.json") == NULL && strstr(swgl_last_error(), "cannot create"),
          "%s", swgl_last_error());
}

static void test_outdir(void)
{
    const char *dir = tmp_path("out/run1");      /* two levels that do not exist yet */
    char d[512];
    snprintf(d, sizeof d, "%s", dir);
    outdir *o = outdir_open(d);
    if (!CHECK(o != NULL, "outdir_open creates the folder: %s", swgl_last_error())) return;
    char stage[600];
    snprintf(stage, sizeof stage, "%s/.run1.swgl-tmp-%ld", tmp_path("out"), (long)getpid());
    CHECK(exists(stage), "staging folder %s", stage);
    const char *p = outdir_path(o, "h.asc");
    CHECK(p && strstr(p, ".swgl-tmp-"), "staged path %s", p ? p : "(null)");
    write_text(p, "first");
    write_text(outdir_path(o, "frames/f1.txt"), "frame");
    CHECK(outdir_path(o, "../escape") == NULL, "no path out of the folder");
    char f1[600], f2[600], f3[600];
    snprintf(f1, sizeof f1, "%s/h.asc", d);
    snprintf(f2, sizeof f2, "%s/frames/f1.txt", d);
    CHECK(!exists(f1), "nothing in DIR before the commit");
    CHECK(outdir_commit(o) == 0, "commit: %s", swgl_last_error());
    CHECK(strcmp(read_text(f1), "first") == 0, "committed file");
    CHECK(strcmp(read_text(f2), "frame") == 0, "committed file in a subfolder");
    CHECK(!exists(stage), "staging folder removed after the commit");

    /* a failed run: the old files stay, the new one does not appear */
    o = outdir_open(d);
    write_text(outdir_path(o, "h.asc"), "second, half-writ");
    write_text(outdir_path(o, "new.png"), "x");
    outdir_abort(o);
    snprintf(f3, sizeof f3, "%s/new.png", d);
    CHECK(strcmp(read_text(f1), "first") == 0, "abort leaves the old file untouched");
    CHECK(!exists(f3) && !exists(stage), "abort leaves no new file and no staging folder");
    outdir_abort(NULL);

    /* a second good run replaces the folder as a whole: its files, and nothing of the
     * first run is left (not even a file the second run does not write) */
    o = outdir_open(d);
    write_text(outdir_path(o, "h.asc"), "second");
    CHECK(outdir_commit(o) == 0 && strcmp(read_text(f1), "second") == 0, "replaced");
    CHECK(!exists(f2), "the first run's frames/f1.txt went with its folder");

    /* where the file system has no atomic exchange: old aside, new in, old removed */
    outdir_set_exchange(0);
    o = outdir_open(d);
    write_text(outdir_path(o, "h.asc"), "third");
    CHECK(outdir_commit(o) == 0 && strcmp(read_text(f1), "third") == 0, "replaced without the exchange");
    outdir_set_exchange(1);

    /* what a killed run leaves beside DIR is cleaned by the next one: a staging folder
     * of a dead process, and an old folder of a run killed between the two renames of
     * the fallback (it is put back when DIR is missing) */
    char dead_stage[600], dead_old[600], cmd0[1300];
    snprintf(dead_stage, sizeof dead_stage, "%s/.run1.swgl-tmp-999999999", tmp_path("out"));
    snprintf(dead_old, sizeof dead_old, "%s/.run1.swgl-old-999999998", tmp_path("out"));
    mkdir(dead_stage, 0777);
    snprintf(cmd0, sizeof cmd0, "mv '%s' '%s'", d, dead_old);
    CHECK(system(cmd0) == 0 && !exists(d), "a run killed between the renames: DIR missing, its old folder aside");
    o = outdir_open(d);
    CHECK(o && !exists(dead_stage) && !exists(dead_old) && strcmp(read_text(f1), "third") == 0,
          "outdir_open removes a dead run's staging folder and puts the old folder back in place");
    outdir_abort(o);

    /* writing in the background (outdir_write_async): 40 files of 1 MB, each its own bytes,
     * queued past the writers, all in DIR after the commit; a grid as floats (grid_write_at,
     * .flt) goes the same way, its header beside it */
    o = outdir_open(d);
    enum { NF = 40, FB = 1 << 20 };
    int queued = 0;
    for (int k = 0; o && k < NF; k++) {
        unsigned char *b = malloc(FB);
        if (b) memset(b, 'a' + k % 26, FB);
        char name[32];
        snprintf(name, sizeof name, "bg/f%02d.bin", k);
        queued += b && outdir_write_async(o, name, b, FB) == SWGL_OK;
    }
    /* a name written twice while its first parts may still be queued: the second file is a
     * new one, only its bytes in DIR (the first's parts went to the file it unlinked) */
    unsigned char *first = malloc(FB), *second = malloc(16);
    if (first) memset(first, 'x', FB);
    if (second) memset(second, 'y', 16);
    CHECK(o && first && second && outdir_write_async(o, "twice.bin", first, FB) == SWGL_OK &&
              outdir_write_async(o, "twice.bin", second, 16) == SWGL_OK,
          "a name written twice: both queued");
    double gv[6] = {1, 2, 3, 4, 5, 6};
    swgl_status gst = o ? grid_write(o, "g", GRID_FORMAT_FLT, 3, 2, 0, 0, 1, 1, gv, NULL) : SWGL_ERR_IO;
    CHECK(queued == NF && gst == SWGL_OK, "40 files queued for the writers, and a .flt grid (%s)", swgl_last_error());
    CHECK(o && outdir_flush(o) == SWGL_OK, "flush: every write in (%s)", swgl_last_error());
    CHECK(o && outdir_commit(o) == SWGL_OK, "commit: %s", swgl_last_error());
    int right = 0;
    for (int k = 0; k < NF; k++) {
        char path[700];
        snprintf(path, sizeof path, "%s/bg/f%02d.bin", d, k);
        FILE *f = fopen(path, "rb");
        unsigned char *b = malloc(FB + 1);
        size_t got = f && b ? fread(b, 1, FB + 1, f) : 0;
        int same = got == FB;
        for (size_t q = 0; same && q < FB; q++) same = b[q] == 'a' + k % 26;
        right += same;
        if (f) fclose(f);
        free(b);
    }
    CHECK(right == NF, "the 40 files written in the background hold their bytes (%d of %d)", right, NF);
    {
        char path[700];
        snprintf(path, sizeof path, "%s/twice.bin", d);
        FILE *f = fopen(path, "rb");
        char b[32] = {0};
        size_t got = f ? fread(b, 1, sizeof b, f) : 0;
        if (f) fclose(f);
        CHECK(got == 16 && b[0] == 'y' && b[15] == 'y', "twice.bin holds the second file's 16 bytes alone (%zu)", got);
    }
    {
        char path[700];
        snprintf(path, sizeof path, "%s/g.flt", d);
        FILE *f = fopen(path, "rb");
        float fv[7];
        size_t got = f ? fread(fv, sizeof(float), 7, f) : 0;
        if (f) fclose(f);
        snprintf(path, sizeof path, "%s/g.hdr", d);
        CHECK(got == 6 && fv[0] == 4 && fv[2] == 6 && fv[3] == 1 && fv[5] == 3 && exists(path),
              "g.flt in the background: 6 floats, the northern row first, with g.hdr (%zu)", got);
    }
    /* a file that cannot be made (its name is a folder): refused at once, named; a write
     * that fails in the background (past the process's file size limit, RLIMIT_FSIZE, with
     * SIGXFSZ ignored: EFBIG): flush names the file, the commit puts nothing in place (DIR keeps
     * the last run's files, not this one's h.asc), the rest of the queue thrown away */
    o = outdir_open(d);
    if (o) {
        write_text(outdir_path(o, "h.asc"), "fourth");
        outdir_mkdirs(outdir_path(o, "adir"));
        unsigned char *b = malloc(16);
        CHECK(outdir_write_async(o, "adir", b, 16) == SWGL_ERR_IO && strstr(swgl_last_error(), "adir") &&
                  strstr(swgl_last_error(), "cannot create"),
              "a file whose name is a folder: refused when it is opened, named: %s", swgl_last_error());
        struct rlimit old_lim, lim;
        getrlimit(RLIMIT_FSIZE, &old_lim);
        lim = old_lim;
        lim.rlim_cur = 1 << 20;
        void (*old_sig)(int) = signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &lim);
        unsigned char *big = calloc(2 << 20, 1);
        swgl_status qst = outdir_write_async(o, "big.bin", big, 2 << 20);
        swgl_status fst = outdir_flush(o);
        setrlimit(RLIMIT_FSIZE, &old_lim);
        signal(SIGXFSZ, old_sig);
        CHECK(qst == SWGL_OK, "a write past the size limit is queued (its failure comes later)");
        CHECK(fst == SWGL_ERR_IO && strstr(swgl_last_error(), "big.bin") && strstr(swgl_last_error(), "write failed"),
              "flush gives the write that failed in the background, naming its file: %s", swgl_last_error());
        unsigned char *more = malloc(16);
        CHECK(outdir_write_async(o, "more.bin", more, 16) == SWGL_ERR_IO && strstr(swgl_last_error(), "big.bin"),
              "after a failed write the next write fails at once, naming the first failure: %s", swgl_last_error());
        char gflt[700];
        snprintf(gflt, sizeof gflt, "%s/g.flt", d);
        CHECK(outdir_commit(o) == SWGL_ERR_IO && !exists(f1) && exists(gflt),
              "the commit after a failed write puts nothing in place: DIR keeps the last run's files, not this "
              "one's h.asc (%s)", swgl_last_error());
    }
    /* abort with writes queued: they are waited for (or thrown away), nothing is left */
    o = outdir_open(d);
    for (int k = 0; o && k < 8; k++) {
        unsigned char *b = malloc(FB);
        if (b) memset(b, 'z', FB);
        char name[32];
        snprintf(name, sizeof name, "late%d.bin", k);
        if (b) outdir_write_async(o, name, b, FB);
    }
    outdir_abort(o);
    char late[700];
    snprintf(late, sizeof late, "%s/late0.bin", d);
    CHECK(!exists(stage) && !exists(late), "abort with writes queued: no staging folder left, nothing of it in DIR");

    /* a folder swgl did not write is never replaced */
    char foreign[600];
    snprintf(foreign, sizeof foreign, "%s/notes.txt", tmp_path("mine"));
    mkdir(tmp_path("mine"), 0777);
    write_text(foreign, "my notes");
    CHECK(outdir_open(tmp_path("mine")) == NULL && strstr(swgl_last_error(), "not written by swgl"),
          "a folder with other files is refused: %s", swgl_last_error());
    CHECK(strcmp(read_text(foreign), "my notes") == 0, "and left alone");
    CHECK(outdir_open(".") == NULL && strstr(swgl_last_error(), "not . or .."), "--out . is refused: %s",
          swgl_last_error());

    write_text(tmp_path("afile"), "x");
    CHECK(outdir_open(tmp_path("afile")) == NULL && strstr(swgl_last_error(), "cannot create folder"),
          "DIR is a file: %s", swgl_last_error());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0) printf("(could not remove %s)\n", tmp);
}

int main(void)
{
    snprintf(tmp, sizeof tmp, "%s/swgl-output-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmp)) {
        printf("cannot make a temporary folder\n");
        return 1;
    }
    test_asc_roundtrip();
    test_asc_variants();
    test_asc_hostile();
    test_raster_read();
    test_png();
    test_json();
    test_outdir();
    return check_done();
}

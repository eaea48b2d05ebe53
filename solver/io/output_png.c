/* output_png.c — pictures of a field: PNG (libpng) with a colour bar labelled with its end
 * values, a title and the units, drawn with a small built-in bitmap font.
 *
 * Layout (pixels; the field is nx*scale by ny*scale, north at the top):
 *
 *   +--------------------------------------------------+
 *   |  title                                           |   TITLE_H
 *   |  +-----------------+   +--+ vmax                 |
 *   |  |      field      |   |  | units                |
 *   |  +-----------------+   +--+ vmin                 |
 *   +--------------------------------------------------+
 *
 * Colour maps are piecewise-linear between a few control colours.  Hill shading, when a
 * relief field is given, is Lambert shading of the relief's surface lit from the
 * north-west 45 degrees up; the relief's slopes are scaled so that their root-mean-square
 * is about 0.7, since the picture knows no cell size (it is a picture, not a map).
 */
#include "output.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARGIN 10
#define FONT_SCALE 2                       /* each font pixel is 2x2 image pixels */
#define GLYPH_W 5
#define GLYPH_H 7
#define ADVANCE ((GLYPH_W + 1) * FONT_SCALE)
#define TEXT_H (GLYPH_H * FONT_SCALE)
#define TITLE_H (TEXT_H + 2 * MARGIN)
#define BAR_W 20
#define BAR_GAP 6

typedef struct image {
    int w, h;
    unsigned char *rgb;     /* w*h*3, row 0 at the top */
} image;

/* ---- the font: 5x7 glyphs, one byte per row, bit 4 the leftmost pixel ---------------- */

static const struct glyph { char c; unsigned char rows[GLYPH_H]; } font[] = {
    {'0', {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e}},
    {'1', {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e}},
    {'2', {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f}},
    {'3', {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e}},
    {'4', {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02}},
    {'5', {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e}},
    {'6', {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e}},
    {'7', {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e}},
    {'9', {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c}},
    {'A', {0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}},
    {'B', {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e}},
    {'C', {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e}},
    {'D', {0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c}},
    {'E', {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f}},
    {'F', {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10}},
    {'G', {0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f}},
    {'H', {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}},
    {'I', {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}},
    {'J', {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c}},
    {'K', {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}},
    {'L', {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f}},
    {'M', {0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11}},
    {'N', {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}},
    {'O', {0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}},
    {'P', {0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10}},
    {'Q', {0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d}},
    {'R', {0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11}},
    {'S', {0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e}},
    {'T', {0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
    {'U', {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}},
    {'V', {0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04}},
    {'W', {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a}},
    {'X', {0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11}},
    {'Y', {0x11, 0x11, 0x0a, 0x04, 0x04, 0x04, 0x04}},
    {'Z', {0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f}},
    {'a', {0x00, 0x00, 0x0e, 0x01, 0x0f, 0x11, 0x0f}},
    {'b', {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1e}},
    {'c', {0x00, 0x00, 0x0e, 0x10, 0x10, 0x11, 0x0e}},
    {'d', {0x01, 0x01, 0x0d, 0x13, 0x11, 0x11, 0x0f}},
    {'e', {0x00, 0x00, 0x0e, 0x11, 0x1f, 0x10, 0x0e}},
    {'f', {0x06, 0x09, 0x08, 0x1c, 0x08, 0x08, 0x08}},
    {'g', {0x00, 0x0f, 0x11, 0x11, 0x0f, 0x01, 0x0e}},
    {'h', {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11}},
    {'i', {0x04, 0x00, 0x0c, 0x04, 0x04, 0x04, 0x0e}},
    {'j', {0x02, 0x00, 0x06, 0x02, 0x02, 0x12, 0x0c}},
    {'k', {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12}},
    {'l', {0x0c, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}},
    {'m', {0x00, 0x00, 0x1a, 0x15, 0x15, 0x11, 0x11}},
    {'n', {0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11}},
    {'o', {0x00, 0x00, 0x0e, 0x11, 0x11, 0x11, 0x0e}},
    {'p', {0x00, 0x00, 0x1e, 0x11, 0x1e, 0x10, 0x10}},
    {'q', {0x00, 0x00, 0x0d, 0x13, 0x0f, 0x01, 0x01}},
    {'r', {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10}},
    {'s', {0x00, 0x00, 0x0e, 0x10, 0x0e, 0x01, 0x1e}},
    {'t', {0x08, 0x08, 0x1c, 0x08, 0x08, 0x09, 0x06}},
    {'u', {0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0d}},
    {'v', {0x00, 0x00, 0x11, 0x11, 0x11, 0x0a, 0x04}},
    {'w', {0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0a}},
    {'x', {0x00, 0x00, 0x11, 0x0a, 0x04, 0x0a, 0x11}},
    {'y', {0x00, 0x00, 0x11, 0x11, 0x0f, 0x01, 0x0e}},
    {'z', {0x00, 0x00, 0x1f, 0x02, 0x04, 0x08, 0x1f}},
    {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c}},
    {'-', {0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00}},
    {'+', {0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00}},
    {'/', {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00}},
    {'^', {0x04, 0x0a, 0x11, 0x00, 0x00, 0x00, 0x00}},
    {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}},
    {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}},
    {':', {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00}},
    {',', {0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08}},
    {'=', {0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00}},
    {'_', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f}},
    {'[', {0x0e, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0e}},
    {']', {0x0e, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0e}},
    {'%', {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}},
    {'\'', {0x04, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00}},
    {'*', {0x00, 0x04, 0x15, 0x0e, 0x15, 0x04, 0x00}},
};

static const struct glyph *find_glyph(char c)
{
    for (size_t i = 0; i < sizeof font / sizeof font[0]; i++)
        if (font[i].c == c) return &font[i];
    return NULL;     /* space and unknown characters: blank */
}

static void put_pixel(image *im, int x, int y, const unsigned char c[3])
{
    if (x < 0 || y < 0 || x >= im->w || y >= im->h) return;
    memcpy(im->rgb + 3 * ((size_t)y * (size_t)im->w + (size_t)x), c, 3);
}

static void fill_rect(image *im, int x0, int y0, int w, int h, const unsigned char c[3])
{
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++) put_pixel(im, x, y, c);
}

/* Draws text with its top-left corner at (x, y). */
static void draw_text(image *im, int x, int y, const char *s, const unsigned char c[3])
{
    for (; *s; s++, x += ADVANCE) {
        const struct glyph *g = find_glyph(*s);
        if (!g) continue;
        for (int r = 0; r < GLYPH_H; r++)
            for (int b = 0; b < GLYPH_W; b++)
                if (g->rows[r] & (0x10 >> b))
                    fill_rect(im, x + b * FONT_SCALE, y + r * FONT_SCALE, FONT_SCALE, FONT_SCALE, c);
    }
}

static int text_width(const char *s)
{
    return s ? (int)strlen(s) * ADVANCE : 0;
}

/* ---- colour maps ------------------------------------------------------------------- */

static const unsigned char cmap_depth[][3] = {
    {255, 255, 255}, {160, 200, 240}, {40, 110, 210}, {10, 40, 130}, {5, 15, 60}};
static const unsigned char cmap_diverging[][3] = {
    {40, 60, 180}, {130, 160, 230}, {245, 245, 245}, {230, 140, 110}, {170, 10, 30}};
static const unsigned char cmap_viridis[][3] = {
    {68, 1, 84}, {72, 40, 120}, {62, 74, 137}, {49, 104, 142}, {38, 130, 142},
    {31, 158, 137}, {53, 183, 121}, {109, 205, 89}, {180, 222, 44}, {253, 231, 37}};
static const unsigned char cmap_terrain[][3] = {{45, 45, 45}, {240, 240, 240}};

/* The colour of t in [0, 1] in map m. */
static void colour_at(enum colormap m, double t, unsigned char out[3])
{
    const unsigned char (*c)[3];
    int n;
    switch (m) {
    case CMAP_DIVERGING: c = cmap_diverging; n = 5; break;
    case CMAP_VIRIDIS: c = cmap_viridis; n = 10; break;
    case CMAP_TERRAIN: c = cmap_terrain; n = 2; break;
    default: c = cmap_depth; n = 5; break;
    }
    if (!(t > 0)) t = 0;
    if (t > 1) t = 1;
    double s = t * (n - 1);
    int k = (int)s;
    if (k >= n - 1) k = n - 2;
    double f = s - k;
    for (int i = 0; i < 3; i++)
        out[i] = (unsigned char)lround(c[k][i] + f * (c[k + 1][i] - c[k][i]));
}

/* ---- hill shading ------------------------------------------------------------------ */

static double relief_at(const double *z, const unsigned char *mask, int nx, int i, int j,
                        double fallback)
{
    size_t k = (size_t)j * (size_t)nx + (size_t)i;
    if ((mask && !mask[k]) || !isfinite(z[k])) return fallback;
    return z[k];
}

/* Slopes (cells as the unit of length) of the relief at every cell: 2*nx*ny values. */
static double *relief_slopes(const double *z, const unsigned char *mask, int nx, int ny)
{
    double *s = malloc(2 * (size_t)nx * (size_t)ny * sizeof *s), *rows = malloc((size_t)ny * sizeof *rows);
    if (!s || !rows) {
        free(s);
        free(rows);
        return NULL;
    }
    /* (a row a thread; the rows' sums of squares added in order: the same bits on any count) */
#pragma omp parallel for schedule(static) if ((long)nx * ny >= 1 << 16)
    for (int j = 0; j < ny; j++) {
        double row = 0;
        for (int i = 0; i < nx; i++) {
            size_t k = (size_t)j * (size_t)nx + (size_t)i;
            double c = relief_at(z, mask, nx, i, j, 0);
            int iw = i > 0 ? i - 1 : i, ie = i < nx - 1 ? i + 1 : i;
            int js = j > 0 ? j - 1 : j, jn = j < ny - 1 ? j + 1 : j;
            double p = ie > iw ? (relief_at(z, mask, nx, ie, j, c) - relief_at(z, mask, nx, iw, j, c)) / (ie - iw) : 0;
            double q = jn > js ? (relief_at(z, mask, nx, i, jn, c) - relief_at(z, mask, nx, i, js, c)) / (jn - js) : 0;
            s[2 * k] = p;
            s[2 * k + 1] = q;
            row += p * p + q * q;
        }
        rows[j] = row;
    }
    double sum = 0;
    for (int j = 0; j < ny; j++) sum += rows[j];
    free(rows);
    size_t count = (size_t)nx * (size_t)ny;
    double rms = count ? sqrt(sum / (double)count) : 0;
    double f = rms > 0 ? 0.7 / rms : 0;
    for (size_t k = 0; k < 2 * count; k++) s[k] *= f;
    return s;
}

/* Brightness factor, about 1 on flat ground, from the scaled slopes p (east), q (north). */
static double shade(double p, double q)
{
    /* normal (-p, -q, 1), light from the north-west: (-1, 1, 1) / sqrt 3 */
    double lambert = (p - q + 1) / (sqrt(3.0) * sqrt(1 + p * p + q * q));
    double f = 0.6 + 0.4 * lambert * sqrt(3.0);
    return f < 0.45 ? 0.45 : f > 1.2 ? 1.2 : f;
}

/* ---- composing the picture --------------------------------------------------------- */

static void draw_field(image *im, int x0, int y0, int nx, int ny, int scale, const double *v,
                       const unsigned char *mask, const double *slopes, double vmin,
                       double vmax, enum colormap cmap)
{
    static const unsigned char grey[3] = {128, 128, 128};
    /* (a row of cells a thread: the rows of pixels they fill are their own) */
#pragma omp parallel for schedule(static) if ((long)nx * ny >= 1 << 16)
    for (int j = 0; j < ny; j++) {
        for (int i = 0; i < nx; i++) {
            size_t k = (size_t)j * (size_t)nx + (size_t)i;
            unsigned char c[3];
            if ((mask && !mask[k]) || !isfinite(v[k])) {
                memcpy(c, grey, 3);
            } else {
                colour_at(cmap, vmax > vmin ? (v[k] - vmin) / (vmax - vmin) : 0.5, c);
                if (slopes) {
                    double f = shade(slopes[2 * k], slopes[2 * k + 1]);
                    for (int b = 0; b < 3; b++) c[b] = (unsigned char)fmin(255, c[b] * f);
                }
            }
            fill_rect(im, x0 + i * scale, y0 + (ny - 1 - j) * scale, scale, scale, c);
        }
    }
}

static void draw_bar(image *im, int x0, int y0, int h, enum colormap cmap, double vmin,
                     double vmax, const char *units)
{
    static const unsigned char black[3] = {0, 0, 0};
    for (int y = 0; y < h; y++) {
        unsigned char c[3];
        colour_at(cmap, h > 1 ? 1.0 - (double)y / (h - 1) : 0.5, c);
        fill_rect(im, x0, y0 + y, BAR_W, 1, c);
    }
    char lab[32];
    int xl = x0 + BAR_W + BAR_GAP;
    snprintf(lab, sizeof lab, "%.4g", vmax);
    draw_text(im, xl, y0, lab, black);
    snprintf(lab, sizeof lab, "%.4g", vmin);
    draw_text(im, xl, y0 + h - TEXT_H, lab, black);
    if (units && h >= 3 * TEXT_H + 4) draw_text(im, xl, y0 + (h - TEXT_H) / 2, units, black);
}

static swgl_status write_png_file(const char *path, const image *im)
{
    FILE *f = fopen(path, "wb");
    if (!f) return swgl_fail(SWGL_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep *rows = malloc((size_t)im->h * sizeof *rows);
    if (!png || !info || !rows) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        free(rows);
        fclose(f);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    for (int y = 0; y < im->h; y++) rows[y] = im->rgb + (size_t)y * (size_t)im->w * 3;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        fclose(f);
        return swgl_fail(SWGL_ERR_IO, "%s: libpng could not write the picture", path);
    }
    png_init_io(png, f);
    /* zlib's fastest level: a 2048^2 picture in about a quarter of the default's time, some
     * 10-20% larger (the pictures are for looking at; the numbers are in the grids) */
    png_set_compression_level(png, 1);
    png_set_filter(png, 0, PNG_FILTER_SUB);   /* (one filter, not the best of five a row) */
    png_set_IHDR(png, info, (png_uint_32)im->w, (png_uint_32)im->h, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    if (fclose(f) != 0) return swgl_fail(SWGL_ERR_IO, "%s: write error", path);
    return SWGL_OK;
}

#define PNG_AUTO_SIDE 2048   /* px: scale 0 draws a larger grid every so many cells */

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

swgl_status png_write_field(const char *path, int nx, int ny, const double *v,
                            const unsigned char *mask, const double *relief, double vmin,
                            double vmax, enum colormap cmap, int scale, const char *title,
                            const char *units)
{
    return png_write_field_at(path, nx, ny, v, (size_t)nx, mask, relief, vmin, vmax, cmap, scale, title, units);
}

swgl_status png_write_field_at(const char *path, int nx, int ny, const double *v, size_t v_stride,
                               const unsigned char *mask, const double *relief, double vmin, double vmax,
                               enum colormap cmap, int scale, const char *title, const char *units)
{
    static const unsigned char black[3] = {0, 0, 0};
    if (!path || nx < 1 || ny < 1 || !v)
        return swgl_fail(SWGL_ERR_ARG, "%s: png_write_field: bad arguments",
                         path ? path : "(no path)");
    if (scale <= 0 && (nx > PNG_AUTO_SIDE || ny > PNG_AUTO_SIDE)) {
        /* a large grid (scale 0): every step-th cell, the middle one of each step x step
         * block, so that the picture keeps about PNG_AUTO_SIDE px on its longer side (a 4096^2
         * grid's full-size picture took a second to draw, as long as its grids to write) */
        int step = (max_int(nx, ny) + PNG_AUTO_SIDE - 1) / PNG_AUTO_SIDE;
        int mx = (nx + step - 1) / step, my = (ny + step - 1) / step;
        size_t m = (size_t)mx * (size_t)my;
        double *v2 = malloc(m * sizeof *v2), *r2 = relief ? malloc(m * sizeof *r2) : NULL;
        unsigned char *k2 = mask ? malloc(m) : NULL;
        swgl_status st = SWGL_OK;
        if (!v2 || (relief && !r2) || (mask && !k2)) {
            st = swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", path);
        } else {
#pragma omp parallel for schedule(static)
            for (int j2 = 0; j2 < my; j2++)
                for (int i2 = 0; i2 < mx; i2++) {
                    int i = i2 * step + step / 2, j = j2 * step + step / 2;
                    size_t jc = (size_t)(j < ny ? j : ny - 1), ic = (size_t)(i < nx ? i : nx - 1);
                    size_t k = jc * (size_t)nx + ic;
                    size_t q = (size_t)j2 * (size_t)mx + (size_t)i2;
                    v2[q] = v[jc * v_stride + ic];
                    if (r2) r2[q] = relief[k];
                    if (k2) k2[q] = mask[k];
                }
            st = png_write_field(path, mx, my, v2, k2, r2, vmin, vmax, cmap, 1, title, units);
        }
        free(v2);
        free(r2);
        free(k2);
        return st;
    }
    if (v_stride != (size_t)nx) {   /* (drawn cell by cell: the field's rows copied together first) */
        double *vc = malloc((size_t)nx * (size_t)ny * sizeof *vc);
        if (!vc) return swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", path);
        for (int j = 0; j < ny; j++) memcpy(vc + (size_t)j * nx, v + (size_t)j * v_stride, (size_t)nx * sizeof *vc);
        swgl_status st =
            png_write_field_at(path, nx, ny, vc, (size_t)nx, mask, relief, vmin, vmax, cmap, scale, title, units);
        free(vc);
        return st;
    }
    if (scale <= 0) {   /* about 800 pixels wide, and no side past 20000 */
        scale = max_int(1, 800 / nx);
        if ((long long)ny * scale > 20000) scale = max_int(1, 20000 / ny);
    }
    if ((long long)nx * scale > 20000 || (long long)ny * scale > 20000)
        return swgl_fail(SWGL_ERR_ARG, "%s: picture too large (%d x %d cells at scale %d)", path,
                         nx, ny, scale);
    char lo[32], hi[32];
    snprintf(lo, sizeof lo, "%.4g", vmin);
    snprintf(hi, sizeof hi, "%.4g", vmax);
    int fw = nx * scale, fh = ny * scale;
    int bar_h = max_int(fh, 3 * TEXT_H + 8);
    int label_w = max_int(max_int(text_width(lo), text_width(hi)), text_width(units));
    image im;
    im.w = max_int(MARGIN + fw + MARGIN + BAR_W + BAR_GAP + label_w + MARGIN,
                   2 * MARGIN + text_width(title));
    im.h = TITLE_H + bar_h + MARGIN;
    im.rgb = malloc((size_t)im.w * (size_t)im.h * 3);
    double *slopes = relief ? relief_slopes(relief, mask, nx, ny) : NULL;
    if (!im.rgb || (relief && !slopes)) {
        free(im.rgb);
        free(slopes);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    memset(im.rgb, 255, (size_t)im.w * (size_t)im.h * 3);
    if (title) draw_text(&im, MARGIN, MARGIN, title, black);
    draw_field(&im, MARGIN, TITLE_H, nx, ny, scale, v, mask, slopes, vmin, vmax, cmap);
    draw_bar(&im, MARGIN + fw + MARGIN, TITLE_H, bar_h, cmap, vmin, vmax, units);
    swgl_status st = write_png_file(path, &im);
    free(im.rgb);
    free(slopes);
    return st;
}

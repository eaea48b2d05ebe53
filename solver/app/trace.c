/* trace.c — swgl trace: the passes of one step made visible (Lastra's design: arrays are
 * textures, kernels are passes).  Runs N steps of a scenario on the GPU backend and, for
 * the last one, writes every pass's input and output arrays, each component of each
 * texel as a colour-mapped PNG with its range, and DIR/index.html listing the passes in
 * order with their shader file, the file's own description of what its texels and
 * components hold (its header comment), and the pictures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpu_context.h"
#include "gpu_pass.h"
#include "output.h"
#include "run.h"

typedef struct trace_ctx {
    const char *dir;
    FILE *html;
    int pass;
    swgl_status st;
} trace_ctx;

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else fputc(*s, f);
    }
}

/* an array's components as PNGs and a row of the page */
static void picture(trace_ctx *c, const char *role, const char *name, const gpu_array2d *a)
{
    int w = gpu_array2d_width(a), h = gpu_array2d_height(a), dbl = gpu_array2d_format(a) == GPU_RGBA32UI;
    size_t n = (size_t)w * h;
    void *buf = malloc(4 * n * sizeof(float) * (dbl ? 1 : 1));
    double *v = malloc(n * sizeof(double));
    unsigned char *ok = malloc(n);
    if (!buf || !v || !ok || gpu_array2d_download(a, buf) != SWGL_OK) {
        free(buf), free(v), free(ok);
        return;
    }
    int ncomp = dbl ? 2 : 4;   /* RGBA32UI: two packed doubles a texel */
    fprintf(c->html, "<tr><td>%s <code>", role);
    html_text(c->html, name);
    fprintf(c->html, "</code><br><small>%s, %d x %d%s</small></td>", gpu_array2d_label(a), w, h,
            dbl ? ", two doubles a texel" : "");
    for (int comp = 0; comp < ncomp; comp++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t k = 0; k < n; k++) {
            v[k] = dbl ? ((const double *)buf)[2 * k + comp] : ((const float *)buf)[4 * k + comp];
            ok[k] = isfinite(v[k]);
            if (ok[k]) lo = fmin(lo, v[k]), hi = fmax(hi, v[k]);
        }
        if (!(lo <= hi)) lo = hi = 0;
        char file[160], path[1200], title[96];
        snprintf(file, sizeof file, "p%03d_%s_%.40s_%c.png", c->pass, role, name, dbl ? "ab"[comp] : "xyzw"[comp]);
        snprintf(path, sizeof path, "%s/%s", c->dir, file);
        snprintf(title, sizeof title, "%.40s.%c", name, dbl ? "ab"[comp] : "xyzw"[comp]);
        if (png_write_field(path, w, h, v, ok, NULL, lo, hi > lo ? hi : lo + 1, CMAP_VIRIDIS, w < 64 ? 4 : 0, title, "") ==
            SWGL_OK)
            fprintf(c->html, "<td><img src=\"%s\" width=\"240\"><br><small>%c: [%.6g, %.6g]%s</small></td>", file,
                    dbl ? "ab"[comp] : "xyzw"[comp], lo, hi, n > 0 && lo == hi ? " constant" : "");
    }
    fputs("</tr>\n", c->html);
    free(buf), free(v), free(ok);
}

static void on_draw(void *user, const gpu_pass *p, gpu_array2d *const *outs, int n_outs)
{
    trace_ctx *c = user;
    const char *name = gpu_program_name(p->program);
    char file[96];
    snprintf(file, sizeof file, "%.80s.glsl", name);
    fprintf(c->html, "<h2>%d. <code>", c->pass + 1);
    html_text(c->html, file);
    fputs("</code></h2>\n<pre>", c->html);
    const char *src = gpu_shader_source(file);
    for (const char *s = src; s && strncmp(s, "//", 2) == 0;) {   /* the file's header comment */
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        char line[512];
        snprintf(line, sizeof line, "%.*s\n", (int)(len > 500 ? 500 : len), s);
        html_text(c->html, line);
        if (!e) break;
        s = e + 1;
    }
    fputs("</pre>\n<table>\n", c->html);
    for (int i = 0; i < p->n_inputs; i++) picture(c, "in", p->inputs[i].name, p->inputs[i].array);
    for (int k = 0; k < n_outs; k++) {
        char oname[32];
        snprintf(oname, sizeof oname, "target%d", k);
        picture(c, "out", oname, outs[k]);
    }
    fputs("</table>\n", c->html);
    c->pass++;
}

int cmd_trace(int argc, char **argv)
{
    const char *file = NULL, *casename = NULL, *out = "trace";
    long steps = 1;
    int device = -1, nsets = 0;
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    for (int i = 0; i < argc; i++) {
        int more = i + 1 < argc;
        if (strcmp(argv[i], "--case") == 0 && more) casename = argv[++i];
        else if (strcmp(argv[i], "--out") == 0 && more) out = argv[++i];
        else if (strcmp(argv[i], "--steps") == 0 && more) steps = atol(argv[++i]);
        else if (strcmp(argv[i], "--set") == 0 && more) sets[nsets++] = argv[++i];
        else if (strcmp(argv[i], "--device") == 0 && more) device = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !file) file = argv[i];
        else {
            fprintf(stderr, "swgl trace: unexpected '%s'; usage: swgl trace SCENARIO|--case NAME [--steps N] "
                            "[--out DIR] [--set K=V] [--device N]\n", argv[i]);
            free(sets);
            return 2;
        }
    }
    if (steps < 1 || (!file && !casename) || (file && casename)) {
        fprintf(stderr, "swgl trace: give a scenario file or --case NAME, and --steps N >= 1\n");
        free(sets);
        return 2;
    }
    scenario sc;
    swgl_status st = file ? scenario_load(&sc, file, sets, nsets) : scenario_load_case(&sc, casename, sets, nsets);
    free(sets);
    if (st != SWGL_OK) {
        fprintf(stderr, "swgl: %s\n", swgl_last_error());
        return 1;
    }
    const scheme_desc *d = scheme_find(sc.scheme);
    scheme_setup s;
    memset(&s, 0, sizeof s);
    gpu_context *ctx = NULL;
    scheme_inst in;
    memset(&in, 0, sizeof in);
    trace_ctx tc = {out, NULL, 0, SWGL_OK};
    int rc = 1;
    gpu_context_desc gd = {.device = device, .use_device = device >= 0};
    if (!d || (st = d->setup(&sc, &s)) != SWGL_OK || (st = gpu_context_create(&gd, &ctx)) != SWGL_OK) goto done;
    scheme_config cfg = {.backend = BACKEND_GPU, .renderer = gpu_context_info(ctx)->renderer,
                         .has_fp64 = gpu_context_info(ctx)->has_fp64};
    if ((st = scheme_open(&in, d, BACKEND_GPU, &s, &cfg)) != SWGL_OK) goto done;
    mkdir(out, 0777);
    char path[1100];
    snprintf(path, sizeof path, "%s/index.html", out);
    if (!(tc.html = fopen(path, "w"))) {
        st = swgl_fail(SWGL_ERR_IO, "%s: cannot write", path);
        goto done;
    }
    fprintf(tc.html, "<!doctype html><meta charset=\"utf-8\"><title>swgl trace</title>\n"
                     "<style>body{font-family:sans-serif;max-width:1400px}img{image-rendering:pixelated}"
                     "pre{background:#f4f4f4;padding:6px}td{vertical-align:top;padding:4px}</style>\n"
                     "<h1>swgl trace: %s, step %ld on %s</h1>\n<p>Every pass of the step in the order it ran: its "
                     "shader, what the shader says its texels hold, and each component of each input and output "
                     "array as a picture (row 0, the south, at the bottom; grey: not a finite number), with its "
                     "range.</p>\n", sc.source, steps, in.name);
    double t = 0, dt = 0, bound;
    for (long n = 1; n <= steps && st == SWGL_OK; n++) {
        if (n == steps) gpu_pass_trace(on_draw, &tc);
        if (in.be->set_time) in.be->set_time(in.self, t, s.t_end);
        st = in.be->stage(in.self, 0, &bound);
        dt = bound < s.t_end - t ? bound : s.t_end - t;
        if (st == SWGL_OK && !(dt > 0)) st = swgl_fail(SWGL_ERR_BLOWUP, "step %ld: no step to take (bound %g)", n, bound);
        if (st == SWGL_OK) st = in.be->advance(in.self, 0, dt);
        for (int k = 1; st == SWGL_OK && k < in.be->stages(in.self); k++) {
            double b2;
            if ((st = in.be->stage(in.self, k, &b2)) == SWGL_OK) st = in.be->advance(in.self, k, dt);
        }
        if (in.be->finish) in.be->finish(in.self);
        t += dt;
    }
    gpu_pass_trace(NULL, NULL);
    fprintf(tc.html, "<p>%d passes; t = %.9g s after step %ld (dt = %.6g s).</p>\n", tc.pass, t, steps, dt);
    if (st == SWGL_OK) {
        printf("%s: %d passes of step %ld traced into %s/index.html\n", sc.source, tc.pass, steps, out);
        rc = 0;
    }
done:
    if (tc.html) fclose(tc.html);
    if (rc) fprintf(stderr, "swgl: %s\n", swgl_last_error());
    scheme_close(&in);
    if (d && s.problem) d->setup_free(&s);
    gpu_context_destroy(ctx);
    scenario_free(&sc);
    return rc;
}

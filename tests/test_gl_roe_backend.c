/* test_gl_roe_backend.c — the Roe GPU solver behind its interfaces: what roe_gpu_create
 * refuses (the one validation of the CPU solvers); what each backend says it is for each
 * --precision and what it refuses (--precision double without fp64); the pass mode of
 * gpu and gpu-compute instances open together. */
#include "gl_roe_util.h"
#include "keys.h"

/* The one validation (swe_problem_check) guards the GPU solver as it guards the CPU ones. */
static void refused(void)
{
    double H[16] = {0};
    unsigned char code[16];
    memset(code, CELL_WALL, sizeof code);
    code[5] = code[6] = code[9] = code[10] = CELL_ACTIVE;
    swe_problem p = {.nx = 2, .ny = 2, .dx = 1, .dy = 1, .g = 9.81, .cfl = 0.0, .h_dry = 1e-5, .H = H, .code = code};
    roe_gpu *r = NULL;
    swgl_status st = roe_gpu_create(&p, &r);
    CHECK(st == SWGL_ERR_ARG && r == NULL && strstr(swgl_last_error(), "cfl"),
          "cfl = 0 is refused by the GPU solver as by the CPU ones: \"%s\"", swgl_last_error());
    roe_gpu_destroy(r);
    p.cfl = 0.9;
    p.dx = -1;
    st = roe_gpu_create(&p, &r);
    CHECK(st == SWGL_ERR_ARG && r == NULL, "dx < 0 is refused by the GPU solver: \"%s\"", swgl_last_error());
    roe_gpu_destroy(r);
}

/* What each backend says it is for each --precision, and what it refuses. */
static void precision_wiring(const gpu_info *info)
{
    scenario sc;
    scheme_setup s;
    const scheme_desc *d = scheme_find("roe");
    const char *sets[] = {"domain.level=0"};
    memset(&sc, 0, sizeof sc);
    if (scenario_load_case(&sc, "lastra-test1", sets, 1) || d->setup(&sc, &s)) {
        CHECK(0, "load: %s", swgl_last_error());
        return;
    }
    struct {
        enum backend b;
        enum precision_choice p;
        int fp64;
        const char *name, *prec;   /* expected: name prefix and precision; NULL name: refused */
    } cases[] = {
        {BACKEND_GPU, PRECISION_AUTO, 1, "gpu (float, ", "single"},
        {BACKEND_GPU, PRECISION_SINGLE, 1, "gpu (float, ", "single"},
        {BACKEND_GPU, PRECISION_DOUBLE, 1, "gpu (double, ", "double"},
        {BACKEND_GPU, PRECISION_DOUBLE, 0, NULL, NULL},
        {BACKEND_CPU, PRECISION_AUTO, 0, "cpu (float, ", "single"},
        {BACKEND_CPU, PRECISION_DOUBLE, 0, "cpu (double, ", "double"},
        {BACKEND_CPU_SCALAR, PRECISION_AUTO, 0, "cpu-scalar (double)", "double"},
        {BACKEND_CPU_SCALAR, PRECISION_DOUBLE, 0, "cpu-scalar (double)", "double"},
        /* the reference stays double whatever --precision says (--compare cpu-scalar) */
        {BACKEND_CPU_SCALAR, PRECISION_SINGLE, 0, "cpu-scalar (double)", "double"},
    };
    static const char *pname[3] = {"(default)", "single", "double"};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (cases[c].fp64 && !info->has_fp64) continue;
        scheme_config cfg = {.renderer = info->renderer, .has_fp64 = cases[c].fp64, .precision = cases[c].p};
        scheme_inst e;
        swgl_clear_error();
        swgl_status st = scheme_open(&e, d, cases[c].b, &s, &cfg);
        if (!cases[c].name) {
            const char *msg = swgl_last_error();
            int named = strstr(msg, "--precision double") && strstr(msg, info->renderer);
            CHECK(st == SWGL_ERR_ARG && named, "%s --precision %s%s: refused, \"%s\"", backend_name(cases[c].b),
                  pname[cases[c].p], cases[c].b == BACKEND_GPU ? " without fp64" : "", msg);
            if (st == SWGL_OK) scheme_close(&e);
            continue;
        }
        const char *prec = st == SWGL_OK ? e.be->precision(e.self) : "?";
        char nm[sizeof e.name];   /* compute passes (--compute): "gpu-compute (...)" stands for "gpu (...)" */
        snprintf(nm, sizeof nm, "%s", e.name);
        if (gpu_compute_passes() && strncmp(nm, "gpu-compute", 11) == 0) snprintf(nm, sizeof nm, "gpu%.300s", e.name + 11);
        CHECK(st == SWGL_OK && strncmp(nm, cases[c].name, strlen(cases[c].name)) == 0 &&
                  strcmp(prec, cases[c].prec) == 0,
              "%s --precision %s: \"%s\", precision %s", backend_name(cases[c].b), pname[cases[c].p],
              st == SWGL_OK ? e.name : swgl_last_error(), prec);
        if (st == SWGL_OK) scheme_close(&e);
    }
    /* the pass mode is the process's while GPU instances are open: gpu-compute, then gpu
     * while it is open, is refused; two gpu-compute instances closed in either order
     * leave a later gpu instance a fragment one (not with --compute, which
     * makes every instance compute) */
    if (gpu_compute_available() && !gpu_compute_passes()) {
        scheme_config cfg = {.renderer = info->renderer, .has_fp64 = info->has_fp64};
        scheme_inst a, b2, c2;
        swgl_status sa = scheme_open(&a, d, BACKEND_GPU_COMPUTE, &s, &cfg);
        swgl_status sb = scheme_open(&b2, d, BACKEND_GPU, &s, &cfg);
        CHECK(sa == SWGL_OK && sb == SWGL_ERR_ARG && strstr(swgl_last_error(), "while a gpu-compute one is open"),
              "gpu while gpu-compute is open: refused (\"%s\")", swgl_last_error());
        swgl_status sc2 = scheme_open(&c2, d, BACKEND_GPU_COMPUTE, &s, &cfg);
        CHECK(sc2 == SWGL_OK && strncmp(c2.name, "gpu-compute", 11) == 0, "a second gpu-compute instance: \"%s\"",
              sc2 == SWGL_OK ? c2.name : swgl_last_error());
        scheme_close(&a);   /* the first opened closes first */
        CHECK(gpu_compute_passes() == 1, "one gpu-compute instance still open: compute passes");
        scheme_close(&c2);
        CHECK(gpu_compute_passes() == 0, "none open: fragment passes again");
        sb = scheme_open(&b2, d, BACKEND_GPU, &s, &cfg);
        CHECK(sb == SWGL_OK && strncmp(b2.name, "gpu (", 5) == 0, "then gpu: \"%s\"",
              sb == SWGL_OK ? b2.name : swgl_last_error());
        if (sb == SWGL_OK) scheme_close(&b2);
    }
    d->setup_free(&s);
    scenario_free(&sc);
}

int main(void)
{
    scheme_keys_install();   /* the schemes' keys, before a scenario is read */
    gpu_context *ctx = test_gl_context();
    refused();
    precision_wiring(gpu_context_info(ctx));
    gpu_context_destroy(ctx);
    return check_done();
}

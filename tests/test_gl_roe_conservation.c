/* test_gl_roe_conservation.c — the Roe scheme on the GPU (Lastra et al. 2009), what it
 * conserves, on small built-in cases (gl_roe_util.h):
 *  - lake at rest over the Test-1 bed and over an emerged island stays at rest;
 *  - mass is conserved with walls;
 *  - a case and its copy rotated by 90 degrees give the same answer. */
#include "gl_roe_util.h"
#include "keys.h"

static void lake_at_rest(const char *renderer)
{
    const char *test1[] = {"run.t_end=100", "initial.eta=1.5"};   /* wet everywhere over the Test-1 bed */
    const char *island[] = {"run.t_end=100"};
    struct { const char *name, *const *sets; int n; const char *what; } cases[] = {
        {"lastra-test1", test1, 2, "Test-1 bed, all wet"},
        {"lake-at-rest", island, 1, "bumpy bed with an emerged island"},
    };
    for (int c = 0; c < 2; c++) {
        result r;
        if (run_case(cases[c].name, cases[c].sets, cases[c].n, BACKEND_GPU, 200, renderer, &r)) {
            CHECK(0, "lake at rest run");
            continue;
        }
        double qmax = 0, dev = 0, eta0 = c == 0 ? 1.5 : 0.0;
        int dry = 0;
        for (size_t k = 0; k < grid_size(r.nx, r.ny); k++) {
            if (r.code[k] != CELL_ACTIVE) continue;
            qmax = fmax(qmax, fmax(fabs(r.qx[k]), fabs(r.qy[k])));
            if (r.h[k] > 0) dev = fmax(dev, fabs(r.h[k] - r.H[k] - eta0));
            else dry++;
        }
        /* float: h ~ 2 m carries 2^-23 * 2 = 2.4e-7 m of rounding; the residual cancels term by term,
           so what remains is a few ulps per step that the scheme does not amplify */
        CHECK_LE(qmax, 1e-5, "GPU lake at rest (%s), 200 steps: max |q| (m^2/s), float bound 1e-5", cases[c].what);
        CHECK_LE(dev, 1e-5, "GPU lake at rest (%s), 200 steps: max |eta - eta0| (m), float bound 1e-5", cases[c].what);
        if (c == 1) CHECK(dry > 0, "the island stays dry (%d dry cells)", dry);
        result_free(&r);
    }
}

static void mass_and_rotation(const char *renderer)
{
    const char *x[] = {"run.t_end=1"};
    const char *y[] = {"run.t_end=1", "domain.nx=10", "domain.ny=100", "domain.bed=-(1 - cos(2*pi*y)/2)",
                       "initial.eta=y < 5 ? 2 : 0"};
    result a, b;
    if (run_case("lastra-test1", x, 1, BACKEND_GPU, 0, renderer, &a) ||
        run_case("lastra-test1", y, 5, BACKEND_GPU, 0, renderer, &b)) {
        CHECK(0, "rotation runs");
        return;
    }
    /* float rounding of each update, at most one ulp of h per cell and step */
    double bound = (double)a.steps * ldexp(1.0, -23);
    CHECK_LE(fabs(a.mass1 - a.mass0) / a.mass0, bound,
             "GPU mass with walls, lastra-test1 to 1 s: relative change <= steps * 2^-23 (%ld steps)", a.steps);
    CHECK(a.steps == b.steps, "rotated case takes the same number of steps (%ld, %ld)", a.steps, b.steps);
    double d = 0, nrm = 0, dq = 0, nq = 0;
    for (int j = 0; j < a.ny; j++)
        for (int i = 0; i < a.nx; i++) {
            size_t ka = grid_in(a.nx, i, j), kb = grid_in(b.nx, j, i);
            d += fabs(a.h[ka] - b.h[kb]);
            nrm += a.h[ka];
            dq += fabs(a.qx[ka] - b.qy[kb]) + fabs(a.qy[ka] - b.qx[kb]);
            nq += fabs(a.qx[ka]);
        }
    /* the x and y edge passes run the same float operations on swapped components; what can
       differ is the rounding of the expression bed (cos of x vs of y) and the driver's fused
       multiply-adds: a few ulps, which the run keeps near 1e-6 */
    CHECK_LE(d / nrm, 1e-5, "GPU x <-> y symmetry: relative L1 of h between the case and its 90-degree rotation");
    CHECK_LE(dq / nq, 1e-4, "GPU x <-> y symmetry: relative L1 of q (qx <-> qy)");
    result_free(&a);
    result_free(&b);
}

int main(void)
{
    scheme_keys_install();   /* the schemes' keys, before a scenario is read */
    gpu_context *ctx = test_gl_context();
    const char *renderer = gpu_context_info(ctx)->renderer;
    lake_at_rest(renderer);
    mass_and_rotation(renderer);
    gpu_context_destroy(ctx);
    return check_done();
}

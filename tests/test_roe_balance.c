/* test_roe_balance.c — well-balancing of both CPU Roe solvers (scalar double, fast
 * float): water at rest over the Test-1 bed (all wet) and over a bed with an emerged
 * island (wet/dry edges of both emerging-bottom cases) stays at rest for 200 steps. */
#include "check.h"
#include "roe_cpu.h"

#include <math.h>
#include <stdlib.h>

static const double PI = 3.14159265358979323846;

typedef struct {
    swe_problem p;
    double *H, *h, *qx, *qy;
    unsigned char *code;
    size_t n;
} box;

/* nx x ny cells with a ring of wall ghosts (corners unused: CELL_OFF) */
static void box_init(box *b, int nx, int ny, double dx, double dy)
{
    b->n = grid_size(nx, ny);
    b->H = calloc(b->n, sizeof(double));
    b->h = calloc(b->n, sizeof(double));
    b->qx = calloc(b->n, sizeof(double));
    b->qy = calloc(b->n, sizeof(double));
    b->code = calloc(b->n, 1);
    for (int j = 0; j < grid_rows(ny); j++)
        for (int i = 0; i < grid_stride(nx); i++) {
            int ring_x = i == 0 || i == nx + 1, ring_y = j == 0 || j == ny + 1;
            b->code[grid_at(nx, i, j)] =
                ring_x && ring_y ? CELL_OFF : (ring_x || ring_y ? CELL_WALL : CELL_ACTIVE);
        }
    b->p = (swe_problem){.nx = nx, .ny = ny, .dx = dx, .dy = dy, .g = 9.81, .cfl = 0.9,
                         .h_dry = 1e-5, .H = b->H, .code = b->code};
}

static void box_free(box *b)
{
    free(b->H);
    free(b->h);
    free(b->qx);
    free(b->qy);
    free(b->code);
}

/* run 200 steps of lake at rest eta0; report max |q| and max |eta - eta0| over wet cells */
static void rest_run(box *b, enum roe_cpu_kind kind, double eta0, double *qmax, double *dmax,
                     int *dry_cells, int *ok_steps)
{
    for (size_t k = 0; k < b->n; k++) {
        double h = eta0 + b->H[k];
        b->h[k] = h > 0.0 ? h : 0.0;
        b->qx[k] = b->qy[k] = 0.0;
    }
    roe_cpu *s = roe_cpu_create(&b->p, kind);
    CHECK(s != NULL, "create %d: %s", (int)kind, s ? "" : swgl_last_error());
    if (!s) return;
    roe_cpu_set_state(s, b->h, b->qx, b->qy);
    *ok_steps = 0;
    for (int n = 0; n < 200; n++)
        if (roe_cpu_step(s, 1e30) > 0.0) (*ok_steps)++;
    roe_cpu_get_state(s, b->h, b->qx, b->qy);
    *qmax = *dmax = 0.0;
    *dry_cells = 0;
    for (size_t k = 0; k < b->n; k++) {
        if (b->code[k] != CELL_ACTIVE) continue;
        *qmax = fmax(*qmax, fmax(fabs(b->qx[k]), fabs(b->qy[k])));
        if (b->h[k] > b->p.h_dry) *dmax = fmax(*dmax, fabs(b->h[k] - b->H[k] - eta0));
        else (*dry_cells)++;
    }
    roe_cpu_destroy(s);
}

int main(void)
{
    static const char *kname[2] = {"scalar", "fast"};
    /* relative bounds: double rounding ~1e-16 per operation, float ~6e-8, both grown
     * by 200 steps of a scheme that damps (not amplifies) the resulting noise */
    static const double tol[2] = {1e-12, 1e-5};

    /* Test-1 bed, all wet: H = 1 - cos(2 pi x)/2 on a 10 m x 1 m channel, 100 x 10 */
    for (int kind = 0; kind < 2; kind++) {
        box b;
        box_init(&b, 100, 10, 0.1, 0.1);
        for (int j = 0; j < 12; j++)
            for (int i = 0; i < 102; i++) b.H[j * 102 + i] = 1.0 - cos(2.0 * PI * (i - 0.5) * 0.1) / 2.0;
        double qmax, dmax;
        int dry, steps;
        const double eta0 = 0.1234, hmax = 1.6234, qscale = hmax * sqrt(9.81 * hmax);
        rest_run(&b, (enum roe_cpu_kind)kind, eta0, &qmax, &dmax, &dry, &steps);
        CHECK(steps == 200, "%s Test-1 bed: 200 steps with dt > 0", kname[kind]);
        CHECK(dry == 0, "%s Test-1 bed: all cells wet", kname[kind]);
        CHECK_LE(qmax / qscale, tol[kind], "%s Test-1 bed at rest, 200 steps: max|q| / (h c)_max "
                 "at rounding level", kname[kind]);
        CHECK_LE(dmax / hmax, tol[kind], "%s Test-1 bed at rest, 200 steps: max|eta - eta0| / h_max "
                 "at rounding level", kname[kind]);
        box_free(&b);
    }

    /* emerged island and a terraced shore: 40 x 40 cells of 0.1 m, eta0 = 0; the bed
     * (z_b = -H) rises above the surface in a Gaussian island and in steps along x
     * near the east wall, so dry cells border wet ones in both directions and both
     * emerging-bottom cases occur (also across the y-edges) */
    for (int kind = 0; kind < 2; kind++) {
        box b;
        int nx = 40, ny = 40;
        box_init(&b, nx, ny, 0.1, 0.1);
        for (int j = 0; j < grid_rows(ny); j++)
            for (int i = 0; i < grid_stride(nx); i++) {
                double x = (i - 0.5) * 0.1, y = (j - 0.5) * 0.1;
                double H = 0.6 - 1.0 * exp(-((x - 1.5) * (x - 1.5) + (y - 2.0) * (y - 2.0)) / 0.3);
                if (x > 3.2) H = 0.6 - 0.25 * floor((x - 3.2) / 0.2 + 1.0);   /* terraces */
                b.H[grid_at(nx, i, j)] = H;
            }
        double qmax, dmax;
        int dry, steps;
        const double eta0 = 0.0, hmax = 0.6, qscale = hmax * sqrt(9.81 * hmax);
        rest_run(&b, (enum roe_cpu_kind)kind, eta0, &qmax, &dmax, &dry, &steps);
        CHECK(steps == 200, "%s island: 200 steps with dt > 0", kname[kind]);
        CHECK(dry > 50, "%s island: %d dry (emerged) cells", kname[kind], dry);
        CHECK_LE(qmax / qscale, tol[kind], "%s island at rest, 200 steps: max|q| / (h c)_max "
                 "at rounding level", kname[kind]);
        CHECK_LE(dmax / hmax, tol[kind], "%s island at rest, 200 steps: max|eta - eta0| / h_max "
                 "over wet cells at rounding level", kname[kind]);
        int still_dry = 1;
        for (size_t k = 0; k < b.n; k++)
            if (b.code[k] == CELL_ACTIVE && b.H[k] < 0.0 && b.h[k] != 0.0) still_dry = 0;
        CHECK(still_dry, "%s island: emerged cells stay exactly dry (h = 0)", kname[kind]);
        box_free(&b);
    }
    return check_done();
}

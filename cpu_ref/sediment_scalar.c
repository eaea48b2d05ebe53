/* sediment_scalar.c — the scalar double-precision passes of the sediment scheme: the
 * accuracy reference.  One point at a time, through the per-point rules of sediment.h
 * (sed_point_h: (3); sed_point_s: (4) or its flux form), so that the GLSL passes and
 * the SSE2 passes can be checked against exactly this code.  Single-threaded. */
#include "sediment.h"

/* h pass: hn = (3) applied to h, s at every interior point.  Ghosts of h, s, alpha,
 * beta must be set. */
void sed_scalar_h_pass(const sed_problem *p, const sed_consts *c, const double *alpha,
                       const double *beta, const double *h, const double *s, double *hn)
{
    const int W = grid_stride(p->nx);
    const int off[5] = {0, -1, 1, -W, W};
    for (int j = 1; j <= p->ny; j++)
        for (int i = 1; i <= p->nx; i++) {
            int k = j * W + i;
            double hh[5], ss[5], aa[5], bb[5];
            for (int q = 0; q < 5; q++) {
                hh[q] = h[k + off[q]];
                ss[q] = s[k + off[q]];
                aa[q] = alpha[k + off[q]];
                bb[q] = beta[k + off[q]];
            }
            hn[k] = sed_point_h(p->form, c, hh, ss, aa, bb);
        }
}

/* s pass: sn from s, h (= h^l), hn (= h^{l+1}).  Ghosts of s, h and (paper form) hn
 * must be set. */
void sed_scalar_s_pass(const sed_problem *p, const sed_consts *c, const double *alpha,
                       const double *h, const double *hn, const double *s, double *sn)
{
    const int W = grid_stride(p->nx);
    const int off[5] = {0, -1, 1, -W, W};
    for (int j = 1; j <= p->ny; j++)
        for (int i = 1; i <= p->nx; i++) {
            int k = j * W + i;
            double hl[5], hh[5], ss[5], aa[5];
            for (int q = 0; q < 5; q++) {
                hl[q] = h[k + off[q]];
                hh[q] = hn[k + off[q]];
                ss[q] = s[k + off[q]];
                aa[q] = alpha[k + off[q]];
            }
            sn[k] = sed_point_s(p->form, c, hl, hh, ss, aa);
        }
}

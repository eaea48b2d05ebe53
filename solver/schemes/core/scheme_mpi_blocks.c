/* scheme_mpi_blocks.c — the blocks of a run over ranks: the split of the grid into
 * px x py blocks (scheme_mpi_blocks) and each rank's own cells and window. */
#include "scheme_mpi_int.h"

#include <stdio.h>
#include <stdlib.h>

int scheme_mpi_blocks(int nx, int ny, int P, const int want[2], int *px, int *py)
{
    if (want && (want[0] || want[1])) {
        int a = want[0], b = want[1];
        if (a < 1 || b < 1 || (long)a * b != P || a > nx || b > ny) {
            swgl_fail(SWGL_ERR_ARG, "tune: mpi.blocks=%dx%d: expected AxB with A B = %d ranks, A <= nx = %d, B <= ny = %d",
                      a, b, P, nx, ny);
            return -1;
        }
        *px = a;
        *py = b;
        return 0;
    }
    long best = -1;
    for (int a = 1; a <= P; a++) {
        if (P % a) continue;
        int b = P / a;
        if (a > nx || b > ny) continue;
        long cut = (long)(a - 1) * ny + (long)(b - 1) * nx;
        if (best < 0 || cut < best) best = cut, *px = a, *py = b;
    }
    if (best < 0) {
        swgl_fail(SWGL_ERR_ARG, "a %d x %d grid cannot be split into %d blocks of at least one cell each", nx, ny, P);
        return -1;
    }
    return 0;
}

swgl_status scheme_mpi_layout(int nx, int ny, int px, int py, int halo, int P, int (**blk)[8])
{
    if (!(*blk = calloc((size_t)P, sizeof **blk))) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int r = 0; r < P; r++) {
        int bx = r % px, by = r / px, *o = (*blk)[r], *w = (*blk)[r] + 4, H = halo;
        o[0] = (int)((long)nx * bx / px);
        o[2] = (int)((long)nx * (bx + 1) / px);
        o[1] = (int)((long)ny * by / py);
        o[3] = (int)((long)ny * (by + 1) / py);
        w[0] = o[0] - H > 0 ? o[0] - H : 0;
        w[1] = o[1] - H > 0 ? o[1] - H : 0;
        w[2] = o[2] + H < nx ? o[2] + H : nx;
        w[3] = o[3] + H < ny ? o[3] + H : ny;
    }
    return SWGL_OK;
}

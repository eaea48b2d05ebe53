/* swgl_grid.c — the ghost-ring grid's helpers (swgl_grid.h). */
#include "swgl_grid.h"

#include <stdlib.h>
#include <string.h>

double *grid_interior(const double *v, int nx, int ny)
{
    double *o = malloc((size_t)nx * (size_t)ny * sizeof(double));
    if (!o) return NULL;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) o[(size_t)j * nx + i] = v[grid_in(nx, i, j)];
    return o;
}

double grid_volume(const double *v, const unsigned char *code, int nx, int ny, double cell)
{
    double s = 0, c = 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = grid_in(nx, i, j);
            if (code && code[k] != CELL_ACTIVE) continue;
            double y = v[k] * cell - c, t = s + y;
            c = (t - s) - y;
            s = t;
        }
    return s;
}

void grid_codes(int nx, int ny, const unsigned char *active, unsigned char *const side[4], unsigned char *code)
{
    const int W = grid_stride(nx), H = grid_rows(ny);
    memset(code, CELL_OFF, grid_size(nx, ny));
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            if (!active || active[(size_t)j * nx + i]) code[grid_in(nx, i, j)] = CELL_ACTIVE;
    static const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            size_t k = grid_at(nx, i, j);
            if (code[k] == CELL_ACTIVE) continue;
            int touches = 0;
            for (int d = 0; d < 4; d++) {
                int ii = i + di[d], jj = j + dj[d];
                if (ii >= 0 && jj >= 0 && ii < W && jj < H && code[grid_at(nx, ii, jj)] == CELL_ACTIVE) touches = 1;
            }
            if (!touches) continue;
            unsigned char c = CELL_WALL;
            if (i == 0 && j >= 1 && j <= ny && side[0]) c = side[0][j - 1];
            else if (i == W - 1 && j >= 1 && j <= ny && side[1]) c = side[1][j - 1];
            else if (j == 0 && i >= 1 && i <= nx && side[2]) c = side[2][i - 1];
            else if (j == H - 1 && i >= 1 && i <= nx && side[3]) c = side[3][i - 1];
            code[k] = c;
        }
}

void grid_copy_ring(double *f, int nx, int ny)
{
    const int W = grid_stride(nx), H = grid_rows(ny);
    for (int j = 1; j < H - 1; j++) {
        f[j * W] = f[j * W + 1];
        f[j * W + W - 1] = f[j * W + W - 2];
    }
    for (int i = 0; i < W; i++) {
        f[i] = f[W + i];
        f[(H - 1) * W + i] = f[(H - 2) * W + i];
    }
}

/* ram_array2d.c — Lastra's RAMArray2D. */
#include "ram_array2d.h"

#include <stdlib.h>

ram_array2d *ram_array2d_create(int width, int height)
{
    if (width < 1 || height < 1) return NULL;
    ram_array2d *a = malloc(sizeof *a);
    if (!a) return NULL;
    a->width = width;
    a->height = height;
    a->data = calloc((size_t)4 * width * height, sizeof(float));
    if (!a->data) {
        free(a);
        return NULL;
    }
    return a;
}

void ram_array2d_destroy(ram_array2d *a)
{
    if (!a) return;
    free(a->data);
    free(a);
}

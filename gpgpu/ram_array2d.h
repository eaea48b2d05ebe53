/* ram_array2d.h — Lastra's RAMArray2D: a host array of float4, row-major. */
#ifndef SWGL_RAM_ARRAY2D_H
#define SWGL_RAM_ARRAY2D_H

typedef struct ram_array2d {
    int width, height;
    float *data;            /* 4 * width * height floats: texel (x, y) at data[4*(y*width + x)] */
} ram_array2d;

ram_array2d *ram_array2d_create(int width, int height);   /* zero-filled; NULL on failure */
void ram_array2d_destroy(ram_array2d *a);                 /* NULL is fine */
static inline float *ram_array2d_at(ram_array2d *a, int x, int y)
{
    return a->data + 4 * ((long)y * a->width + x);
}

#endif

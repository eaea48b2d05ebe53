/* gpu_buffer.h — a shader storage buffer (GL 4.3): words that kernels read, write and
 * update atomically where an array's texels will not do (a count or a min over the whole
 * grid, one flag per tile), bound to a kernel's `layout(std430, binding = k) buffer` by
 * gpu_pass_buffer.  Kernels only: a GL 3.3 context has none. */
#ifndef SWGL_GPU_BUFFER_H
#define SWGL_GPU_BUFFER_H

#include <stddef.h>

#include "gpu_error.h"

typedef struct gpu_buffer gpu_buffer;

/* bytes > 0; the contents are zero.  Refused (SWGL_ERR_NO_CONTEXT) without GL 4.3. */
swgl_status gpu_buffer_create(size_t bytes, const char *label, gpu_buffer **out);
void gpu_buffer_destroy(gpu_buffer *b);    /* NULL is fine */
size_t gpu_buffer_size(const gpu_buffer *b);
const char *gpu_buffer_label(const gpu_buffer *b);
/* bytes from offset, up or back (back waits for the kernels that wrote it). */
swgl_status gpu_buffer_upload(gpu_buffer *b, size_t offset, size_t bytes, const void *data);
swgl_status gpu_buffer_download(const gpu_buffer *b, size_t offset, size_t bytes, void *data);

/* For the gpgpu layer itself. */
unsigned gpu_buffer_handle(const gpu_buffer *b);

#endif

/* scheme_shaders.h — registers the schemes' shader folders with gpu_program (every GPU
 * scheme does so before it builds its passes; a test that builds a probe pass calls it). */
#ifndef SWGL_SCHEME_SHADERS_H
#define SWGL_SCHEME_SHADERS_H

void scheme_register_shaders(void);

#include "gpu_error.h"

/* A kernel's work group from the environment variable `name` whose value is v (NULL or
 * empty: *gx, *gy stay): "AxB" with A, B >= min, A*B <= 1024 and the group's shared
 * memory, at most two float4 copies of a tile with two cells around it ((A+4)(B+4) x
 * 32 B), within the 32 KiB GL guarantees a compute shader.  A clear error otherwise. */
swgl_status group_from_env(const char *name, const char *v, int min, int *gx, int *gy);

#endif

/* scheme_shaders.c — the schemes' GLSL (shaders/roe/, shaders/sediment/, shaders/kp/,
 * shaders/hllc/, and shaders/swe/ which the shallow-water schemes share),
 * embedded by the build, made known to the gpgpu layer. */
#include "scheme_shaders.h"

#include <stdio.h>

#include "gpu_program.h"

extern const struct swgl_embedded swgl_shaders_roe_files[];
extern const struct swgl_embedded swgl_shaders_sediment_files[];
extern const struct swgl_embedded swgl_shaders_kp_files[];
extern const struct swgl_embedded swgl_shaders_swe_files[];
extern const struct swgl_embedded swgl_shaders_hllc_files[];

void scheme_register_shaders(void)
{
    gpu_shader_register("roe", swgl_shaders_roe_files);
    gpu_shader_register("sediment", swgl_shaders_sediment_files);
    gpu_shader_register("kp", swgl_shaders_kp_files);
    gpu_shader_register("swe", swgl_shaders_swe_files);
    gpu_shader_register("hllc", swgl_shaders_hllc_files);
}

swgl_status group_from_env(const char *name, const char *v, int min, int *gx, int *gy)
{
    if (!v || !*v) return SWGL_OK;
    int a = 0, b = 0, used = 0;
    if (sscanf(v, "%dx%d%n", &a, &b, &used) != 2 || v[used] != '\0' || a < min || b < min || a * b > 1024 ||
        (long)(a + 4) * (b + 4) * 32 > 32768)
        return swgl_fail(SWGL_ERR_ARG,
                         "%s=%s: expected AxB (e.g. 16x8) with A, B >= %d, A*B <= 1024 and (A+4)(B+4)*32 B of "
                         "shared memory within 32 KiB",
                         name, v, min);
    *gx = a;
    *gy = b;
    return SWGL_OK;
}

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

/* scheme_shaders.h — registers the schemes' shader folders with gpu_program (every GPU
 * scheme does so before it builds its passes; a test that builds a probe pass calls it). */
#ifndef SWGL_SCHEME_SHADERS_H
#define SWGL_SCHEME_SHADERS_H

void scheme_register_shaders(void);

#endif

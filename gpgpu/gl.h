/* gl.h — the one place the gpgpu layer includes OpenGL: the core-profile header with
 * prototypes (GLVND's libOpenGL exports every core entry point, so no loader is needed). */
#ifndef SWGL_GL_H
#define SWGL_GL_H
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/glcorearb.h>
#endif

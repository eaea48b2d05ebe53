/* gpu_error.h — the gpgpu layer's errors: the one swgl_status type (base/swgl_error.h)
 * and the check of GL's own error queue. */
#ifndef SWGL_GPU_ERROR_H
#define SWGL_GPU_ERROR_H

#include "swgl_error.h"

/* Internal: if glGetError() reports an error, set a message naming what and return
 * SWGL_ERR_GL. */
swgl_status gpu_check_gl(const char *what);

#endif

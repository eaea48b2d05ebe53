/* gpu_error.c: being written */

/* gpu_context.c: being written */

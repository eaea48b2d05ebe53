/* gpu_pass.c: being written */

/* gpu_mrt.c: being written */

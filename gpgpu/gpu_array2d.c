/* gpu_array2d.c: being written */

/* gpu_reductor.c: being written */

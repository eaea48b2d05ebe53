/* gpu_program.c: being written */

/* ram_array2d.c: being written */

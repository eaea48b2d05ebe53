#include <stdio.h>
#include "run.h"
int bench_sediment(int argc, char **argv) { (void)argc; (void)argv; return 1; }

/* sim_bench.c — what the benches need of the library beyond the sims (include/swgl.h,
 * "benches"): the maximum of a number over the MPI ranks.  (swgl_bench_layer is
 * bench_layer.c's.) */
#include "swgl.h"

#include "scheme_mpi.h"

/* (asleep: a bench's other ranks wait here while rank 0 runs alone) */
SWGL_API double swgl_mpi_reduce_max(double v) { return swgl_mpi_max_asleep(v); }

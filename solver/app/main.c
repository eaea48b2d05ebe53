/* main.c — the swgl command line (DESIGN.md "Command line").  stdout is for results,
 * stderr for progress and messages; any failure exits non-zero. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "swgl.h"

static const char *usage =
    " — shallow-water and sediment transport on GPUs through OpenGL fragment passes\n"
    "\n"
    "usage:\n"
    "  swgl info                          EGL devices, chosen renderer, GL/GLSL versions, fp64 and compute\n"
    "  swgl run [SCENARIO.ini] [options]  run a scenario file, or a built-in case (--case NAME);\n"
    "                                     no scenario: the default demo (case 'dambreak')\n"
    "  swgl bench gpgpu|roe|kp|sediment|real|rest [options]  timing tables (see 'swgl bench NAME\n"
    "                                     --help'); real: a modeller's run (open boundaries, maps, gauges)\n"
    "                                     against the benchmark's shape; rest: kp's early exit for tiles\n"
    "                                     at rest (a lake with K pools), on and off\n"
    "  mpirun -n P swgl run ...           the grid split into P blocks, one MPI rank each, the same\n"
    "                                     results as one rank (docs/mpi.md); mpirun -n P swgl bench\n"
    "                                     scaling: strong and weak scaling over the P ranks\n"
    "  swgl trace SCENARIO|--case NAME [--steps N] [--out DIR]\n"
    "                                     every pass of the last of N steps on the GPU: its input and\n"
    "                                     output textures as pictures and DIR/index.html\n"
    "  swgl grid-from-mesh NODES.csv TRIANGLES.csv --cell D --out GRID.asc [options]\n"
    "                                     a triangle mesh's elevations on a grid (linear on each\n"
    "                                     triangle, NODATA outside); see --help\n"
    "  swgl validate malpasset|ucl RUNDIR  a validation case's run against the measurements\n"
    "  swgl list-cases                    built-in cases\n"
    "  swgl show-case NAME                print a built-in case as a scenario file\n"
    "  swgl tune-keys                     the tuning keys of --tune (also: --tune help)\n"
    "  swgl --help | --version\n"
    "\n"
    "run options:\n"
    "  --case NAME            a built-in case instead of a file\n"
    "  --backend B            gpu (default) | gpu-compute (GL 4.3 compute shaders: the passes'\n"
    "                         GLSL, fused kernels where they pay) | cpu (SIMD + OpenMP) |\n"
    "                         cpu-scalar (double)\n"
    "  --compare B            also run backend B on the same scenario and report the difference\n"
    "                         and the speedup in summary.json (cpu | cpu-scalar | gpu | gpu-compute)\n"
    "  --out DIR              output folder (default: out); files are replaced only by a run\n"
    "                         that succeeds\n"
    "  --set SECTION.KEY=V    override a scenario key, e.g. --set domain.level=2 (repeatable)\n"
    "  --device N             EGL device index (default: SWGL_DEVICE, else the first GPU, else llvmpipe)\n"
    "  --precision P          single | double, for the gpu and cpu backends (cpu-scalar is double):\n"
    "                         roe and kp default to single (double on the gpu needs fp64);\n"
    "                         sediment defaults to double where the GPU has fp64\n"
    "  --quiet                no progress line and no summary on stdout\n"
    "  --restart FILE         continue from a run.nc: its latest state (exact, in double), or\n"
    "  --restart-time T       the one stored at T (float); output times before it are skipped\n"
    "  --tune KEY=VALUE       a tuning choice (repeatable; also on bench and trace), e.g.\n"
    "                         --tune host_clock=on (the time step read back every step),\n"
    "                         --tune clock_every=8, --tune kp.fused=flux, --tune mpi.blocks=2x1;\n"
    "                         --tune help (or swgl tune-keys) lists the keys, their types and defaults\n"
    "\n"
    "environment: SWGL_DEVICE=N (device), SWGL_DATA=dir (the shared data folder: @data/ paths,\n"
    "             the cases malpasset and swgl validate), SWGL_SHADER_DIR=dir (load shaders from disk: the source\n"
    "             tree's shaders/), SWGL_PASS_PROFILE (the GPU time of each pass); OMP_NUM_THREADS=N (the\n"
    "             cpu backend's most threads; it runs the cores other programs leave, looked at\n"
    "             every 0.25 s, or --tune cpu.threads=N), OMP_WAIT_POLICY (passive unless set);\n"
    "             the tuning choices are --tune keys, not variables (a removed variable still set is\n"
    "             named once on stderr with its key)\n";

static int cmd_info(int argc, char **argv)
{
    int use_device = 0, device = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
            use_device = 1;
            device = atoi(argv[++i]);
        } else {
            fprintf(stderr, "swgl info: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    printf("swgl %s\n", swgl_version());
    if (swgl_has("netcdf")) printf("netCDF:     yes (run.nc, --restart)\n");
    else printf("netCDF:     no (built without libnetcdf: no run.nc, no --restart)\n");
    printf("MPI:        %s\n", swgl_has("mpi") ? "yes (mpirun -n P swgl run ...: docs/mpi.md)" : "no (built without Open MPI)");
    if (swgl_print_devices(stdout, use_device, device) != 0) {
        fprintf(stderr, "swgl: %s\n", swgl_last_error());
        return 1;
    }
    return 0;
}

static int cmd_list_cases(void)
{
    for (const char *const *n = swgl_case_names(); *n; n++)
        printf("%-20s %s\n", *n, swgl_case_summary(*n));
    return 0;
}

static int cmd_show_case(int argc, char **argv)
{
    if (argc != 1) {
        fprintf(stderr, "swgl show-case: expected one case name (see 'swgl list-cases')\n");
        return 2;
    }
    const char *t = swgl_case_text(argv[0]);
    if (!t) {
        fprintf(stderr, "swgl show-case: no built-in case '%s' (see 'swgl list-cases')\n", argv[0]);
        return 1;
    }
    fputs(t, stdout);
    return 0;
}

static int cmd_bench(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "swgl bench: expected gpgpu, roe, kp, sediment, scaling, real or rest\n");
        return 2;
    }
    if (strcmp(argv[0], "gpgpu") == 0) return bench_gpgpu(argc, argv);
    if (strcmp(argv[0], "roe") == 0) return bench_roe(argc, argv);
    if (strcmp(argv[0], "kp") == 0) return bench_kp(argc, argv);
    if (strcmp(argv[0], "sediment") == 0) return bench_sediment(argc, argv);
    if (strcmp(argv[0], "scaling") == 0) return bench_scaling(argc, argv);
    if (strcmp(argv[0], "real") == 0) return bench_real(argc, argv);
    if (strcmp(argv[0], "rest") == 0) return bench_rest(argc, argv);
    fprintf(stderr, "swgl bench: unknown bench '%s' (gpgpu, roe, kp, sediment, scaling, real, rest)\n", argv[0]);
    return 2;
}

static int swgl_main(int argc, char **argv);

/* OpenMP threads that share the machine (issue 28): libgomp's threads spin at every barrier
 * before they sleep (OMP_WAIT_POLICY unset: a spin count of 300,000), and on a machine whose
 * cores other work uses, spinning threads starve each other and the others (a fast CPU run on
 * two busy cores took 111 s where one thread took 5.5 s).  So the command line waits passively
 * unless the user chose otherwise.  libgomp reads its environment in its constructor, before
 * main; a function in the executable's .preinit_array runs before any shared library's
 * constructors (glibc's _dl_init), so it sets the default in time.  (The library cannot do
 * this for a program that links it: docs/api.md says what such a program should set; the
 * Python package sets it before it loads the library.) */
static void omp_passive_default(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    setenv("OMP_WAIT_POLICY", "PASSIVE", 0);   /* (0: a value the user set stays) */
}
__attribute__((section(".preinit_array"), used)) static void (*const swgl_preinit)(int, char **,
                                                                                   char **) = omp_passive_default;

/* Under mpirun (scheme_mpi.h): MPI around the whole program, every rank the same command */
int main(int argc, char **argv)
{
    if (swgl_mpi_init(&argc, &argv) != 0) {
        fprintf(stderr, "swgl: started by mpirun as one of several ranks, but %s: run it without mpirun, or "
                "build swgl with Open MPI (build.sh installs libopenmpi-dev)\n",
                swgl_has("mpi") ? "MPI_Init failed" : "this swgl was built without MPI");
        return 2;
    }
    int rc = swgl_main(argc, argv);
    swgl_mpi_finalize();
    return rc;
}

static int swgl_main(int argc, char **argv)
{
    if (argc < 2) return cmd_run(0, argv + 1);
    const char *c = argv[1];
    if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 || strcmp(c, "help") == 0) {
        printf("swgl %s", swgl_version());
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(c, "--version") == 0) {
        printf("swgl %s\n", swgl_version());
        return 0;
    }
    /* over several MPI ranks: run (split into blocks) and bench scaling; the other commands
     * would run whole on every rank, into the same outputs */
    if (swgl_mpi_size() > 1 && strcmp(c, "run") != 0 && strcmp(c, "info") != 0 &&
        !(strcmp(c, "bench") == 0 && argc > 2 && strcmp(argv[2], "scaling") == 0)) {
        fprintf(stderr, "swgl %s: not over MPI ranks (only 'swgl run' and 'swgl bench scaling' split over them): "
                "run it without mpirun\n", c);
        return 2;
    }
    if (strcmp(c, "info") == 0) return cmd_info(argc - 2, argv + 2);
    if (strcmp(c, "run") == 0) return cmd_run(argc - 2, argv + 2);
    if (strcmp(c, "bench") == 0) return cmd_bench(argc - 2, argv + 2);
    if (strcmp(c, "trace") == 0) return cmd_trace(argc - 2, argv + 2);
    if (strcmp(c, "validate") == 0) return cmd_validate(argc - 2, argv + 2);
    if (strcmp(c, "grid-from-mesh") == 0) return cmd_grid_from_mesh(argc - 2, argv + 2);
    if (strcmp(c, "list-cases") == 0) return cmd_list_cases();
    if (strcmp(c, "show-case") == 0) return cmd_show_case(argc - 2, argv + 2);
    if (strcmp(c, "tune-keys") == 0) {
        swgl_tune_keys(stdout);
        return 0;
    }
    fprintf(stderr, "swgl: unknown command '%s'; see 'swgl --help'\n", c);
    return 2;
}

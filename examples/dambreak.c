/* dambreak.c — the dam break through swgl's C API, in eight calls: create, run to the
 * scenario's end, print the step count and the water volume (docs/api.md).
 *
 *     ./dambreak                    the built-in case "dambreak" on cpu-scalar
 *     ./dambreak my.ini cpu         a scenario file on a backend (gpu, gpu-compute, cpu,
 *                                   cpu-scalar); "-" as the file: the built-in case
 *
 * Build: cc dambreak.c $(pkg-config --cflags --libs swgl) -o dambreak, or this folder's
 * CMakeLists.txt (find_package(swgl)). */
#include <stdio.h>
#include <string.h>

#include <swgl.h>

int main(int argc, char **argv)
{
    swgl_sim_desc desc = {0};
    if (argc > 1 && strcmp(argv[1], "-") != 0) desc.scenario = argv[1];
    else desc.case_name = "dambreak";
    desc.backend = argc > 2 ? argv[2] : "cpu-scalar";

    swgl_sim *sim;
    if (swgl_sim_create(&desc, &sim) != SWGL_OK) {
        fprintf(stderr, "dambreak: %s\n", swgl_last_error());
        return 1;
    }
    int rc = 0;
    if (swgl_sim_run_to(sim, swgl_sim_t_end(sim)) != SWGL_OK) {
        fprintf(stderr, "dambreak: %s\n", swgl_last_error());
        rc = 1;
    } else {
        printf("steps %ld\nvolume %.17g\n", swgl_sim_steps(sim), swgl_sim_volume(sim));
    }
    swgl_sim_destroy(sim);
    return rc;
}

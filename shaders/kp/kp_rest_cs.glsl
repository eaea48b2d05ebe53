// kp_rest_cs.glsl — a kernel of the step on kernels (kp_gpu_kernels.c, kp.rest): the tiles
// at rest of the step's rest list (kp_tiles.glsl, "The second rule"), run before stage 0's
// flux.  One invocation a tile of the list, KP_RG a work group (the dispatch's group count
// is the list's own command, made as it was filled):
//   - a tile that is on the step's list too (its stamp is the last step's) is computed
//     there: nothing here;
//   - else it is skipped: its bound, kept in KP_TBOUND when it was last computed, is what
//     computing it would give, so it goes into the step's min (the group's min, then one
//     atomicMin into kp_bound[u_par], as the flux kernel's groups do), and the tile goes back
//     on the next rest list (a neighbour that moves in this step puts it on the next list
//     as well, which wins).
// Brodtkorb et al. 2011, 3.2.1: "R = 0" tiles skipped as dry ones are.
#define KP_REST_KERNEL 1
#include "group_min.glsl"
#include "kp_tiles.glsl"
layout(local_size_x = KP_RG) in;

void main()
{
    uint k = gl_GlobalInvocationID.x;
    if (gl_LocalInvocationIndex == 0u) swgl_group_min_init();
    barrier();
    if (k < kp_tile[KP_RHEAD + 6 + u_par]) {
        uint t = kp_tile[KP_RLIST(u_par) + int(k)];
        if (kp_tile[t] != u_stamp - 1u) {   // (not on the step's list)
            atomicMin(swgl_gmin, kp_tile[KP_TBOUND + int(t)]);
            kp_rest_mark(t);
        }
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u && swgl_gmin != 0xFFFFFFFFu) atomicMin(kp_bound[u_par], swgl_gmin);
}

/* kp_fast_body.h — the kernels of the fast Kurganov-Petrova solver, written once for a
 * real type: kp_fast.c includes this file twice, with KP_T = float / KP_SFX(n) = n##_f
 * and KP_T = double / KP_SFX(n) = n##_d.  The equations (numbered 1-10 and the time
 * integration) are those of kp_cpu.h; kp_fast.c's comment block says how they are laid
 * out.  Every loop is branch-free (ternaries the vectorizer turns into blends) and
 * carries #pragma omp simd.
 *
 * The body is three files by concept, included here in this order (each uses what the
 * one before defines):
 *   kp_fast_face.h     the arrays' typed views, the helpers, reconstruction and flux
 *   kp_fast_rates.h    the rates of a stage: row buffers, boundary faces, units
 *   kp_fast_update.h   the time integration, the sources, the state in and out */

#define T KP_T
#define FN(name) KP_SFX(name)

#include "kp_fast_face.h"
#include "kp_fast_rates.h"
#include "kp_fast_update.h"

#undef T
#undef FN

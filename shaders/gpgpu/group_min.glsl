// group_min.glsl — the min over a work group of one float per invocation, for kernels
// that leave the first level of a min reduction (the step's bound) at their group's
// index: one shared atomicMin per invocation and no tree of barriers.  A bound is >= 0
// (either zero), +inf, or negative for a blow-up (which must win): the order key is 0 for
// a negative or a NaN and the float's bits less the sign + 1 otherwise (non-negative
// floats order as their bits); swgl_group_min_value turns the key back, negative -> -1
// (and -0.0 -> +0.0).
//   if (gl_LocalInvocationIndex == 0u) swgl_group_min_init();
//   barrier(); ... swgl_group_min_add(v); barrier();
//   if (gl_LocalInvocationIndex == 0u) imageStore(out, group, vec4(swgl_group_min_value()));
// or, for a min over the whole dispatch, atomicMin(word, swgl_gmin) into a buffer word set to
// 0xFFFFFFFF beforehand, read back as swgl_min_key_value(word).
shared uint swgl_gmin;
void swgl_group_min_init() { swgl_gmin = 0xFFFFFFFFu; }
// (the sign bit cleared: -0.0 is not < 0.0 and is the smallest bound, as 0.0 is)
uint swgl_min_key(float v) { return (v < 0.0 || isnan(v)) ? 0u : (floatBitsToUint(v) & 0x7FFFFFFFu) + 1u; }
void swgl_group_min_add(float v) { atomicMin(swgl_gmin, swgl_min_key(v)); }
// (a word no group wrote, 0xFFFFFFFF, reads as +inf: nothing bounds the step)
float swgl_min_key_value(uint key) { return key == 0u ? -1.0 : key > 0x7F800001u ? swgl_inf() : uintBitsToFloat(key - 1u); }
float swgl_group_min_value() { return swgl_min_key_value(swgl_gmin); }

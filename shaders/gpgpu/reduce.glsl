// reduce.glsl — one stage of the min / max / sum reduction (Lastra 4.3.1): each
// fragment combines the 2x2 block (2x..2x+1, 2y..2y+1) of its input into one element.
// Elements past the input's edge (odd sizes) are the operation's neutral element, so
// any width and height reduce correctly: ceil(w/2) x ceil(h/2) out of w x h.
// Compiled three times with REDUCE_OP 0 (min), 1 (max) or 2 (sum).
SWGL_INPUT(u_in);
SWGL_OUTPUT(0, o_out);

vec4 combine(vec4 a, vec4 b)
{
#if REDUCE_OP == 0
    return min(a, b);
#elif REDUCE_OP == 1
    return max(a, b);
#else
    return a + b;
#endif
}

SWGL_MAIN
{
#if REDUCE_OP == 0
    vec4 neutral = vec4(swgl_inf());
#elif REDUCE_OP == 1
    vec4 neutral = vec4(-swgl_inf());
#else
    vec4 neutral = vec4(0.0);
#endif
    ivec2 p = 2 * swgl_cell();
    // pairwise: (a + b) + (c + d), which keeps sums accurate (error grows as log n)
    vec4 ab = combine(swgl_fetch_or(u_in, p, neutral), swgl_fetch_or(u_in, p + ivec2(1, 0), neutral));
    vec4 cd = combine(swgl_fetch_or(u_in, p + ivec2(0, 1), neutral), swgl_fetch_or(u_in, p + ivec2(1, 1), neutral));
    o_out = combine(ab, cd);
}

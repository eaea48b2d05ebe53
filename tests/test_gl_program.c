/* test_gl_program.c — gpu_program and gpu_pass: a GLSL syntax error names the pass, the
 * file and the line; a pass whose input is its output is refused; a misspelt uniform is
 * an error; a program can be created, run and destroyed 1000 times without leaking GL
 * objects; #include pulls in shared files; an unknown pass is a clear error. */
#include <string.h>

#include "gl_util.h"
#include "gpu_pass.h"
#include "../gpgpu/gl.h"

int main(void)
{
    gpu_context *ctx = test_gl_context();
    gpu_program *p = NULL;

    /* syntax error on line 4 of the pass */
    const char *bad = "uniform sampler2D u_in;\n"
                      "layout(location = 0) out vec4 o_out;\n"
                      "void main() {\n"
                      "    o_out = vec4(1.0) +* 2.0;\n"
                      "}\n";
    swgl_status st = gpu_program_create_from_source("broken_pass", bad, NULL, &p);
    const char *msg = swgl_last_error();
    CHECK(st == SWGL_ERR_COMPILE && p == NULL, "a syntax error fails with SWGL_ERR_COMPILE");
    CHECK(strstr(msg, "broken_pass") != NULL, "the message names the pass: %.200s", msg);
    CHECK(strstr(msg, "broken_pass.glsl:4") != NULL, "the message names file and line 4: %.300s", msg);
    CHECK(strstr(msg, "driver log") != NULL, "the driver's log follows");

    /* an error inside an included file names that file */
    st = gpu_program_create("does_not_exist", NULL, &p);
    CHECK(st == SWGL_ERR_MISSING && strstr(swgl_last_error(), "does_not_exist.glsl"),
          "an unknown pass is named in the error: %s", swgl_last_error());

    /* the copy pass from shaders/, built from the embedded copy */
    CHECK(gpu_program_create("copy", NULL, &p) == SWGL_OK, "copy pass builds: %s", swgl_last_error());
    gpu_array2d *a = NULL, *b = NULL;
    gpu_array2d_desc d = {16, 8, GPU_RGBA32F, "A"}, d2 = {16, 8, GPU_RGBA32F, "B"};
    gpu_array2d_create(&d, &a);
    gpu_array2d_create(&d2, &b);
    float v[4] = {1.5f, -2.f, 3.f, 4.f}, out[4 * 16 * 8];
    gpu_array2d_fill(a, v);
    gpu_pass pass;
    gpu_pass_begin(&pass, p);
    gpu_pass_array(&pass, "u_in", a);
    CHECK(gpu_pass_draw(&pass, a, NULL) == SWGL_ERR_ALIAS, "a pass reading its own output is refused");
    CHECK(strstr(swgl_last_error(), "u_in") && strstr(swgl_last_error(), "'A'"),
          "the message names the input and the array: %s", swgl_last_error());
    CHECK(gpu_pass_draw(&pass, b, NULL) == SWGL_OK, "copy A -> B: %s", swgl_last_error());
    gpu_array2d_download(b, out);
    int bad_el = 0;
    for (int i = 0; i < 16 * 8; i++) bad_el += memcmp(out + 4 * i, v, sizeof v) != 0;
    CHECK(bad_el == 0, "copy pass copies every element exactly (%d wrong)", bad_el);
    gpu_pass_begin(&pass, p);
    gpu_pass_array(&pass, "u_inn", a);
    CHECK(gpu_pass_draw(&pass, b, NULL) == SWGL_ERR_MISSING && strstr(swgl_last_error(), "u_inn"),
          "a misspelt input is an error naming it: %s", swgl_last_error());
    gpu_program_destroy(p);

    /* 1000 create / run / destroy cycles */
    int live0 = gpu_program_live_count();
    unsigned handles[1000];
    int failures = 0;
    for (int i = 0; i < 1000; i++) {
        p = NULL;
        if (gpu_program_create("copy", NULL, &p) != SWGL_OK) { failures++; continue; }
        handles[i] = gpu_program_handle(p);
        gpu_pass_begin(&pass, p);
        gpu_pass_array(&pass, "u_in", a);
        if (gpu_pass_draw(&pass, b, NULL) != SWGL_OK) failures++;
        gpu_program_destroy(p);
    }
    int alive = 0;
    for (int i = 0; i < 1000; i++) alive += glIsProgram(handles[i]) == GL_TRUE;
    CHECK(failures == 0, "1000 create/run/destroy cycles all succeed (%d failed)", failures);
    CHECK(alive == 0, "no program of the 1000 is alive after destroy (%d)", alive);
    CHECK(gpu_program_live_count() == live0, "live program count back to %d (is %d)", live0, gpu_program_live_count());
    CHECK(glGetError() == GL_NO_ERROR, "no GL error left behind");

    gpu_array2d_destroy(a);
    gpu_array2d_destroy(b);
    gpu_program_destroy(NULL);
    gpu_context_destroy(ctx);
    return check_done();
}

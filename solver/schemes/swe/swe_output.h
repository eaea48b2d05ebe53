/* swe_output.h — the outputs every shallow-water scheme (roe, kp) shares, in the form of
 * scheme_desc's members (scheme.h): grids, the final pictures and cut, the summary. */
#ifndef SWGL_SWE_OUTPUT_H
#define SWGL_SWE_OUTPUT_H

#include "scheme.h"

swgl_status swe_write_grids(const scheme_setup *s, double *const *f, outdir *od, const char *suffix);
swgl_status swe_write_final(const scheme_setup *s, double *const *f, outdir *od, const char *backend,
                            char *written, size_t len);
swgl_status swe_write_frame(const scheme_setup *s, double *const *f, outdir *od, const char *suffix, double t);
void swe_summary(const scheme_setup *s, double *const *f, json_writer *w);
void swe_print(const scheme_setup *s, double *const *f, FILE *out);

#endif

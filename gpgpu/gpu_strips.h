/* gpu_strips.h — rectangles of an array moved to and from the host through small arrays
 * of their own (the halo of a run over MPI ranks, issue 26).
 *
 * The way out (request, fetch): a pass (strip.glsl) copies the rectangle into a small
 * array of its size, which is read back into a pixel-pack buffer behind a fence without
 * waiting (gpu_readback); fetch takes the oldest request's elements when the GPU has got
 * there.  The way in (write): the elements go into a small array (glTexSubImage2D of the
 * whole of it from a pixel-unpack buffer, so the upload is queued) and a pass copies it into
 * the rectangle.  Where the context has persistently mapped buffers (GL 4.4 or
 * GL_ARB_buffer_storage; gpu_strips_set_mapped), the pixel-pack buffers stay mapped in the
 * host's memory, so that a strip can be taken in place (gpu_strips_view_raw: sent from there
 * with no copy), and the way in has a mapped ring of its own, where a strip can be received
 * in place (gpu_strips_area) and uploaded from without a copy.  The large array is touched by
 * passes only: a glReadPixels or glTexSubImage2D on a rectangle of it can cost as much as
 * the whole array on some drivers (docs/mpi.md has the measurement on NVIDIA's).
 *
 * Values as gpu_array2d_rect_doubles gives them: element k's at buf[stride k + offset ...],
 * an RGBA32F element 4 values (widened; written: rounded to float), an RGBA32UI element 2
 * doubles (its bits).  The passes are fragment or compute passes as gpu_compute_passes()
 * was at the first call. */
#ifndef SWGL_GPU_STRIPS_H
#define SWGL_GPU_STRIPS_H

#include "gpu_array2d.h"
#include "gpu_mrt.h"

typedef struct gpu_strips gpu_strips;

swgl_status gpu_strips_create(gpu_strips **out);
void gpu_strips_destroy(gpu_strips *s);   /* NULL is fine */
/* Whether the buffers are mapped for good where the context can (on by default; set before
 * the first request or reserve), and whether they are now (after a reserve). */
void gpu_strips_set_mapped(gpu_strips *s, int on);
int gpu_strips_mapped(const gpu_strips *s);

/* Queues the read-back of [x, x+w) x [y, y+h) of a (up to GPU_READBACK_MAX in flight:
 * SWGL_ERR_ARG past them); fetch takes them in order, waiting for the oldest alone. */
swgl_status gpu_strips_request(gpu_strips *s, const gpu_array2d *a, int x, int y, int w, int h);
int gpu_strips_pending(const gpu_strips *s);
/* Room for requests of up to max_elems elements each (with nothing in flight; a request
 * larger than the room makes it grow, which it cannot while others are in flight). */
swgl_status gpu_strips_reserve(gpu_strips *s, long max_elems);
swgl_status gpu_strips_fetch(gpu_strips *s, double *buf, int stride, int offset);
/* request and fetch at once (nothing else may be in flight) */
swgl_status gpu_strips_read(gpu_strips *s, const gpu_array2d *a, int x, int y, int w, int h, double *buf, int stride,
                            int offset);
/* buf's values into [x, x+w) x [y, y+h) of a (queued: the caller's next pass sees them) */
swgl_status gpu_strips_write(gpu_strips *s, gpu_array2d *a, int x, int y, int w, int h, const double *buf, int stride,
                             int offset);
/* gpu_array2d_rect_doubles through s (read or write), or as it is where s is NULL (a
 * backend's halo with tune mpi.pack=off, to measure the difference) */
swgl_status gpu_strips_rect(gpu_strips *s, gpu_array2d *a, int set, int x, int y, int w, int h, double *buf, int stride,
                            int offset);
/* The same over the first `members` members of an MRT, 4 values an element in buf: member
 * 0's four (1 member, RGBA32F), or member k's two doubles at 2 k (2 members, RGBA32UI: the
 * double-precision states keep (x, y) and (z, w) in two). */
swgl_status gpu_strips_rect_mrt(gpu_strips *s, gpu_mrt *m, int members, int set, int x, int y, int w, int h,
                                double *buf);
/* request of the first `members` members of an MRT (a read-back a member; fetched by
 * gpu_strips_fetch_mrt_raw below) */
swgl_status gpu_strips_request_mrt(gpu_strips *s, gpu_mrt *m, int members, int x, int y, int w, int h);

/* The raw forms: the elements as stored, 16 bytes each (RGBA32F's floats, RGBA32UI's bits),
 * w x h of them, rows from the south; over an MRT's first `members` members, member k's
 * elements at buf + 16 w h k.  fetch_raw takes the oldest request; rect_raw reads (request
 * and fetch, nothing else in flight) or writes, or with s NULL reads or writes directly. */
swgl_status gpu_strips_fetch_raw(gpu_strips *s, void *buf);
swgl_status gpu_strips_write_raw(gpu_strips *s, gpu_array2d *a, int x, int y, int w, int h, const void *buf);
swgl_status gpu_strips_rect_raw(gpu_strips *s, gpu_array2d *a, int set, int x, int y, int w, int h, void *buf);
swgl_status gpu_strips_rect_mrt_raw(gpu_strips *s, gpu_mrt *m, int members, int set, int x, int y, int w, int h,
                                    void *buf);
swgl_status gpu_strips_fetch_mrt_raw(gpu_strips *s, int members, void *buf);
/* The oldest request's elements in place (*p; mapped: the pixel-pack buffer's own memory,
 * which holds them until that buffer's next request: the buffers are taken in turn, so
 * GPU_READBACK_MAX requests after the one that filled it; make no request while a send from
 * it is in flight; else copied into fallback, and *p = fallback). */
swgl_status gpu_strips_view_raw(gpu_strips *s, void *fallback, const void **p);
/* The same over an MRT's first `members` members (fetch_mrt_raw's layout): in place for one,
 * copied into fallback for more. */
swgl_status gpu_strips_view_mrt_raw(gpu_strips *s, int members, void *fallback, const void **p);
/* Mapped: *p = room for `bytes` in the way in's ring, to be filled (a strip received into it)
 * and passed to gpu_strips_write_raw (or rect_raw, rect_mrt_raw), which then uploads it
 * without a copy; the room is the caller's until then (the rooms given out and not yet
 * written from are stepped past; uploads from the ring in the way are waited for).  *p = NULL
 * where there is no ring, the strip is larger than it, or every place is given out (fill a
 * buffer of your own then). */
swgl_status gpu_strips_area(gpu_strips *s, size_t bytes, void **p);

#endif

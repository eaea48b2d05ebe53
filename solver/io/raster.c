/* raster.c — raster_read: the table of readers and the dispatch by file type (raster.h).
 *
 * A path whose name ends in a reader's ending goes to that reader (which reports a file
 * it cannot open or read, as it always has); any other path is opened and its first
 * bytes are offered to each reader's probe; a file no reader takes is an error that
 * names it and the formats this build reads.  A new format is a file with its read (and
 * probe) functions and one line in readers[] below.
 */
#include "raster.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct raster_reader {
    const char *name;      /* for messages */
    const char *endings;   /* the name endings it reads, space-separated (lower case) */
    int (*probe)(const unsigned char *head, size_t n);   /* 1: the first bytes are its; NULL: none */
    swgl_status (*read)(const char *path, raster *r);
} raster_reader;

static const raster_reader readers[] = {
    {"ESRI ASCII grid", ".asc", raster_asc_probe, raster_read_asc},
};
#define N_READERS (sizeof readers / sizeof readers[0])

#define PROBE_BYTES 512

/* Whether path ends in one of the space-separated endings (case-insensitive). */
static int ends_in(const char *path, const char *endings)
{
    size_t n = strlen(path);
    for (const char *e = endings; *e;) {
        size_t m = strcspn(e, " ");
        if (m > 0 && n > m && strncasecmp(path + n - m, e, m) == 0) return 1;
        e += m;
        while (*e == ' ') e++;
    }
    return 0;
}

static const raster_reader *by_ending(const char *path)
{
    for (size_t k = 0; k < N_READERS; k++)
        if (ends_in(path, readers[k].endings)) return &readers[k];
    return NULL;
}

int raster_known_ending(const char *path) { return by_ending(path) != NULL; }

const char *raster_formats(void)
{
    static char list[256];
    if (list[0]) return list;
    size_t o = 0;
    for (size_t k = 0; k < N_READERS && o < sizeof list; k++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%s (%s)", k ? ", " : "", readers[k].name,
                              readers[k].endings);
    return list;
}

swgl_status raster_read(const char *path, raster *r)
{
    memset(r, 0, sizeof *r);
    if (!path) return swgl_fail(SWGL_ERR_ARG, "raster_read: no path");
    const raster_reader *rd = by_ending(path);
    if (!rd) {   /* no known ending: the first bytes */
        FILE *f = fopen(path, "rb");
        if (!f) return swgl_fail(SWGL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        unsigned char head[PROBE_BYTES];
        size_t n = fread(head, 1, sizeof head, f);
        fclose(f);
        for (size_t k = 0; k < N_READERS && !rd; k++)
            if (readers[k].probe && readers[k].probe(head, n)) rd = &readers[k];
        if (!rd)
            return swgl_fail(SWGL_ERR_INPUT, "%s: unknown raster type: this build reads %s", path,
                             raster_formats());
    }
    swgl_status st = rd->read(path, r);
    if (st != SWGL_OK) {
        raster_free(r);
        return st;
    }
    r->format = rd->name;
    return SWGL_OK;
}

void raster_free(raster *r)
{
    if (!r) return;
    free(r->v);
    free(r->nodata);
    free(r->crs);
    memset(r, 0, sizeof *r);
}

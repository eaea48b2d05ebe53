/* gpu_source.c — the GLSL sources of passes: shader files embedded by the build (gpgpu's
 * own, then the tables schemes register) or read from SWGL_SHADER_DIR, and the assembly
 * of a program's source: #include "F.glsl" lines expanded with #line directives that
 * number each file as a source string, and the driver's log rewritten as file:line
 * (gpu_program.c says how the source is laid out). */
#include "gpu_program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.h"

/* gpgpu's own shaders (shaders/gpgpu/: the prelude, copy, reduce, ...), embedded by the
 * build; a scheme's shaders come through gpu_shader_register. */
extern const struct swgl_embedded swgl_shaders_gpgpu_files[];

/* ---- shader files: embedded, or from SWGL_SHADER_DIR ---- */

typedef struct disk_file { char name[128]; char *text; struct disk_file *next; } disk_file;
static disk_file *g_disk;

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *t = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (t && fread(t, 1, (size_t)n, f) == (size_t)n) t[n] = '\0';
    else {
        free(t);
        t = NULL;
    }
    fclose(f);
    return t;
}

/* The known tables of shader files: gpgpu's own first, then what schemes registered. */
#define MAX_TABLES 16
static struct { const char *folder; const struct swgl_embedded *files; } g_tables[MAX_TABLES] = {
    {"gpgpu", swgl_shaders_gpgpu_files}};
static int g_ntables = 1;

void gpu_shader_register(const char *folder, const struct swgl_embedded *files)
{
    for (int t = 0; t < g_ntables; t++)
        if (g_tables[t].files == files) return;
    if (g_ntables < MAX_TABLES) {
        g_tables[g_ntables].folder = folder;
        g_tables[g_ntables++].files = files;
    }
}

/* SWGL_SHADER_DIR/FOLDER/file for the table that embeds file (the folder layout of the
 * source tree's shaders/), read once and kept. */
static const char *disk_source(const char *dir, const char *file)
{
    for (disk_file *d = g_disk; d; d = d->next)
        if (strcmp(d->name, file) == 0) return d->text;
    char *t = NULL;
    for (int k = 0; k < g_ntables && !t; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/%s", dir, g_tables[k].folder, file);
        t = read_file(path);
    }
    if (!t) return NULL;
    disk_file *d = calloc(1, sizeof *d);
    if (!d) {
        free(t);
        return NULL;
    }
    snprintf(d->name, sizeof d->name, "%s", file);
    d->text = t;
    d->next = g_disk;
    g_disk = d;
    return t;
}

const char *gpu_shader_source(const char *file)
{
    const char *dir = getenv("SWGL_SHADER_DIR");
    if (dir && *dir) return disk_source(dir, file);
    for (int k = 0; k < g_ntables; k++)
        for (const struct swgl_embedded *e = g_tables[k].files; e->name; e++)
            if (strcmp(e->name, file) == 0) return e->text;
    return NULL;
}

/* ---- assembling the source ---- */

int gpu_src_put(gpu_srcbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 4096);
        while (cap < b->len + n + 1) cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t) return -1;
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

int gpu_src_putf(gpu_srcbuf *b, const char *fmt, int a, int c)
{
    char line[64];
    int n = snprintf(line, sizeof line, fmt, a, c);
    return gpu_src_put(b, line, (size_t)n);
}

/* Appends file text (source string id), expanding #include "x.glsl" lines. */
swgl_status gpu_src_append(gpu_srcbuf *b, const char *pass, const char *file, const char *text,
                           int first_line, int depth)
{
    int id = b->nfiles;
    if (id >= GPU_MAX_SOURCES || depth > 4)
        return swgl_fail(SWGL_ERR_ARG, "pass '%s': too many or too deeply nested #include files", pass);
    b->files[b->nfiles++] = file;
    if (gpu_src_putf(b, "#line %d %d\n", first_line, id)) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    int line = 1;
    const char *p = text;
    for (; line < first_line && *p; p++) if (*p == '\n') line++;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) + 1 : strlen(p);
        const char *q = p;
        while (q < p + n && (*q == ' ' || *q == '\t')) q++;
        if (strncmp(q, "#include", 8) == 0) {
            const char *a = strchr(q, '"'), *z = a ? strchr(a + 1, '"') : NULL;
            if (!a || !z || z > p + n)
                return swgl_fail(SWGL_ERR_COMPILE, "pass '%s': %s:%d: malformed #include", pass, file, line);
            char inc[128];
            snprintf(inc, sizeof inc, "%.*s", (int)(z - a - 1), a + 1);
            const char *itext = gpu_shader_source(inc);
            if (!itext)
                return swgl_fail(SWGL_ERR_MISSING, "pass '%s': %s:%d: #include \"%s\": no such shader file",
                                pass, file, line, inc);
            static char names[GPU_MAX_SOURCES][128];   /* include names outlive this call */
            int slot = b->nfiles;
            snprintf(names[slot], sizeof names[slot], "%s", inc);
            swgl_status st = gpu_src_append(b, pass, names[slot], itext, 1, depth + 1);
            if (st != SWGL_OK) return st;
            if (gpu_src_putf(b, "\n#line %d %d\n", line + 1, id)) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        } else if (gpu_src_put(b, p, n) || (!end && gpu_src_put(b, "\n", 1))) {
            return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        }
        p += n;
        line++;
    }
    return SWGL_OK;
}

/* Rewrites "S:L(C): msg" (Mesa) and "S(L) : msg" (NVIDIA) as "file:L: msg". */
void gpu_src_rewrite_log(const gpu_srcbuf *b, const char *log, char *out, size_t outlen, char *first,
                         size_t firstlen)
{
    size_t o = 0;
    first[0] = '\0';
    for (const char *p = log; *p && o + 1 < outlen;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        int s, l, used = 0;
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        if ((sscanf(line, "%d:%d(%*d):%n", &s, &l, &used) == 2 && used > 0) ||
            (sscanf(line, "%d(%d) :%n", &s, &l, &used) == 2 && used > 0)) {
            const char *file = s >= 0 && s < b->nfiles ? b->files[s] : "?";
            const char *msg = line + used;
            while (*msg == ' ') msg++;
            int w = snprintf(out + o, outlen - o, "%s:%d: %s\n", file, l, msg);
            if (!first[0] && (strstr(msg, "error") || strstr(msg, "ERROR")))
                snprintf(first, firstlen, "%s:%d: %s", file, l, msg);
            o += (size_t)w < outlen - o ? (size_t)w : outlen - o - 1;
        } else if (n) {
            int w = snprintf(out + o, outlen - o, "%s\n", line);
            o += (size_t)w < outlen - o ? (size_t)w : outlen - o - 1;
        }
        p += n + (end ? 1 : 0);
    }
}

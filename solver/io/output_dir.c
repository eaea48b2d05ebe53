/* output_dir.c — the output folder of a run, which changes as a whole or not at all.
 *
 * outdir_open(DIR) makes DIR's parent folders if missing and a staging folder beside
 * DIR, PARENT/.NAME.swgl-tmp-PID, holding the marker file .swgl-output.  Writers write
 * into the staging folder through outdir_path(); a name may contain '/', and the
 * subfolders are made as needed.  outdir_commit() puts the staging folder in DIR's
 * place with one atomic exchange of the two folders (renameat2 RENAME_EXCHANGE; where
 * the file system lacks it, DIR is first renamed to PARENT/.NAME.swgl-old-PID, the
 * staging folder to DIR, and the old one removed only after that succeeded), then
 * removes the old folder.  So DIR is at every moment either the old run's folder or the
 * new one's, never a mix; outdir_abort() removes the staging folder and DIR is as it was.
 *
 * Since DIR is replaced as a whole, a folder that swgl did not write is never replaced:
 * an existing DIR must be empty or hold .swgl-output (or, written by older versions,
 * summary.json), else outdir_open refuses it.  outdir_open also removes the staging and
 * old folders that runs killed before their end (SIGKILL, power loss) left beside DIR,
 * and puts an old folder back in DIR's place when a run died between the two renames of
 * the fallback.
 *
 * Writing in the background (issue 28: a run's grids written while it goes on stepping,
 * and side by side at its end): a file is opened (outdir_file_open), filled buffers of its
 * parts are handed to the folder's writer threads (outdir_file_write; OUTDIR_WRITERS, started
 * at the first part), which write each at its offset, and it is closed by whoever holds it
 * last (outdir_file_close).  The caller waits only while OUTDIR_PENDING_MAX bytes are queued,
 * and takes its buffers from outdir_buffer, which hands back written ones (their pages
 * cleared once).  outdir_flush waits for them all and gives the first failure, naming the
 * file; outdir_commit flushes before the swap (a failed write commits nothing), outdir_abort
 * waits and throws the folder away. */
#define _GNU_SOURCE 1   /* renameat2 */
#include "output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

#define MARKER ".swgl-output"

#define OUTDIR_WRITERS 4
#define OUTDIR_PENDING_MAX ((size_t)256 << 20)
#define OUTDIR_SPARE_MAX 2   /* buffers kept for reuse (until the commit) */

struct outdir {
    char dir[PATH_MAX];       /* DIR */
    char parent[PATH_MAX];    /* its parent folder */
    char name[NAME_MAX + 1];  /* its last component */
    char stage[PATH_MAX];     /* PARENT/.NAME.swgl-tmp-PID */
    char path[PATH_MAX];      /* outdir_path's answer */
    /* the writers: the queue (head .. tail), the bytes queued or being written, the jobs
     * being written, the first failure's message (failed) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t th[OUTDIR_WRITERS];
    int threads, stop, busy, failed;
    struct wjob *head, *tail;
    size_t pending;
    char why[PATH_MAX + 128];
    /* buffers written, kept for the next ones (outdir_buffer: their pages cleared once) */
    struct wjob *spare;
    int n_spare;
};

/* mkdir -p: creates path and its parents; an existing folder is fine. */
int outdir_mkdirs(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
    struct stat st;
    if (stat(buf, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* rm -r of path (a file or a folder); errors are ignored. */
static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            char sub[PATH_MAX];
            if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) < (int)sizeof sub)
                remove_tree(sub);
        }
        if (d) closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* 1 if pid names a process that no longer exists */
static int dead(long pid)
{
    return pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Cleans what dead runs left beside DIR (and, from older versions, inside it). */
static void clean_leftovers(const outdir *o)
{
    char tmp_prefix[NAME_MAX + 32], old_prefix[NAME_MAX + 32];
    snprintf(tmp_prefix, sizeof tmp_prefix, ".%s.swgl-tmp-", o->name);
    snprintf(old_prefix, sizeof old_prefix, ".%s.swgl-old-", o->name);
    struct stat st;
    int have_dir = stat(o->dir, &st) == 0;
    DIR *d = opendir(o->parent);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        int is_tmp = strncmp(e->d_name, tmp_prefix, strlen(tmp_prefix)) == 0;
        int is_old = strncmp(e->d_name, old_prefix, strlen(old_prefix)) == 0;
        if (!is_tmp && !is_old) continue;
        long pid = strtol(e->d_name + strlen(is_tmp ? tmp_prefix : old_prefix), NULL, 10);
        if (!dead(pid)) continue;
        char p[PATH_MAX];
        if (snprintf(p, sizeof p, "%s/%s", o->parent, e->d_name) >= (int)sizeof p) continue;
        if (is_old && !have_dir && rename(p, o->dir) == 0) {   /* died between the renames */
            have_dir = 1;
            continue;
        }
        remove_tree(p);
    }
    if (d) closedir(d);
    d = opendir(o->dir);                                       /* DIR/.swgl-tmp-PID (older) */
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, ".swgl-tmp-", 10) != 0 || !dead(strtol(e->d_name + 10, NULL, 10))) continue;
        char p[PATH_MAX];
        if (snprintf(p, sizeof p, "%s/%s", o->dir, e->d_name) < (int)sizeof p) remove_tree(p);
    }
    if (d) closedir(d);
}

/* 0 when DIR may be replaced: missing, empty, or written by swgl */
static int replaceable(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return errno == ENOENT ? 0 : -1;
    struct dirent *e;
    int entries = 0, ours = 0;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (strncmp(e->d_name, ".swgl-tmp-", 10) == 0) continue;
        entries++;
        if (strcmp(e->d_name, MARKER) == 0 || strcmp(e->d_name, "summary.json") == 0) ours = 1;
    }
    closedir(d);
    return entries == 0 || ours ? 0 : 1;
}

outdir *outdir_open(const char *dir)
{
    outdir *o = calloc(1, sizeof *o);
    if (!o) {
        swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", dir);
        return NULL;
    }
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    if (n == 0 || n + 64 >= sizeof o->dir) {
        swgl_fail(SWGL_ERR_ARG, "%s: bad output folder name", dir);
        free(o);
        return NULL;
    }
    memcpy(o->dir, dir, n);
    o->dir[n] = '\0';
    const char *slash = strrchr(o->dir, '/');
    const char *base = slash ? slash + 1 : o->dir;
    if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0 || strlen(base) > NAME_MAX - 32) {
        swgl_fail(SWGL_ERR_ARG, "%s: name the output folder itself (it is replaced as a whole), not . or ..", dir);
        free(o);
        return NULL;
    }
    snprintf(o->name, sizeof o->name, "%s", base);
    if (slash == o->dir) snprintf(o->parent, sizeof o->parent, "/");
    else if (slash) snprintf(o->parent, sizeof o->parent, "%.*s", (int)(slash - o->dir), o->dir);
    else snprintf(o->parent, sizeof o->parent, ".");
    if (snprintf(o->stage, sizeof o->stage, "%s/.%s.swgl-tmp-%ld", o->parent, o->name, (long)getpid()) >=
        (int)sizeof o->stage) {
        swgl_fail(SWGL_ERR_ARG, "%s: folder name too long", dir);
        free(o);
        return NULL;
    }
    struct stat st;
    if (stat(o->dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        swgl_fail(SWGL_ERR_IO, "%s: cannot create folder: %s", o->dir, strerror(ENOTDIR));
        free(o);
        return NULL;
    }
    if (outdir_mkdirs(o->parent) != 0) {
        swgl_fail(SWGL_ERR_IO, "%s: cannot create folder: %s", o->parent, strerror(errno));
        free(o);
        return NULL;
    }
    clean_leftovers(o);
    int r = replaceable(o->dir);
    if (r != 0) {
        swgl_fail(SWGL_ERR_IO,
                  r < 0 ? "%s: cannot read folder: %s"
                        : "%s: the folder exists and was not written by swgl (it holds no %s); a run replaces its "
                          "output folder as a whole, so give --out a new folder or one of swgl's",
                  o->dir, r < 0 ? strerror(errno) : MARKER);
        free(o);
        return NULL;
    }
    remove_tree(o->stage);
    char marker[PATH_MAX];
    FILE *m = NULL;
    if (mkdir(o->stage, 0777) != 0 || snprintf(marker, sizeof marker, "%s/" MARKER, o->stage) >= (int)sizeof marker ||
        !(m = fopen(marker, "w")) || fprintf(m, "written by swgl; a run replaces this folder as a whole\n") < 0 ||
        fclose(m) != 0) {
        swgl_fail(SWGL_ERR_IO, "%s: cannot create folder: %s", o->stage, strerror(errno));
        remove_tree(o->stage);
        free(o);
        return NULL;
    }
    pthread_mutex_init(&o->mu, NULL);   /* (the writers') */
    pthread_cond_init(&o->cv, NULL);
    return o;
}

const char *outdir_path(outdir *o, const char *name)
{
    if (!o || !name || !*name || name[0] == '/' || strstr(name, ".."))
        return NULL;
    if (snprintf(o->path, sizeof o->path, "%s/%s", o->stage, name) >= (int)sizeof o->path)
        return NULL;
    char *slash = strrchr(o->path, '/');
    if (slash > o->path + strlen(o->stage)) {   /* name has folders: make them */
        *slash = '\0';
        int rc = outdir_mkdirs(o->path);
        *slash = '/';
        if (rc != 0) return NULL;
    }
    return o->path;
}

/* ---- the writers ---------------------------------------------------------------------- */

/* a file written in parts: open while the caller or a part holds it (refs) */
struct outdir_file {
    int fd, refs;
    char path[PATH_MAX];
};

/* bytes of buf (a buffer of cap bytes) at offset of file f */
typedef struct wjob {
    struct wjob *next;
    outdir_file *f;
    size_t off, bytes, cap;
    void *buf;
} wjob;

/* the job's bytes into its file: 0, or an errno */
static int write_part(const wjob *j)
{
    const char *b = j->buf;
    size_t left = j->bytes, off = j->off;
    while (left > 0) {
        ssize_t w = pwrite(j->f->fd, b, left < ((size_t)1 << 20) ? left : ((size_t)1 << 20), (off_t)off);   /* (1 MB a call) */
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return w < 0 ? errno : EIO;
        b += w;
        off += (size_t)w;
        left -= (size_t)w;
    }
    return 0;
}

/* (o->mu held) a failure of file f, the first one named */
static void fail_locked(outdir *o, const outdir_file *f, int err)
{
    if (o->failed) return;
    o->failed = 1;
    snprintf(o->why, sizeof o->why, "%s: write failed: %s", f->path, strerror(err));
}

/* (o->mu held) one holder of f less: the last closes it (the lock let go meanwhile) */
static void release_locked(outdir *o, outdir_file *f)
{
    if (--f->refs > 0) return;
    pthread_mutex_unlock(&o->mu);
    int err = close(f->fd) != 0 ? errno : 0;
    pthread_mutex_lock(&o->mu);
    if (err) fail_locked(o, f, err);
    free(f);
}

static void *writer(void *arg)
{
    outdir *o = arg;
    pthread_mutex_lock(&o->mu);
    for (;;) {
        while (!o->head && !o->stop) pthread_cond_wait(&o->cv, &o->mu);
        wjob *j = o->head;
        if (!j) break;   /* (stop, and nothing left) */
        o->head = j->next;
        if (!o->head) o->tail = NULL;
        o->busy++;
        int skip = o->failed;   /* (after a failure the rest is thrown away) */
        pthread_mutex_unlock(&o->mu);
        int err = skip ? 0 : write_part(j);
        pthread_mutex_lock(&o->mu);
        if (err) fail_locked(o, j->f, err);
        release_locked(o, j->f);
        o->busy--;
        o->pending -= j->bytes;
        if (o->n_spare < OUTDIR_SPARE_MAX && !o->stop) {   /* (kept for outdir_buffer) */
            j->next = o->spare;
            o->spare = j;
            o->n_spare++;
        } else {
            free(j->buf);
            free(j);
        }
        pthread_cond_broadcast(&o->cv);
    }
    pthread_mutex_unlock(&o->mu);
    return NULL;
}

void *outdir_buffer(outdir *o, size_t bytes)
{
    pthread_mutex_lock(&o->mu);
    wjob **p = &o->spare;
    while (*p && (*p)->cap < bytes) p = &(*p)->next;
    wjob *j = *p;
    if (j) {
        *p = j->next;
        o->n_spare--;
    }
    pthread_mutex_unlock(&o->mu);
    if (!j) return malloc(bytes ? bytes : 1);
    void *b = j->buf;
    free(j);
    return b;
}

outdir_file *outdir_file_open(outdir *o, const char *name)
{
    const char *path = outdir_path(o, name);
    outdir_file *f = path ? malloc(sizeof *f) : NULL;
    if (!f) {
        if (path) swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", path);
        else swgl_fail(SWGL_ERR_IO, "%s: bad name in the output folder", name ? name : "(no name)");
        return NULL;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    f->refs = 1;
    /* (a new file: parts still queued for one of the same name go to that one, unlinked) */
    if (unlink(path) != 0 && errno != ENOENT && errno != EISDIR) {
        swgl_fail(SWGL_ERR_IO, "%s: cannot replace: %s", path, strerror(errno));
        free(f);
        return NULL;
    }
    if ((f->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) < 0) {
        swgl_fail(SWGL_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
        free(f);
        return NULL;
    }
    return f;
}

swgl_status outdir_file_write(outdir *o, outdir_file *f, size_t offset, void *buf, size_t bytes)
{
    wjob *j = buf ? malloc(sizeof *j) : NULL;
    if (!j) {
        free(buf);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", f->path);
    }
    *j = (wjob){NULL, f, offset, bytes, bytes, buf};
    pthread_mutex_lock(&o->mu);
    if (o->failed) {   /* (a write failed already: the run fails now, not at its end) */
        pthread_mutex_unlock(&o->mu);
        free(j->buf);
        free(j);
        return swgl_fail(SWGL_ERR_IO, "%s", o->why);
    }
    if (o->threads == 0) {   /* the writers, at the first part (none started: written here) */
        for (int k = 0; k < OUTDIR_WRITERS; k++)
            if (pthread_create(&o->th[o->threads], NULL, writer, o) == 0) o->threads++;
    }
    if (o->threads == 0) {
        pthread_mutex_unlock(&o->mu);
        int err = write_part(j);
        free(j->buf);
        free(j);
        return err ? swgl_fail(SWGL_ERR_IO, "%s: write failed: %s", f->path, strerror(err)) : SWGL_OK;
    }
    while (o->pending > 0 && o->pending + bytes > OUTDIR_PENDING_MAX) pthread_cond_wait(&o->cv, &o->mu);
    f->refs++;
    if (o->tail) o->tail->next = j;
    else o->head = j;
    o->tail = j;
    o->pending += bytes;
    pthread_cond_signal(&o->cv);
    pthread_mutex_unlock(&o->mu);
    return SWGL_OK;
}

void outdir_file_close(outdir *o, outdir_file *f)
{
    if (!f) return;
    pthread_mutex_lock(&o->mu);
    release_locked(o, f);
    pthread_mutex_unlock(&o->mu);
}

swgl_status outdir_write_async(outdir *o, const char *name, void *buf, size_t bytes)
{
    outdir_file *f = outdir_file_open(o, name);
    if (!f) {
        free(buf);
        return SWGL_ERR_IO;
    }
    swgl_status st = outdir_file_write(o, f, 0, buf, bytes);
    outdir_file_close(o, f);
    return st;
}

swgl_status outdir_flush(outdir *o)
{
    if (!o) return SWGL_OK;
    pthread_mutex_lock(&o->mu);
    while (o->head || o->busy) pthread_cond_wait(&o->cv, &o->mu);
    int failed = o->failed;
    pthread_mutex_unlock(&o->mu);
    return failed ? swgl_fail(SWGL_ERR_IO, "%s", o->why) : SWGL_OK;
}

/* the writers done and gone (the queue written, or thrown away after a failure) */
static void writers_stop(outdir *o)
{
    pthread_mutex_lock(&o->mu);
    o->stop = 1;
    pthread_cond_broadcast(&o->cv);
    pthread_mutex_unlock(&o->mu);
    for (int k = 0; k < o->threads; k++) pthread_join(o->th[k], NULL);
    o->threads = 0;
    while (o->spare) {
        wjob *j = o->spare;
        o->spare = j->next;
        free(j->buf);
        free(j);
    }
    o->n_spare = 0;
    pthread_mutex_destroy(&o->mu);
    pthread_cond_destroy(&o->cv);
}

static int g_exchange = 1;   /* outdir_set_exchange */
void outdir_set_exchange(int on) { g_exchange = on != 0; }

/* Puts the staging folder in DIR's place; DIR is the old or the new folder throughout. */
static swgl_status swap_in(const outdir *o)
{
    struct stat st;
    if (stat(o->dir, &st) != 0) {   /* no old folder: one rename */
        if (rename(o->stage, o->dir) == 0) return SWGL_OK;
        return swgl_fail(SWGL_ERR_IO, "%s: cannot move the new outputs into place: %s", o->dir, strerror(errno));
    }
    if (g_exchange &&
        renameat2(AT_FDCWD, o->stage, AT_FDCWD, o->dir, RENAME_EXCHANGE) == 0) {
        remove_tree(o->stage);      /* now the old folder */
        return SWGL_OK;
    }
    /* no exchange on this file system: old aside, new in, old removed */
    char old[PATH_MAX];
    if (snprintf(old, sizeof old, "%s/.%s.swgl-old-%ld", o->parent, o->name, (long)getpid()) >= (int)sizeof old)
        return swgl_fail(SWGL_ERR_IO, "%s: folder name too long", o->dir);
    remove_tree(old);
    if (rename(o->dir, old) != 0)
        return swgl_fail(SWGL_ERR_IO, "%s: cannot move the old outputs aside: %s", o->dir, strerror(errno));
    if (rename(o->stage, o->dir) != 0) {
        int e = errno;
        rename(old, o->dir);        /* put the old one back */
        return swgl_fail(SWGL_ERR_IO, "%s: cannot move the new outputs into place: %s", o->dir, strerror(e));
    }
    remove_tree(old);
    return SWGL_OK;
}

swgl_status outdir_commit(outdir *o)
{
    if (!o) return swgl_fail(SWGL_ERR_ARG, "outdir_commit: no output folder");
    swgl_status st = outdir_flush(o);
    writers_stop(o);
    if (st == SWGL_OK) st = swap_in(o);
    remove_tree(o->stage);          /* after a failure: the new outputs; DIR is untouched */
    free(o);
    return st;
}

void outdir_abort(outdir *o)
{
    if (!o) return;
    pthread_mutex_lock(&o->mu);
    o->failed = 1;   /* (what is queued is thrown away) */
    pthread_mutex_unlock(&o->mu);
    writers_stop(o);
    remove_tree(o->stage);
    free(o);
}

/* output_dir.c — the output folder of a run, written so that a failed run leaves the
 * files of an earlier run untouched.
 *
 * outdir_open(DIR) creates DIR (and its parents) if missing and a staging folder
 * DIR/.swgl-tmp-PID (an old one of that name, left by a crash, is removed first).
 * Writers write into the staging folder through outdir_path(); a name may contain '/',
 * and the subfolders are made in the staging folder as needed.  outdir_commit() moves
 * every staged file into DIR with one rename(2) each — so each file in DIR is either the
 * old one or the complete new one — and removes the staging folder.  outdir_abort()
 * removes the staging folder and its contents; DIR is as it was.
 */
#include "output.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct outdir {
    char dir[PATH_MAX];
    char stage[PATH_MAX];
    char path[PATH_MAX];      /* outdir_path's answer */
};

/* mkdir -p: creates path and its parents; an existing folder is fine. */
static int make_dirs(const char *path)
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
    if (snprintf(o->stage, sizeof o->stage, "%s/.swgl-tmp-%ld", o->dir, (long)getpid())
        >= (int)sizeof o->stage) {
        swgl_fail(SWGL_ERR_ARG, "%s: folder name too long", dir);
        free(o);
        return NULL;
    }
    if (make_dirs(o->dir) != 0) {
        swgl_fail(SWGL_ERR_IO, "%s: cannot create folder: %s", o->dir, strerror(errno));
        free(o);
        return NULL;
    }
    remove_tree(o->stage);
    if (mkdir(o->stage, 0777) != 0) {
        swgl_fail(SWGL_ERR_IO, "%s: cannot create folder: %s", o->stage, strerror(errno));
        free(o);
        return NULL;
    }
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
        int rc = make_dirs(o->path);
        *slash = '/';
        if (rc != 0) return NULL;
    }
    return o->path;
}

/* Moves everything in the staged folder src into dst (made if missing). */
static swgl_status commit_tree(const char *src, const char *dst)
{
    DIR *d = opendir(src);
    if (!d) return swgl_fail(SWGL_ERR_IO, "%s: cannot read folder: %s", src, strerror(errno));
    swgl_status st = SWGL_OK;
    struct dirent *e;
    while (st == SWGL_OK && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char from[PATH_MAX], to[PATH_MAX];
        struct stat st_from;
        if (snprintf(from, sizeof from, "%s/%s", src, e->d_name) >= (int)sizeof from ||
            snprintf(to, sizeof to, "%s/%s", dst, e->d_name) >= (int)sizeof to) {
            st = swgl_fail(SWGL_ERR_IO, "%s/%s: path too long", dst, e->d_name);
        } else if (lstat(from, &st_from) == 0 && S_ISDIR(st_from.st_mode)) {
            if (make_dirs(to) != 0)
                st = swgl_fail(SWGL_ERR_IO, "%s: cannot create folder: %s", to, strerror(errno));
            else
                st = commit_tree(from, to);
        } else if (rename(from, to) != 0) {
            st = swgl_fail(SWGL_ERR_IO, "%s: cannot move into place: %s", to, strerror(errno));
        }
    }
    closedir(d);
    return st;
}

swgl_status outdir_commit(outdir *o)
{
    if (!o) return swgl_fail(SWGL_ERR_ARG, "outdir_commit: no output folder");
    swgl_status st = commit_tree(o->stage, o->dir);
    remove_tree(o->stage);
    free(o);
    return st;
}

void outdir_abort(outdir *o)
{
    if (!o) return;
    remove_tree(o->stage);
    free(o);
}

/* tuning.c — the one table of tuning keys (tuning.h): parse, list, validate, format. */
#include "tuning.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum key_type { K_INT, K_BOOL, K_AXB, K_CHOICE };

typedef struct key_def {
    const char *name;
    enum key_type type;
    size_t off;                 /* of the int (AxB: of the int[2]) in swgl_tuning */
    int min, max;               /* K_INT: the range; K_AXB: each side's (A), see max2 */
    int min2, max2;             /* K_AXB: B's range */
    const char *const *names;   /* K_CHOICE: the names, values 0.. (or vals) */
    const int *vals;
    const char *def;            /* the default, as text */
    const char *help;
} key_def;

static const char *const kp_fused_names[] = {"off", "on", "flux", NULL};
static const int kp_fused_vals[] = {TUNE_KP_FUSED_OFF, TUNE_KP_FUSED_ON, TUNE_KP_FUSED_FLUX};
static const char *const isa_names[] = {"auto", "sse2", "avx2", "avx512", NULL};
static const int isa_vals[] = {0, 1, 2, 3};   /* SWE_ISA_* (cpu_ref/swe.h) */
static const char *const tri_names[] = {"auto", "off", "on", NULL};
static const int tri_vals[] = {TUNE_AUTO, TUNE_OFF, TUNE_ON};

#define OFF(f) offsetof(swgl_tuning, f)
static const key_def keys[] = {
    {"cpu.isa", K_CHOICE, OFF(cpu_isa), 0, 0, 0, 0, isa_names, isa_vals, "auto",
     "roe's fast CPU solver's vector instructions: auto (the widest the CPU has), sse2, avx2 or avx512 (an "
     "error where the CPU lacks them); the results are the same bits on each (kp picks its own at load)"},
    {"cpu.threads", K_INT, OFF(cpu_threads), 0, 1024, 0, 0, NULL, NULL, "0",
     "the fast CPU solvers' (kp, roe, hllc, sediment) threads: N fixed, or 0: as many as the cores other programs leave, "
     "looked at every 0.25 s, at most OpenMP's count (OMP_NUM_THREADS; docs/performance.md)"},
    {"clock_every", K_INT, OFF(clock_every), 1, 63, 0, 0, NULL, NULL, "32",
     "a GPU backend keeps the time step on the device and reads its clock back every N steps"},
    {"clock_gauges", K_BOOL, OFF(clock_gauges), 0, 1, 0, 0, NULL, NULL, "on",
     "gpu-compute (float): the times at which only gauges are written are landed on by the GPU's clock, the "
     "gauges' values kept there, without the host (off: the host lands on each and reads the gauges there)"},
    {"gl_check", K_BOOL, OFF(gl_check), 0, 1, 0, 0, NULL, NULL, "off",
     "every GL pass followed by a glGetError check, to find a GL error's pass (was SWGL_GL_CHECK=1)"},
    {"host_clock", K_BOOL, OFF(host_clock), 0, 1, 0, 0, NULL, NULL, "off",
     "step on the host's clock: the time step read back every step (was SWGL_DT_READBACK=sync)"},
    {"roe.fused", K_BOOL, OFF(roe_fused), 0, 1, 0, 0, NULL, NULL, "on",
     "gpu-compute roe (float, no boundary data): edge and dt passes as one kernel"},
    {"roe.group", K_AXB, OFF(roe_group), 2, 1024, 2, 1024, NULL, NULL, "8x16",
     "the work group of roe's fused kernel (A*B <= 1024, its ring in 32 KiB of shared memory)"},
    {"kp.fused", K_CHOICE, OFF(kp_fused), 0, 0, 0, 0, kp_fused_names, kp_fused_vals, "on",
     "gpu-compute kp (float, no boundary data): the step on kernels (on), the flux kernel then passes (flux), "
     "or passes (off)"},
    {"kp.group", K_AXB, OFF(kp_group), 1, 1024, 1, 1024, NULL, NULL, "auto",
     "the work group of kp's flux kernel (auto: 16x8 below 2^22 cells, 32x2 from there, 32x4 where its tiles "
     "would outnumber a dispatch's groups)"},
    {"kp.cells", K_AXB, OFF(kp_cells), 1, 8, 1, 64, NULL, NULL, "auto",
     "the cells an invocation of kp's flux kernel sweeps, A columns of B (auto: 1x1, 1x8 from 2^22 cells, "
     "taller where its tiles would outnumber a dispatch's groups)"},
    {"kp.stage", K_CHOICE, OFF(kp_stage), 0, 0, 0, 0, tri_names, tri_vals, "auto",
     "kp's flux kernel reads its group's texels from shared memory (auto: below 2^22 cells)"},
    {"kp.xshare", K_CHOICE, OFF(kp_xshare), 0, 0, 0, 0, tri_names, tri_vals, "auto",
     "kp's flux kernel shares a row's points between invocations, one column each (auto: from 2^22 cells)"},
    {"kp.max_groups", K_INT, OFF(kp_max_groups), 2, 65535, 0, 0, NULL, NULL, "65535",
     "the most work groups a dispatch of kp's step on kernels (past it the flux tiles grow taller, auto shape)"},
    {"kp.rest", K_BOOL, OFF(kp_rest), 0, 1, 0, 0, NULL, NULL, "on",
     "kp's early exit also skips tiles at rest (R = 0 to the bit, q = 0, unchanged), as dry ones: gpu-compute's "
     "step on kernels and the fast CPU; the results are the same bits on and off"},
    {"mpi.blocks", K_AXB, OFF(mpi_blocks), 1, 65536, 1, 65536, NULL, NULL, "auto",
     "over MPI ranks: A x B blocks, A B = the ranks (auto: the least cut length)"},
    {"mpi.halo", K_INT, OFF(mpi_halo), 0, 64, 0, 0, NULL, NULL, "0",
     "over MPI ranks: the halo's width in cells (0: the scheme's; a narrower one is for tests)"},
    {"mpi.overlap", K_CHOICE, OFF(mpi_overlap), 0, 0, 0, 0, tri_names, tri_vals, "auto",
     "over MPI ranks: exchange the halo while stage 0 computes the cells that read none (auto: where it was "
     "measured to gain: kp on the fragment path, sediment on both, docs/mpi.md)"},
    {"mpi.pack", K_BOOL, OFF(mpi_pack), 0, 1, 0, 0, NULL, NULL, "on",
     "over MPI ranks on a GPU: the halo's strips packed and unpacked by passes through small arrays (off: "
     "read and written on the state's texture itself)"},
    {"mpi.mapped", K_BOOL, OFF(mpi_mapped), 0, 1, 0, 0, NULL, NULL, "on",
     "over MPI ranks on a GPU: the strips sent from and received into buffers mapped in the host's memory, "
     "without copies, where GL has them (4.4 or GL_ARB_buffer_storage; off: copied through the program's own)"},
    {"mpi.prefetch", K_BOOL, OFF(mpi_prefetch), 0, 1, 0, 0, NULL, NULL, "off",
     "over MPI ranks on a GPU: the next exchange's strips read back right after the step before it, while the "
     "time loop waits for that step (off: when the exchange begins; on two H200s it did not gain, docs/mpi.md)"},
    {"mpi.every", K_INT, OFF(mpi_every), 0, 16, 0, 0, NULL, NULL, "0",
     "over MPI ranks: the halo exchanged every N steps, N times as wide, its cells computed on both sides "
     "(0: chosen by the backend, docs/mpi.md)"},
    {"mpi.choose", K_CHOICE, OFF(mpi_choose), 0, 0, 0, 0, tri_names, tri_vals, "auto",
     "over MPI ranks: the steps between exchanges chosen at run time, N or N/2 of a halo N steps wide, by "
     "timing both (auto: on a GPU where mpi.every is left to it, N = 8; not with [run] step_hold; docs/mpi.md)"},
    {"mpi.verbose", K_BOOL, OFF(mpi_verbose), 0, 1, 0, 0, NULL, NULL, "off",
     "over MPI ranks: every rank prints its messages from the sim's creation on, not only rank 0"},
};
#undef OFF
#define N_KEYS ((int)(sizeof keys / sizeof keys[0]))

int tuning_key_count(void) { return N_KEYS; }
const char *tuning_key_name(int k) { return k >= 0 && k < N_KEYS ? keys[k].name : NULL; }

static int *field(swgl_tuning *t, const key_def *k) { return (int *)(void *)((char *)t + k->off); }

static const char *type_text(const key_def *k, char *buf, size_t len)
{
    switch (k->type) {
    case K_INT: snprintf(buf, len, "integer %d..%d", k->min, k->max); break;
    case K_BOOL: snprintf(buf, len, "on|off"); break;
    case K_AXB:
        snprintf(buf, len, "AxB, %d <= A <= %d, %d <= B <= %d%s", k->min, k->max, k->min2, k->max2,
                 strcmp(k->def, "auto") == 0 ? ", or auto" : "");
        break;
    case K_CHOICE: {
        size_t l = 0;
        buf[0] = '\0';
        for (int i = 0; k->names[i] && l < len; i++) l += (size_t)snprintf(buf + l, len - l, "%s%s", i ? "|" : "", k->names[i]);
        break;
    }
    }
    return buf;
}

/* value v (a NUL-terminated word) of key k into t */
static swgl_status set_value(swgl_tuning *t, const key_def *k, const char *v)
{
    int *p = field(t, k);
    char *end;
    switch (k->type) {
    case K_INT: {
        long x = strtol(v, &end, 10);
        if (*v && !*end && x >= k->min && x <= k->max) {
            *p = (int)x;
            return SWGL_OK;
        }
        break;
    }
    case K_BOOL:
        if (strcmp(v, "on") == 0 || strcmp(v, "1") == 0 || strcmp(v, "yes") == 0) *p = 1;
        else if (strcmp(v, "off") == 0 || strcmp(v, "0") == 0 || strcmp(v, "no") == 0) *p = 0;
        else break;
        return SWGL_OK;
    case K_AXB: {
        int a = 0, b = 0, used = 0;
        if (strcmp(k->def, "auto") == 0 && strcmp(v, "auto") == 0) {
            p[0] = p[1] = 0;
            return SWGL_OK;
        }
        /* digits 'x' digits, each read with strtol (no overflow: out of range is refused) */
        char *e1 = NULL, *e2 = NULL;
        long la = isdigit((unsigned char)v[0]) ? strtol(v, &e1, 10) : -1;
        long lb = e1 && *e1 == 'x' && isdigit((unsigned char)e1[1]) ? strtol(e1 + 1, &e2, 10) : -1;
        used = e2 && *e2 == '\0';
        a = la >= k->min && la <= k->max ? (int)la : -1;
        b = lb >= k->min2 && lb <= k->max2 ? (int)lb : -1;
        if (used && a >= 0 && b >= 0 && a >= k->min && b >= k->min2) {
            p[0] = a;
            p[1] = b;
            return SWGL_OK;
        }
        break;
    }
    case K_CHOICE:
        for (int i = 0; k->names[i]; i++)
            if (strcmp(v, k->names[i]) == 0) {
                *p = k->vals[i];
                return SWGL_OK;
            }
        break;
    }
    char exp[160];
    return swgl_fail(SWGL_ERR_ARG, "tune: %s=%s: expected %s", k->name, v, type_text(k, exp, sizeof exp));
}

void tuning_defaults(swgl_tuning *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < N_KEYS; i++) {
        swgl_status st = set_value(t, &keys[i], keys[i].def);
        (void)st;   /* (the table's defaults parse: tests/test_tuning.c) */
    }
}

const swgl_tuning *tuning_or_default(const swgl_tuning *t)
{
    static swgl_tuning def;
    static int made;
    if (t) return t;
    if (!made) {
        tuning_defaults(&def);
        made = 1;
    }
    return &def;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

swgl_status tuning_parse(swgl_tuning *t, const char *text)
{
    if (!text) return SWGL_OK;
    char *copy = strdup(text);
    if (!copy) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    swgl_status st = SWGL_OK;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",\n", &save); item && st == SWGL_OK; item = strtok_r(NULL, ",\n", &save)) {
        item = trim(item);
        if (!*item) continue;
        char *eq = strchr(item, '=');
        if (!eq) {
            st = swgl_fail(SWGL_ERR_ARG, "tune: '%s': expected key=value (swgl tune-keys lists the keys)", item);
            break;
        }
        *eq = '\0';
        char *name = trim(item), *val = trim(eq + 1);
        const key_def *k = NULL;
        for (int i = 0; i < N_KEYS && !k; i++)
            if (strcmp(keys[i].name, name) == 0) k = &keys[i];
        if (!k) st = swgl_fail(SWGL_ERR_ARG, "tune: unknown key '%s' (swgl tune-keys lists the keys)", name);
        else st = set_value(t, k, val);
    }
    free(copy);
    return st;
}

void tuning_print_keys(FILE *f)
{
    char ty[160];
    for (int i = 0; i < N_KEYS; i++)
        fprintf(f, "%-14s %-34s default %-6s %s\n", keys[i].name, type_text(&keys[i], ty, sizeof ty), keys[i].def,
                keys[i].help);
}

static void value_text(const swgl_tuning *t, const key_def *k, char *buf, size_t len)
{
    const int *p = field((swgl_tuning *)(void *)t, k);
    switch (k->type) {
    case K_INT: snprintf(buf, len, "%d", *p); break;
    case K_BOOL: snprintf(buf, len, "%s", *p ? "on" : "off"); break;
    case K_AXB:
        if (!p[0] && !p[1]) snprintf(buf, len, "auto");
        else snprintf(buf, len, "%dx%d", p[0], p[1]);
        break;
    case K_CHOICE:
        snprintf(buf, len, "?");
        for (int i = 0; k->names[i]; i++)
            if (k->vals[i] == *p) snprintf(buf, len, "%s", k->names[i]);
        break;
    }
}

void tuning_format(const swgl_tuning *t, char *out, size_t len)
{
    swgl_tuning d;
    tuning_defaults(&d);
    size_t l = 0;
    if (len) out[0] = '\0';
    for (int i = 0; i < N_KEYS && l < len; i++) {
        char a[64], b[64];
        value_text(t, &keys[i], a, sizeof a);
        value_text(&d, &keys[i], b, sizeof b);
        if (strcmp(a, b) != 0) l += (size_t)snprintf(out + l, len - l, "%s%s=%s", l ? "," : "", keys[i].name, a);
    }
}

swgl_status tuning_check_group(const char *key, const int g[2], int min)
{
    int a = g[0], b = g[1];
    if (a < min || b < min || a * b > 1024 || (long)(a + 4) * (b + 4) * 32 > 32768)
        return swgl_fail(SWGL_ERR_ARG,
                         "tune: %s=%dx%d: expected AxB (e.g. 16x8) with A, B >= %d, A*B <= 1024 and (A+4)(B+4)*32 B "
                         "of shared memory within 32 KiB",
                         key, a, b, min);
    return SWGL_OK;
}

/* the knobs of the environment before the tuning struct, and where each went */
static const struct {
    const char *name, *now;
} removed_env[] = {
    {"SWGL_CLOCK_EVERY", "--tune clock_every=N"},
    {"SWGL_DT_READBACK", "--tune host_clock=on"},
    {"SWGL_GL_CHECK", "--tune gl_check=on"},
    {"SWGL_ROE_FUSED", "--tune roe.fused=on|off"},
    {"SWGL_ROE_GROUP", "--tune roe.group=AxB"},
    {"SWGL_KP_FUSED", "--tune kp.fused=on|flux|off"},
    {"SWGL_KP_GROUP", "--tune kp.group=AxB"},
    {"SWGL_KP_CELLS", "--tune kp.cells=AxB"},
    {"SWGL_KP_STAGE", "--tune kp.stage=auto|on|off"},
    {"SWGL_KP_XSHARE", "--tune kp.xshare=auto|on|off"},
    {"SWGL_KP_MAX_GROUPS", "--tune kp.max_groups=N"},
    {"SWGL_MPI_BLOCKS", "--tune mpi.blocks=AxB"},
    {"SWGL_MPI_HALO", "--tune mpi.halo=N"},
    {"SWGL_MPI_OVERLAP", "--tune mpi.overlap=auto|on|off"},
    {"SWGL_MPI_VERBOSE", "--tune mpi.verbose=on"},
    {"SWGL_PASSES", "--backend gpu-compute (the GL test programs: --compute)"},
    {"SWGL_KP_FLUX", NULL},
    {"SWGL_KP_EE", NULL},
    {"SWGL_ROE_MASS", NULL},
    {"SWGL_ROE_STAGE", NULL},
};

void tuning_warn_removed_env(FILE *f)
{
    static int warned;
    if (warned) return;
    warned = 1;
    for (size_t i = 0; i < sizeof removed_env / sizeof removed_env[0]; i++) {
        const char *v = getenv(removed_env[i].name);
        if (!v) continue;
        if (removed_env[i].now)
            fprintf(f, "swgl: warning: %s=%s is no longer read: use %s\n", removed_env[i].name, v, removed_env[i].now);
        else
            fprintf(f, "swgl: warning: %s=%s is no longer read: the variant it chose was removed (the default won "
                       "its measurements: docs/performance.md keeps the figures)\n",
                    removed_env[i].name, v);
    }
}

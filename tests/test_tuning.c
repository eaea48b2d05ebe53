/* test_tuning.c — the tuning keys' parser (solver/schemes/core/tuning.c: one table parses,
 * lists, validates and formats them; swgl_sim_desc.tune and --tune go through it):
 *  - every key's default, as the struct holds it and as tuning_or_default(NULL) gives it;
 *  - a good value of each type (integer at both ends of its range, on/off and its
 *    synonyms, AxB and auto, a choice), with spaces, newlines and empty items;
 *  - each bad class refused with SWGL_ERR_ARG and a message naming the key and what was
 *    expected: unknown key, bad value, out of range, missing '=', trailing text;
 *  - the format of a struct parses back to the same struct; the key list has a line a key;
 *  - the work-group check; the warning for a removed environment variable, once. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "swgl.h"
#include "swgl_error.h"
#include "tuning.h"

/* parses text over the defaults: the status, the struct in *t */
static swgl_status parse(const char *text, swgl_tuning *t)
{
    tuning_defaults(t);
    swgl_clear_error();
    return tuning_parse(t, text);
}

/* text is refused and the message holds each of the NULL-ended words */
static void refused(const char *text, const char *why, ...)
{
    swgl_tuning t;
    swgl_status st = parse(text, &t);
    const char *msg = swgl_last_error();
    int has = 1;
    va_list ap;
    va_start(ap, why);
    for (const char *w = va_arg(ap, const char *); w; w = va_arg(ap, const char *)) has = has && strstr(msg, w);
    va_end(ap);
    CHECK(st == SWGL_ERR_ARG && has, "\"%s\" refused (%s): \"%s\"", text, why, msg);
}

static void defaults(void)
{
    swgl_tuning t, z;
    tuning_defaults(&t);
    /* the defaults are the measured winners (docs/performance.md); a change to one must be
     * a change to this test too */
    CHECK(t.clock_every == 32, "clock_every defaults to 32 (%d)", t.clock_every);
    CHECK(t.host_clock == 0, "host_clock defaults to off");
    CHECK(t.gl_check == 0, "gl_check defaults to off (a glGetError a pass: debugging)");
    CHECK(t.roe_fused == 1, "roe.fused defaults to on");
    CHECK(t.roe_group[0] == 8 && t.roe_group[1] == 16, "roe.group defaults to 8x16 (%dx%d)", t.roe_group[0],
          t.roe_group[1]);
    CHECK(t.kp_fused == TUNE_KP_FUSED_ON, "kp.fused defaults to on");
    CHECK(t.kp_group[0] == 0 && t.kp_group[1] == 0, "kp.group defaults to auto (0x0)");
    CHECK(t.kp_cells[0] == 0 && t.kp_cells[1] == 0, "kp.cells defaults to auto (0x0)");
    CHECK(t.kp_stage == TUNE_AUTO, "kp.stage defaults to auto");
    CHECK(t.kp_xshare == TUNE_AUTO, "kp.xshare defaults to auto");
    CHECK(t.kp_max_groups == 65535, "kp.max_groups defaults to 65535, GL's least dispatch limit");
    CHECK(t.mpi_blocks[0] == 0 && t.mpi_blocks[1] == 0, "mpi.blocks defaults to auto (0x0)");
    CHECK(t.mpi_halo == 0, "mpi.halo defaults to 0 (the scheme's)");
    CHECK(t.mpi_overlap == TUNE_AUTO, "mpi.overlap defaults to auto (where it gains: the backend says)");
    CHECK(t.mpi_pack == 1, "mpi.pack defaults to on");
    CHECK(t.mpi_mapped == 1, "mpi.mapped defaults to on");
    CHECK(t.mpi_every == 0, "mpi.every defaults to 0 (chosen by the backend)");
    CHECK(t.mpi_choose == TUNE_AUTO, "mpi.choose defaults to auto");
    CHECK(t.mpi_verbose == 0, "mpi.verbose defaults to off");
    CHECK(t.cpu_threads == 0, "cpu.threads defaults to 0 (the cores other programs leave)");
    CHECK(t.cpu_isa == 0, "cpu.isa defaults to auto (0: the widest the CPU has)");
    CHECK(t.clock_gauges == 1, "clock_gauges defaults to on");
    /* the backends take tuning_or_default(cfg->tune): NULL must be the same defaults */
    CHECK(memcmp(tuning_or_default(NULL), &t, sizeof t) == 0, "tuning_or_default(NULL) is the defaults");
    CHECK(tuning_or_default(&z) == &z, "tuning_or_default(t) is t");
    /* NULL, "" and empty items change nothing: desc.tune = NULL is every default */
    CHECK(parse(NULL, &z) == SWGL_OK && memcmp(&z, &t, sizeof t) == 0, "NULL text: the defaults");
    CHECK(parse("", &z) == SWGL_OK && memcmp(&z, &t, sizeof t) == 0, "empty text: the defaults");
    CHECK(parse(" , ,,\n\n , ", &z) == SWGL_OK && memcmp(&z, &t, sizeof t) == 0,
          "only separators and spaces: empty items skipped, the defaults");
    char buf[512];
    tuning_format(&t, buf, sizeof buf);
    CHECK(buf[0] == '\0', "the defaults format as an empty string (\"%s\")", buf);
    /* the table: 24 keys, each tested here (a new key must be added to this test) */
    static const char *const names[] = {"cpu.isa", "cpu.threads", "clock_every", "clock_gauges", "gl_check",    "host_clock",    "roe.fused", "roe.group", "kp.fused",
                                        "kp.group",    "kp.cells",    "kp.stage",      "kp.xshare", "kp.max_groups", "kp.rest",
                                        "mpi.blocks",  "mpi.halo",    "mpi.overlap",   "mpi.pack",  "mpi.mapped",
                                        "mpi.prefetch", "mpi.every",  "mpi.choose",    "mpi.verbose"};
    int n = tuning_key_count(), same = n == 24;
    for (int k = 0; k < n && same; k++) same = strcmp(tuning_key_name(k), names[k]) == 0;
    CHECK(same && tuning_key_name(n) == NULL && tuning_key_name(-1) == NULL,
          "the table holds the 24 keys this test covers, in order (%d keys)", n);
}

static void good_values(void)
{
    swgl_tuning t;
    /* integers at both ends of their ranges */
    CHECK(parse("clock_every=1", &t) == SWGL_OK && t.clock_every == 1, "clock_every=1 (its least)");
    CHECK(parse("clock_every=63", &t) == SWGL_OK && t.clock_every == 63, "clock_every=63 (its most)");
    CHECK(parse("kp.max_groups=2", &t) == SWGL_OK && t.kp_max_groups == 2, "kp.max_groups=2 (its least)");
    CHECK(parse("mpi.halo=64", &t) == SWGL_OK && t.mpi_halo == 64, "mpi.halo=64 (its most)");
    /* on/off and the synonyms the table documents */
    CHECK(parse("host_clock=on", &t) == SWGL_OK && t.host_clock == 1, "host_clock=on");
    CHECK(parse("host_clock=yes", &t) == SWGL_OK && t.host_clock == 1, "host_clock=yes");
    CHECK(parse("host_clock=1", &t) == SWGL_OK && t.host_clock == 1, "host_clock=1");
    CHECK(parse("gl_check=on", &t) == SWGL_OK && t.gl_check == 1, "gl_check=on");
    CHECK(parse("roe.fused=off", &t) == SWGL_OK && t.roe_fused == 0, "roe.fused=off");
    CHECK(parse("mpi.overlap=off", &t) == SWGL_OK && t.mpi_overlap == TUNE_OFF, "mpi.overlap=off");
    CHECK(parse("mpi.choose=on", &t) == SWGL_OK && t.mpi_choose == TUNE_ON, "mpi.choose=on");
    CHECK(parse("cpu.threads=3", &t) == SWGL_OK && t.cpu_threads == 3, "cpu.threads=3");
    CHECK(parse("cpu.isa=sse2", &t) == SWGL_OK && t.cpu_isa == 1 && parse("cpu.isa=avx2", &t) == SWGL_OK &&
              t.cpu_isa == 2 && parse("cpu.isa=avx512", &t) == SWGL_OK && t.cpu_isa == 3 &&
              parse("cpu.isa=auto", &t) == SWGL_OK && t.cpu_isa == 0,
          "cpu.isa=sse2, avx2, avx512, auto: SWE_ISA_* 1, 2, 3, 0");
    CHECK(parse("mpi.overlap=on", &t) == SWGL_OK && t.mpi_overlap == TUNE_ON, "mpi.overlap=on");
    CHECK(parse("mpi.overlap=no", &t) != SWGL_OK, "mpi.overlap=no: auto, off or on (a choice, not a switch)");
    CHECK(parse("mpi.verbose=on", &t) == SWGL_OK && t.mpi_verbose == 1, "mpi.verbose=on");
    CHECK(parse("mpi.pack=off", &t) == SWGL_OK && t.mpi_pack == 0, "mpi.pack=off");
    CHECK(parse("mpi.mapped=off", &t) == SWGL_OK && t.mpi_mapped == 0, "mpi.mapped=off");
    CHECK(parse("mpi.prefetch=on", &t) == SWGL_OK && t.mpi_prefetch == 1, "mpi.prefetch=on");
    CHECK(parse("mpi.every=16", &t) == SWGL_OK && t.mpi_every == 16, "mpi.every=16 (its most)");
    CHECK(parse("mpi.every=17", &t) == SWGL_ERR_ARG && parse("mpi.every=-1", &t) == SWGL_ERR_ARG,
          "mpi.every=17 and -1 refused (0..16)");
    CHECK(parse("clock_gauges=off", &t) == SWGL_OK && t.clock_gauges == 0 && parse("clock_gauges=on", &t) == SWGL_OK &&
              t.clock_gauges == 1 && parse("clock_gauges=2", &t) == SWGL_ERR_ARG,
          "clock_gauges=off, on; 2 refused");
    CHECK(tuning_or_default(NULL)->kp_rest == 1 && parse("kp.rest=off", &t) == SWGL_OK && t.kp_rest == 0 &&
              parse("kp.rest=on", &t) == SWGL_OK && t.kp_rest == 1 && parse("kp.rest=dry", &t) == SWGL_ERR_ARG,
          "kp.rest defaults to on; off, on; dry refused");
    CHECK(parse("cpu.isa=avx", &t) == SWGL_ERR_ARG && strstr(swgl_last_error(), "cpu.isa=avx") != NULL,
          "cpu.isa=avx refused, naming the item: %s", swgl_last_error());
    CHECK(parse("cpu.threads=1025", &t) == SWGL_ERR_ARG && parse("cpu.threads=-1", &t) == SWGL_ERR_ARG &&
              parse("cpu.threads=x", &t) == SWGL_ERR_ARG,
          "cpu.threads=1025, -1 and x refused (0..1024)");
    /* AxB, and auto where the default is auto */
    CHECK(parse("roe.group=16x8", &t) == SWGL_OK && t.roe_group[0] == 16 && t.roe_group[1] == 8, "roe.group=16x8");
    CHECK(parse("kp.group=32x2", &t) == SWGL_OK && t.kp_group[0] == 32 && t.kp_group[1] == 2, "kp.group=32x2");
    CHECK(parse("kp.cells=8x64", &t) == SWGL_OK && t.kp_cells[0] == 8 && t.kp_cells[1] == 64,
          "kp.cells=8x64 (both sides at their most)");
    CHECK(parse("mpi.blocks=2x3", &t) == SWGL_OK && t.mpi_blocks[0] == 2 && t.mpi_blocks[1] == 3, "mpi.blocks=2x3");
    CHECK(parse("kp.group=32x2,kp.group=auto", &t) == SWGL_OK && t.kp_group[0] == 0 && t.kp_group[1] == 0,
          "kp.group=auto after a value: back to 0x0 (a later item wins)");
    /* choices */
    CHECK(parse("kp.fused=flux", &t) == SWGL_OK && t.kp_fused == TUNE_KP_FUSED_FLUX, "kp.fused=flux");
    CHECK(parse("kp.fused=off", &t) == SWGL_OK && t.kp_fused == TUNE_KP_FUSED_OFF, "kp.fused=off");
    CHECK(parse("kp.stage=off", &t) == SWGL_OK && t.kp_stage == TUNE_OFF, "kp.stage=off");
    CHECK(parse("kp.xshare=on", &t) == SWGL_OK && t.kp_xshare == TUNE_ON, "kp.xshare=on");
    /* items: commas and newlines, spaces around keys and values, empty items */
    CHECK(parse("  clock_every = 8 ,\n kp.fused=flux,,\n\nmpi.blocks= 4x1 ", &t) == SWGL_OK && t.clock_every == 8 &&
              t.kp_fused == TUNE_KP_FUSED_FLUX && t.mpi_blocks[0] == 4 && t.mpi_blocks[1] == 1,
          "three items over commas and newlines, spaced, with empty items between");
    /* over what t holds: tuning_parse changes only the keys it names */
    tuning_defaults(&t);
    t.clock_every = 5;
    CHECK(tuning_parse(&t, "host_clock=on") == SWGL_OK && t.clock_every == 5 && t.host_clock == 1,
          "a parse over a struct keeps the fields it does not name");
    /* the format of every key changed parses back to the same struct (swgl run's summary
     * and the benches print it) */
    swgl_tuning a, b;
    const char *all = "clock_every=7,host_clock=on,roe.fused=off,roe.group=16x4,kp.fused=flux,kp.group=16x8,"
                      "kp.cells=1x8,kp.stage=on,kp.xshare=off,kp.max_groups=3,mpi.blocks=2x2,mpi.halo=2,"
                      "mpi.overlap=off,mpi.pack=off,mpi.every=3,mpi.choose=off,mpi.verbose=on";
    char buf[1024];
    int ok = parse(all, &a) == SWGL_OK;
    tuning_format(&a, buf, sizeof buf);
    ok = ok && parse(buf, &b) == SWGL_OK && memcmp(&a, &b, sizeof a) == 0;
    CHECK(ok && strcmp(buf, all) == 0, "every key set: the format is the text, in the table's order, and parses back "
          "to the same struct (\"%s\")", buf);
}

static void bad_values(void)
{
    /* the public check is the parser's: a command line refuses before any work */
    CHECK(swgl_tune_check("kp.group=16x8,clock_every=4") == SWGL_OK, "swgl_tune_check accepts good text");
    CHECK(swgl_tune_check("kp.flux=cell") == SWGL_ERR_ARG, "swgl_tune_check refuses an unknown key");
    refused("kp.flux=cell", "unknown key (the removed faces variant's)", "unknown key 'kp.flux'", "tune-keys", NULL);
    refused("clock_every=4,Clock_Every=4", "keys are case-sensitive", "unknown key 'Clock_Every'", NULL);
    refused("=5", "an empty key", "unknown key ''", NULL);
    refused("clock_every", "missing '='", "'clock_every'", "expected key=value", NULL);
    refused("clock_every 8", "missing '=' (a space instead)", "expected key=value", NULL);
    /* bad value of each type: the message is the key, the value and the type */
    refused("clock_every=abc", "not an integer", "clock_every=abc", "expected integer 1..63", NULL);
    refused("clock_every=", "an empty value", "clock_every=", "expected integer 1..63", NULL);
    refused("clock_every=8x", "trailing text", "clock_every=8x", "expected integer", NULL);
    refused("host_clock=maybe", "not on/off", "host_clock=maybe", "expected on|off", NULL);
    refused("kp.fused=faces", "not a choice", "kp.fused=faces", "expected off|on|flux", NULL);
    refused("kp.stage=1", "the old numeric form of a choice", "kp.stage=1", "expected auto|off|on", NULL);
    refused("kp.group=16", "AxB without x", "kp.group=16", "expected AxB", "or auto", NULL);
    refused("kp.group=16x8x2", "AxB with trailing text", "kp.group=16x8x2", "expected AxB", NULL);
    refused("kp.group=0x0", "0x0 (auto is spelt auto)", "kp.group=0x0", "expected AxB", NULL);
    refused("roe.group=auto", "auto where the default is not auto", "roe.group=auto", "expected AxB", NULL);
    /* out of range, at each end */
    refused("clock_every=0", "below its range", "clock_every=0", "1..63", NULL);
    refused("clock_every=64", "above its range (the clock's 64-step ring)", "clock_every=64", "1..63", NULL);
    refused("kp.max_groups=1", "below its range (a control group and one that works)", "kp.max_groups=1", "2..65535",
            NULL);
    refused("mpi.halo=-1", "negative", "mpi.halo=-1", "0..64", NULL);
    refused("kp.cells=9x1", "A above its range", "kp.cells=9x1", "1 <= A <= 8", "1 <= B <= 64", NULL);
    refused("kp.cells=1x65", "B above its range", "kp.cells=1x65", "1 <= B <= 64", NULL);
    refused("roe.group=1x16", "A below its range", "roe.group=1x16", "2 <= A <= 1024", NULL);
    refused("clock_every=99999999999999999999", "an integer past long", "clock_every=99999999999999999999", NULL);
    /* the items before a bad one are set (documented: t may then hold them), the rest not */
    swgl_tuning t;
    CHECK(parse("clock_every=4,bogus=1,host_clock=on", &t) == SWGL_ERR_ARG && t.clock_every == 4 &&
              t.host_clock == 0,
          "a bad item stops the parse: the item before it set, the one after not");
}

static void group_check(void)
{
    int g[2];
    /* A, B >= min, A B <= 1024 invocations, (A + 4)(B + 4) 32 B <= 32 KiB of shared memory */
    g[0] = 16, g[1] = 8;
    CHECK(tuning_check_group("kp.group", g, 2) == SWGL_OK, "16x8 fits");
    g[0] = 28, g[1] = 28;
    CHECK(tuning_check_group("kp.group", g, 2) == SWGL_OK, "28x28 fits: 784 invocations, 32 x 32 x 32 B = 32 KiB");
    g[0] = 29, g[1] = 28;
    swgl_clear_error();
    CHECK(tuning_check_group("roe.group", g, 2) == SWGL_ERR_ARG && strstr(swgl_last_error(), "roe.group=29x28") &&
              strstr(swgl_last_error(), "32 KiB"),
          "29x28 is refused by its shared memory, naming the key: \"%s\"", swgl_last_error());
    g[0] = 64, g[1] = 32;
    CHECK(tuning_check_group("kp.group", g, 2) == SWGL_ERR_ARG, "64x32 (2048 invocations) is refused");
    g[0] = 1, g[1] = 8;
    CHECK(tuning_check_group("kp.group", g, 2) == SWGL_ERR_ARG, "1x8 is refused where the least side is 2");
}

static void key_list(void)
{
    FILE *f = tmpfile();
    if (!CHECK(f != NULL, "a temporary file")) return;
    tuning_print_keys(f);
    rewind(f);
    char line[512];
    int n = 0, named = 1, defaults = 1;
    while (fgets(line, sizeof line, f)) {
        const char *k = tuning_key_name(n);
        named = named && k && strncmp(line, k, strlen(k)) == 0 && line[strlen(k)] == ' ';
        defaults = defaults && strstr(line, " default ");
        n++;
    }
    fclose(f);
    CHECK(n == tuning_key_count() && named && defaults,
          "swgl tune-keys: a line a key, in the table's order, each naming its default (%d lines)", n);
}

static void removed_env(void)
{
    FILE *f = tmpfile();
    if (!CHECK(f != NULL, "a temporary file")) return;
    setenv("SWGL_KP_GROUP", "16x8", 1);
    tuning_warn_removed_env(f);
    tuning_warn_removed_env(f);   /* once a process */
    unsetenv("SWGL_KP_GROUP");
    rewind(f);
    char line[512];
    int n = 0, named = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        named = strstr(line, "SWGL_KP_GROUP=16x8") && strstr(line, "--tune kp.group") && strstr(line, "warning");
    }
    fclose(f);
    CHECK(n == 1 && named, "SWGL_KP_GROUP=16x8 still set: one warning naming it and --tune kp.group (%d lines)", n);
}

int main(void)
{
    defaults();
    good_values();
    bad_values();
    group_check();
    key_list();
    removed_env();
    return check_done();
}

#!/bin/sh
# test_install.sh BUILD_DIR — swgl as a library, the way a user meets it: installed into a
# fresh prefix (cmake --install), then programs built against the INSTALLED files only
# (never the build tree):
#   1. the installed example (share/swgl/examples/dambreak.c) with pkg-config, run with
#      LD_LIBRARY_PATH;
#   2. the same example through CMake's find_package(swgl) (swgl::swgl), then again after the
#      prefix has been moved (the package is relocatable);
#   3. a second program of this script's own (observers, fields, errors, finish), compiled
#      with -std=c99 -pedantic -Werror, and swgl.h included from C++;
#   4. the example linked statically against libswgl.a (pkg-config --static).
# Each dam break (case dambreak, cpu-scalar) must give what `swgl run` gives: the same step
# count and volume.  The API's cpu-scalar backend needs no GL context, so this runs on a
# machine without an EGL device too; it skips (77) only where even swgl run cannot run.
# Environment: SWGL_BIN (the program), CMAKE (cmake), CC (the C compiler), CXX (optional),
# SWGL_TEST_LIBDIR (CMAKE_INSTALL_LIBDIR, relative: lib),
# SWGL_TEST_CFLAGS (flags every program here is compiled and linked with: the sanitizers in
# a sanitized build).
build=$1
swgl=${SWGL_BIN:-$build/swgl}
cmake=${CMAKE:-cmake}
cc=${CC:-cc}
cflags=${SWGL_TEST_CFLAGS:-}
lib=${SWGL_TEST_LIBDIR:-lib}   # CMAKE_INSTALL_LIBDIR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok    $2"; else fail=$((fail + 1)); echo "FAIL  $2"; fi; }
finish() { echo "test_install: $pass passed, $fail failed"; [ "$fail" = 0 ]; exit $?; }

# ---- the reference: swgl run of the same case on the same backend ----------------------------
if [ ! -x "$swgl" ]; then echo "FAIL  no program $swgl"; exit 1; fi
if ! "$swgl" info > /dev/null 2> "$tmp/info"; then
  echo "note: swgl info finds no EGL device ($(head -c 200 "$tmp/info")): the CPU backend needs none, going on"
  no_egl=1
fi
if ! "$swgl" run --case dambreak --backend cpu-scalar --out "$tmp/ref" > "$tmp/ref.log" 2>&1; then
  if [ -n "${no_egl:-}" ]; then
    echo "skip: no EGL device, and swgl run --backend cpu-scalar fails: $(tail -1 "$tmp/ref.log")"
    exit 77
  fi
  cat "$tmp/ref.log"
  echo "FAIL  swgl run --case dambreak --backend cpu-scalar"
  exit 1
fi
ref_steps=$(sed -n 's/^ *"steps": *\([0-9]*\),*$/\1/p' "$tmp/ref/summary.json" | head -1)
ref_volume=$(sed -n 's/^ *"mass_final": *\([^,]*\),*$/\1/p' "$tmp/ref/summary.json" | head -1)
[ -n "$ref_steps" ] && [ -n "$ref_volume" ]
ok $? "swgl run: $ref_steps steps, volume $ref_volume"

# A run of the example against the reference.  The same arithmetic on the same backend (the
# library is the program's own engine, cpu-scalar in double), so the step count must be
# equal; the volume is printed with 17 digits by the example and by summary.json, and 1e-9
# relative leaves room for nothing but that printing's rounding.
check_run() {  # check_run WHAT OUTPUT_FILE
  steps=$(sed -n 's/^steps \([0-9]*\)$/\1/p' "$2")
  volume=$(sed -n 's/^volume \(.*\)$/\1/p' "$2")
  [ "$steps" = "$ref_steps" ]; ok $? "$1: $steps steps as swgl run ($ref_steps)"
  awk -v a="$volume" -v b="$ref_volume" 'BEGIN { d = a - b; if (d < 0) d = -d;
    exit !(a != "" && d <= 1e-9 * (b < 0 ? -b : b)) }'
  ok $? "$1: volume $volume within 1e-9 of swgl run's $ref_volume"
}

# ---- install into a fresh prefix -------------------------------------------------------------
prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" > "$tmp/install.log" 2>&1
rc=$?
ok $rc "cmake --install $build --prefix \$tmp"
if [ $rc != 0 ]; then cat "$tmp/install.log"; finish; fi
for f in include/swgl.h include/swgl_status.h $lib/libswgl.so $lib/libswgl.so.0 $lib/libswgl.a \
         $lib/pkgconfig/swgl.pc $lib/cmake/swgl/swglConfig.cmake $lib/cmake/swgl/swglConfigVersion.cmake \
         share/swgl/examples/dambreak.c share/swgl/examples/timed_run.c share/swgl/examples/CMakeLists.txt; do
  [ -e "$prefix/$f" ]; ok $? "installed $f"
done
# nothing installed points back into the build or source tree
src=$(cd "$(dirname "$0")/.." && pwd)
! grep -rl -e "$build" -e "$src" "$prefix/$lib/pkgconfig" "$prefix/$lib/cmake" "$prefix/include" > "$tmp/leaks"
ok $? "no installed file names the build or source tree $(cat "$tmp/leaks")"
! readelf -d "$prefix/$lib/libswgl.so" | grep 'R.*PATH' | grep -q -e "$build" -e "$src"
ok $? "libswgl.so's RUNPATH names neither tree"
example=$prefix/share/swgl/examples/dambreak.c

# ---- 1. pkg-config ---------------------------------------------------------------------------
export PKG_CONFIG_PATH="$prefix/$lib/pkgconfig"
flags=$(pkg-config --cflags --libs swgl)
ok $? "pkg-config --cflags --libs swgl: $flags"
# shellcheck disable=SC2086
$cc $cflags -o "$tmp/dambreak_pc" "$example" $flags 2> "$tmp/cc.log"
ok $? "cc dambreak.c \$(pkg-config --cflags --libs swgl) $(cat "$tmp/cc.log")"
LD_LIBRARY_PATH="$prefix/$lib" ldd "$tmp/dambreak_pc" | grep -q "$prefix/$lib/libswgl.so.0"
ok $? "the pkg-config build loads the installed libswgl.so.0"
LD_LIBRARY_PATH="$prefix/$lib" "$tmp/dambreak_pc" > "$tmp/pc.out" 2> "$tmp/pc.err"
ok $? "the pkg-config build runs $(cat "$tmp/pc.err")"
check_run "pkg-config build" "$tmp/pc.out"

# ---- 2. CMake: find_package(swgl), then the prefix moved -------------------------------------
cmake_example() {  # cmake_example PREFIX BUILD_DIR
  "$cmake" -S "$1/share/swgl/examples" -B "$2" -DCMAKE_PREFIX_PATH="$1" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$cflags" > "$2.log" 2>&1 &&
  "$cmake" --build "$2" >> "$2.log" 2>&1
}
cmake_example "$prefix" "$tmp/ex"
rc=$?
ok $rc "cmake -S share/swgl/examples -DCMAKE_PREFIX_PATH=\$tmp: find_package(swgl), swgl::swgl"
[ $rc = 0 ] || cat "$tmp/ex.log"
"$tmp/ex/dambreak" > "$tmp/cm.out" 2> "$tmp/cm.err"
ok $? "the CMake build runs (no LD_LIBRARY_PATH: CMake's RPATH) $(cat "$tmp/cm.err")"
check_run "CMake build" "$tmp/cm.out"
"$tmp/ex/dambreak" - cpu-scalar > "$tmp/cm2.out" 2> "$tmp/cm2.err"
cmp -s "$tmp/cm.out" "$tmp/cm2.out"; ok $? "dambreak - cpu-scalar prints the same $(cat "$tmp/cm2.err")"
"$tmp/ex/dambreak" "$tmp/no-such.ini" > /dev/null 2> "$tmp/bad.err"
[ $? != 0 ] && grep -q 'no-such.ini' "$tmp/bad.err"
ok $? "a missing scenario file fails with a message naming it: $(cat "$tmp/bad.err")"
mv "$prefix" "$tmp/moved"
cmake_example "$tmp/moved" "$tmp/ex2"
rc=$?
ok $rc "the package found in the moved prefix"
ldd "$tmp/ex2/dambreak" | grep -q "$tmp/moved/$lib/libswgl.so.0"
ok $? "the moved prefix's library is the one the program loads"
mv "$tmp/moved" "$prefix"

# ---- 3. a program of its own: observers, fields, errors, finish ------------------------------
cat > "$tmp/probe.c" <<'EOF'
/* the API beyond the example: observers, fields, exact landing, errors, finish */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgl.h>

static int fails;
static void check(int cond, const char *what)
{
    printf("%s  %s\n", cond ? "ok  " : "FAIL", what);
    if (!cond) fails++;
}

struct counts { long step, output, finish; double t; };

static swgl_status count(swgl_sim *sim, swgl_event event, double t, void *user)
{
    struct counts *c = user;
    (void)sim;
    if (event == SWGL_EVENT_STEP) c->step++;
    if (event == SWGL_EVENT_OUTPUT) c->output++;
    if (event == SWGL_EVENT_FINISH) c->finish++;
    c->t = t;
    return SWGL_OK;
}

int main(void)
{
    const char *set[] = {"run.t_end=2", NULL};
    swgl_sim_desc desc = {.case_name = "dambreak", .backend = "cpu-scalar", .set = set};
    swgl_sim *sim = NULL;
    struct counts c = {0, 0, 0, -1};
    int nx = 0, ny = 0;
    double dx = 0, dy = 0;

    check(swgl_version() && swgl_version()[0], "swgl_version");
    if (swgl_sim_create(&desc, &sim) != SWGL_OK) {
        printf("FAIL  swgl_sim_create: %s\n", swgl_last_error());
        return 1;
    }
    check(swgl_sim_t_end(sim) == 2.0, "--set run.t_end=2 is the sim's t_end");
    swgl_sim_size(sim, &nx, &ny, &dx, &dy);
    check(nx == 200 && ny == 200 && dx == 1 && dy == 1, "swgl_sim_size: 200 x 200 cells of 1 m");
    check(swgl_sim_observe(sim, SWGL_EVENT_STEP | SWGL_EVENT_FINISH, count, &c) == SWGL_OK, "swgl_sim_observe");
    check(swgl_sim_run_to(sim, 1.0) == SWGL_OK, "run_to(1)");
    check(swgl_sim_time(sim) == 1.0, "run_to lands on t = 1 exactly");
    check(c.step == swgl_sim_steps(sim) && c.step > 0, "one step event a step");
    check(c.t == 1.0, "the last step event is at t = 1");

    double *h = malloc(sizeof *h * (size_t)nx * (size_t)ny);
    check(h && swgl_sim_field(sim, "h", h) == SWGL_OK, "swgl_sim_field h");
    double sum = 0;
    long wet = 0;
    for (long k = 0; k < (long)nx * ny; k++)
        if (!isnan(h[k])) { sum += h[k]; wet++; }
    double v = swgl_sim_volume(sim);
    check(wet > 0 && fabs(sum * dx * dy - v) <= 1e-10 * v, "sum h dx dy equals swgl_sim_volume");
    /* the dam break's water is deeper on one side: the field is not uniform */
    double hmin = INFINITY, hmax = -INFINITY;
    for (long k = 0; k < (long)nx * ny; k++)
        if (!isnan(h[k])) { hmin = fmin(hmin, h[k]); hmax = fmax(hmax, h[k]); }
    check(hmax > hmin, "the depth varies over the grid");
    for (long k = 0; k < (long)nx * ny; k++)
        if (!isnan(h[k])) h[k] *= 0.5;
    check(swgl_sim_set_field(sim, "h", h) == SWGL_OK, "swgl_sim_set_field h (halved)");
    check(fabs(swgl_sim_volume(sim) - 0.5 * v) <= 1e-10 * v, "the volume is halved");

    check(swgl_sim_field(sim, "no-such-field", h) != SWGL_OK && strstr(swgl_last_error(), "no-such-field"),
          "an unknown field is an error naming it");
    check(swgl_sim_run_to(sim, 0.5) != SWGL_OK && swgl_last_error()[0], "run_to an earlier time fails");
    printf("      (%s)\n", swgl_last_error());
    check(swgl_sim_time(sim) == 1.0, "and leaves the time as it was");
    check(swgl_sim_run_to(sim, swgl_sim_t_end(sim)) == SWGL_OK && swgl_sim_time(sim) == 2.0, "run_to(t_end)");
    check(swgl_sim_finish(sim) == SWGL_OK, "swgl_sim_finish (no output folder)");
    check(c.finish == 1 && c.t == 2.0, "one finish event, at t_end");
    double steps = 0;
    check(swgl_sim_stat(sim, "steps", &steps) == SWGL_OK && steps == (double)swgl_sim_steps(sim), "swgl_sim_stat steps");
    check(swgl_sim_stat(sim, "no-such-stat", &steps) == SWGL_ERR_ARG, "an unknown stat is SWGL_ERR_ARG");
    free(h);
    swgl_sim_destroy(sim);

    const char *bad[] = {"run.cfl=7", NULL};
    swgl_sim_desc bd = {.case_name = "dambreak", .backend = "cpu-scalar", .set = bad};
    sim = (swgl_sim *)&bd;
    check(swgl_sim_create(&bd, &sim) != SWGL_OK && sim == NULL && strstr(swgl_last_error(), "cfl"),
          "a bad --set fails create, leaves *sim NULL and names the key");
    printf("      (%s)\n", swgl_last_error());
    swgl_sim_destroy(NULL);
    return fails != 0;
}
EOF
# shellcheck disable=SC2086
$cc $cflags -std=c99 -Wall -Wextra -pedantic -Werror -o "$tmp/probe" "$tmp/probe.c" $flags -lm 2> "$tmp/cc.log"
ok $? "the probe program compiles against swgl.h with -std=c99 -pedantic -Werror $(cat "$tmp/cc.log")"
LD_LIBRARY_PATH="$prefix/$lib" "$tmp/probe" > "$tmp/probe.out" 2>&1
ok $? "the probe program's checks pass"
sed 's/^/        /' "$tmp/probe.out"
if command -v "${CXX:-c++}" > /dev/null 2>&1; then
  printf '#include <swgl.h>\nint main() { swgl_sim *s = nullptr; swgl_sim_destroy(s); return swgl_version() == nullptr; }\n' > "$tmp/cxx.cc"
  # shellcheck disable=SC2086
  "${CXX:-c++}" $cflags -Wall -Wextra -Werror -o "$tmp/cxx" "$tmp/cxx.cc" $flags 2> "$tmp/cxx.log" &&
    LD_LIBRARY_PATH="$prefix/$lib" "$tmp/cxx"
  ok $? "swgl.h compiles and links as C++ $(cat "$tmp/cxx.log")"
fi

# ---- 4. static: libswgl.a and pkg-config --static ---------------------------------------------
static_flags=$(pkg-config --static --libs swgl)
ok $? "pkg-config --static --libs swgl: $static_flags"
# -l:libswgl.a: the archive even though libswgl.so lies beside it
static_flags=$(echo "$static_flags" | sed 's/-lswgl\( \|$\)/-l:libswgl.a\1/')
# shellcheck disable=SC2086
$cc $cflags -o "$tmp/dambreak_static" "$example" $(pkg-config --cflags swgl) $static_flags 2> "$tmp/cc.log"
ok $? "cc dambreak.c against libswgl.a $(cat "$tmp/cc.log")"
! readelf -d "$tmp/dambreak_static" | grep -q 'NEEDED.*libswgl'
ok $? "the static build needs no libswgl.so"
"$tmp/dambreak_static" > "$tmp/st.out" 2> "$tmp/st.err"
ok $? "the static build runs $(cat "$tmp/st.err")"
check_run "static build" "$tmp/st.out"
finish

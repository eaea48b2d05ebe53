#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS [harness...] — builds the libFuzzer harnesses if needed and
# runs each for SECONDS (harnesses: scenario asc expr hydrograph mesh points tune; default all seven, one after the
# other); prints per harness the executions, the coverage (cov: edges, ft: features) and
# the findings; exits 1 if any harness found something, 2 on a set-up error.
#
# Needs clang and its libFuzzer runtime (Debian: clang libclang-rt-dev libomp-dev, which
# `./build.sh fuzz SECONDS` installs before calling this script).  See tests/fuzz/README.md.
#
# Where things go (all under the build folder, which .gitignore ignores):
#   SWGL_FUZZ_BUILD       the CMake build folder (default build-fuzz; configured with
#                         CC=clang -DSWGL_FUZZ=ON -DSWGL_WITH_GL=OFF when it has no cache)
#   $SWGL_FUZZ_BUILD/fuzz/corpus/H     the corpus each harness grows (kept between runs)
#   $SWGL_FUZZ_BUILD/fuzz/seeds/H      the seeds, remade each run by seeds.sh
#   SWGL_FUZZ_ARTIFACTS   crash, leak, timeout and oom inputs (default
#                         $SWGL_FUZZ_BUILD/fuzz/artifacts), one folder per harness
#   $SWGL_FUZZ_BUILD/fuzz/logs/H.log   libFuzzer's output
# SWGL_FUZZ_FLAGS         more libFuzzer flags, e.g. "-jobs=2" or "-fork=2 -ignore_crashes=1"
#                         (go on after a finding; each one is kept as an artifact)
set -uo pipefail
export LC_ALL=C
usage() { echo "usage: tests/fuzz/run.sh SECONDS [scenario|asc|expr|hydrograph|mesh|points ...]" >&2; exit 2; }
if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then usage; fi
secs=$1
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(scenario asc expr hydrograph mesh points tune)
for h in "${harnesses[@]}"; do
  case $h in scenario|asc|expr|hydrograph|mesh|points|tune) ;; *) echo "run.sh: unknown harness '$h'" >&2; usage ;; esac
done

bd=${SWGL_FUZZ_BUILD:-$root/build-fuzz}
case $bd in /*) ;; *) bd=$root/$bd ;; esac
work=$bd/fuzz
arts=${SWGL_FUZZ_ARTIFACTS:-$work/artifacts}
# -max_len per harness: a scenario file with overrides, an .asc grid, one expression
declare -A max_len=([scenario]=4096 [asc]=4096 [expr]=2048 [hydrograph]=2048 [mesh]=4096 [points]=2048 [tune]=1024)

# ---- build ------------------------------------------------------------------------------
if ! command -v clang >/dev/null; then
  echo "run.sh: clang not found: run ./build.sh fuzz SECONDS (installs clang, libclang-rt-dev," \
       "libomp-dev) or apt-get install them" >&2
  exit 2
fi
if [ ! -f "$bd/CMakeCache.txt" ]; then
  probe=$(mktemp -d)
  echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' > "$probe/p.c"
  if ! clang -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" 2> "$probe/err"; then
    echo "run.sh: clang cannot link a libFuzzer program (is libclang-rt-dev installed?):" >&2
    head -5 "$probe/err" >&2
    rm -rf "$probe"
    exit 2
  fi
  rm -rf "$probe"
  echo "run.sh: configuring $bd"
  CC=clang cmake -S "$root" -B "$bd" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWGL_FUZZ=ON \
    -DSWGL_WITH_GL=OFF > "$bd.configure.log" 2>&1 || { cat "$bd.configure.log" >&2; exit 2; }
  rm -f "$bd.configure.log"
else
  # an existing build dir: regenerate, so that a harness added since has its target
  cmake "$bd" > /dev/null 2>&1 || { echo "run.sh: cmake $bd failed" >&2; exit 2; }
fi
targets=()
for h in "${harnesses[@]}"; do targets+=("fuzz_$h"); done
start=$(date +%s)
cmake --build "$bd" -j "$(nproc)" --target "${targets[@]}" > "$bd/fuzz-build.log" 2>&1 ||
  { tail -40 "$bd/fuzz-build.log" >&2; echo "run.sh: build failed ($bd/fuzz-build.log)" >&2; exit 2; }
echo "run.sh: fuzzers built in $(( $(date +%s) - start )) s ($bd/tests/fuzz)"

"$root/tests/fuzz/seeds.sh" "$work/seeds" || exit 2
mkdir -p "$work/logs"

# ---- sanitizer settings -----------------------------------------------------------------
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && ! command -v llvm-symbolizer >/dev/null; then
  sym=$(ls /usr/lib/llvm-*/bin/llvm-symbolizer 2>/dev/null | tail -1)
  [ -n "$sym" ] && export ASAN_SYMBOLIZER_PATH=$sym
fi
tmp_base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && tmp_base=/dev/shm   # the harnesses write a file per input

# ---- run --------------------------------------------------------------------------------
# The distinct messages of the reports (with -fork there may be many), then the top
# frames (the project's, not the runtime's) of the first report.
report() {
  local log=$1
  grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error:|fuzz check failed' "$log" |
    sed -E -e 's/^==[0-9]+== ?//' -e 's/ on address 0x[0-9a-f]+.*//' -e 's/ \(pc 0x.*//' \
           -e 's/ \(used: .*//' -e 's/runtime error: .* is outside the range/runtime error: value outside the range/' |
    sort | uniq -c | sort -rn | head -5 | sed -E 's/^ *([0-9]+) /    [x\1] /'
  awk '/ERROR:|runtime error:|fuzz check failed/ { on = 1 } on && /^ *#[0-9]+ 0x/ { print; if (++n == 40) exit }' "$log" |
    grep -v -E 'compiler-rt|/fuzzer/Fuzzer|sanitizer_common|/asan/|/ubsan/|in __interceptor_|in __asan|in __sanitizer|in fuzzer::|in main |in __libc_start|in _start' |
    head -5 | sed -e 's/^ */        /' -e 's/ in / /' -e 's/ (BuildId: [0-9a-f]*)//'
}

status=0
summary=()
for h in "${harnesses[@]}"; do
  exe=$bd/tests/fuzz/fuzz_$h
  corpus=$work/corpus/$h
  art=$arts/$h
  log=$work/logs/$h.log
  mkdir -p "$corpus" "$art"
  stamp=$(mktemp "$tmp_base/swgl-fuzz-stamp.XXXXXX")
  run_tmp=$(mktemp -d "$tmp_base/swgl-fuzz-run.XXXXXX")
  dict=()
  [ -f "$root/tests/fuzz/$h.dict" ] && dict=("-dict=$root/tests/fuzz/$h.dict")
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  TMPDIR=$run_tmp timeout -k 10 $(( secs + 120 )) "$exe" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=2048 -max_len="${max_len[$h]}" -print_final_stats=1 "${dict[@]}" \
    -artifact_prefix="$art/" ${SWGL_FUZZ_FLAGS:-} "$corpus" "$work/seeds/$h" > "$log" 2>&1
  rc=$?
  elapsed=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  rm -rf "$run_tmp"
  mapfile -t found < <(find "$art" -maxdepth 1 -type f -newer "$stamp" \
    \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
  rm -f "$stamp"
  # executions, coverage: libFuzzer's final stats, else its last status line
  last=$(grep -E '^#[0-9]+' "$log" | grep 'cov:' | tail -1)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<< "$last")
  # executions per second over the harness's wall time (libFuzzer's own figure counts
  # whole seconds: 0 for a finding in the first second)
  rate=$(awk -v n="${execs:-0}" -v t="$elapsed" 'BEGIN { printf "%d", (t > 0 ? n / t : 0) }')
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<< "$last")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<< "$last")
  corp=$(find "$corpus" -type f | wc -l)
  line="fuzz_$h: ${execs:-0} execs in $(printf '%.0f' "$elapsed") s (${rate:-0}/s), cov: ${cov:-?} ft: ${ft:-?}, corpus $corp"
  if [ ${#found[@]} -gt 0 ]; then
    echo "$line, ${#found[@]} finding(s):"
    for f in "${found[@]:0:5}"; do echo "    ${f#"$root"/}"; done
    [ ${#found[@]} -le 5 ] || echo "    ... and $(( ${#found[@]} - 5 )) more in ${art#"$root"/}"
    report "$log"
    echo "    log: ${log#"$root"/}; reproduce: ${exe#"$root"/} ${found[0]#"$root"/}"
    summary+=("fuzz_$h: ${#found[@]} finding(s)")
    status=1
  elif [ $rc -ne 0 ]; then
    echo "$line, failed (exit $rc) without an artifact:"
    report "$log"
    tail -5 "$log" | sed 's/^/    /'
    echo "    log: ${log#"$root"/}"
    summary+=("fuzz_$h: failed (exit $rc)")
    status=1
  else
    echo "$line, no findings"
    summary+=("fuzz_$h: clean")
  fi
done
bad=$(printf '%s\n' "${summary[@]}" | grep -c -v ': clean$')
echo "fuzz: ${#harnesses[@]} harnesses for ${secs} s each: $(( ${#harnesses[@]} - bad )) clean, $bad with findings"
exit $status

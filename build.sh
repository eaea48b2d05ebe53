#!/usr/bin/env bash
# build.sh — set-up in one command on Debian 12 (root or a user with sudo); idempotent.
#   ./build.sh demo   install what is missing, build, run the default demo (a dam break)
#   ./build.sh test   install what is missing, build, run the whole test suite
#   ./build.sh build  install what is missing, build
#   ./build.sh fuzz [SECONDS [HARNESS...]]  install clang and libFuzzer too, then
#                     tests/fuzz/run.sh SECONDS (default 60): build and run the fuzzers
# SWGL_WERROR=1 builds with warnings as errors (CI does).  BUILD_DIR (default: build).
# SWGL_SANITIZE=1 builds with AddressSanitizer + UBSan (default BUILD_DIR: build-asan) and
# runs the tests with LSAN_OPTIONS=suppressions=tests/lsan.supp (Mesa's own leaks).
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-demo}
sanitize=OFF
if [ "${SWGL_SANITIZE:-0}" = 1 ]; then sanitize=ON; fi
if [ $sanitize = ON ]; then build_dir=${BUILD_DIR:-build-asan}; else build_dir=${BUILD_DIR:-build}; fi

# Build tools, GL/EGL headers (GLVND), Mesa's EGL and llvmpipe (the software renderer
# that CI and GPU-less machines run on), libpng, libinih, libnetcdf (run.nc) and its
# ncdump (netcdf-bin, which the tests use to read the file's header), and gnuplot (without X:
# gnuplot-nox), which `swgl validate` runs to draw its comparisons (docs/validation.md), and
# Open MPI (libopenmpi-dev, openmpi-bin: runs over MPI ranks, docs/mpi.md, and their tests),
# and Python 3 with numpy (python3 python3-numpy): the Python module swgl (python/, docs/api.md)
# needs nothing else, and its test runs it on the installed library.
pkgs="build-essential cmake pkg-config libegl-dev libgl-dev libegl1 libegl-mesa0 libgl1-mesa-dri
      libpng-dev libinih-dev libnetcdf-dev netcdf-bin gnuplot-nox libopenmpi-dev openmpi-bin
      python3 python3-numpy"
# Fuzzing: Debian's default clang (14 on Debian 12), its libFuzzer and sanitizer runtimes
# (libclang_rt.fuzzer-x86_64.a is in libclang-rt-14-dev, pulled by libclang-rt-dev), the
# OpenMP runtime clang needs for find_package(OpenMP), llvm-symbolizer (llvm) for stacks.
if [ "$mode" = fuzz ]; then pkgs="$pkgs clang libclang-rt-dev libomp-dev llvm"; fi
missing=()
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "build.sh: installing ${missing[*]}" >&2
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ "$mode" = fuzz ]; then
  shift
  if [ $# -eq 0 ]; then set -- 60; fi
  exec tests/fuzz/run.sh "$@"
fi

werror=OFF
if [ "${SWGL_WERROR:-0}" = 1 ]; then werror=ON; fi
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DSWGL_WERROR=$werror -DSWGL_SANITIZE=$sanitize
cmake --build "$build_dir" -j "$(nproc)"
if [ $sanitize = ON ]; then
  # Halt on the first UBSan report; leaks of Mesa, LLVM and GLVND are suppressed
  # (tests/lsan.supp says why).  Mesa's eglTerminate dlcloses its DRI driver, which hides
  # from LeakSanitizer what the driver still holds (reported as leaks of "<unknown
  # module>"): the driver stays loaded by LD_PRELOAD, which ASan allows with
  # verify_asan_link_order=0.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
  export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
  dri=$(ls /usr/lib/*/dri/swrast_dri.so 2>/dev/null | head -1 || true)
  if [ -n "$dri" ] && [ -z "${LD_PRELOAD:-}" ]; then
    export LD_PRELOAD=$dri ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0
  fi
fi

case $mode in
  demo)
    "$build_dir/swgl" info
    "$build_dir/swgl" run --compare cpu-scalar --out out
    echo "build.sh: the picture is out/depth.png, the summary out/summary.json" ;;
  test)
    set +e
    (cd "$build_dir" && ctest --output-on-failure -j 2 2>&1) | tee "$build_dir/ctest.log"
    rc=${PIPESTATUS[0]}
    set -e
    # one closing line for any reader: N passed, N failed (ctest's own line precedes it)
    total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1 \2/p' "$build_dir/ctest.log")
    if [ -n "$total" ]; then
      set -- $total
      skipped=$(grep -c 'Not Run\|Skipped' "$build_dir/ctest.log" || true)
      echo "$(( $2 - $1 - skipped )) passed, $1 failed, $skipped skipped"
    fi
    exit "$rc" ;;
  build) ;;
  *) echo "usage: ./build.sh [demo|test|build|fuzz [SECONDS [HARNESS...]]]" >&2; exit 2 ;;
esac

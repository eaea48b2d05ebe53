#!/bin/sh
# test_python.sh BUILD_DIR PYTHON_DIR — the Python module as installed: the build installed
# into a fresh prefix, then tests/test_python.py run by a python3 with numpy against the
# prefix's module (PYTHON_DIR: where under the prefix it is, SWGL_PYTHON_DIR).  Skips (77)
# where no python3 with numpy exists (Debian: python3 python3-numpy; build.sh installs them).
# Environment: SWGL_BIN (the program, for the reference run), CMAKE, CC (for the struct
# layout check), SWGL_PYTHON (a python3 to try first), SWGL_TEST_PRELOAD (a sanitized
# build: the sanitizer runtime, which must be loaded before the interpreter).
build=$1
pydir=$2
here=$(cd "$(dirname "$0")" && pwd)
cmake=${CMAKE:-cmake}
py=""
for c in ${SWGL_PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$c" > /dev/null 2>&1 && "$c" -c 'import ctypes, numpy' > /dev/null 2>&1; then
    py=$c
    break
  fi
done
if [ -z "$py" ]; then
  echo "skip: no python3 with numpy (Debian: apt-get install python3 python3-numpy)"
  exit 77
fi
case $pydir in
  /*) echo "skip: SWGL_PYTHON_DIR is absolute ($pydir): not under a prefix of the test's own"; exit 77 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$cmake" --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"
  echo "FAIL  cmake --install $build --prefix \$tmp"
  exit 1
fi
echo "ok    cmake --install $build --prefix \$tmp; $py: $("$py" -c 'import sys, numpy; print(sys.version.split()[0], "numpy", numpy.__version__)')"
unset SWGL_LIBRARY
if [ -n "${SWGL_TEST_PRELOAD:-}" ]; then
  # the interpreter is not built with the sanitizers: their runtime first, and no leak report
  # of the interpreter's own (the C tests check the library's leaks)
  # (the programs the test starts get the environment as it was: SWGL_TEST_ENV_PRELOAD)
  SWGL_TEST_ENV_PRELOAD=${LD_PRELOAD:-}
  SWGL_TEST_ENV_ASAN_OPTIONS=${ASAN_OPTIONS:-}
  export SWGL_TEST_ENV_PRELOAD SWGL_TEST_ENV_ASAN_OPTIONS
  LD_PRELOAD="$SWGL_TEST_PRELOAD${LD_PRELOAD:+ $LD_PRELOAD}"
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:verify_asan_link_order=0"
  export LD_PRELOAD ASAN_OPTIONS
fi
cd "$tmp" || exit 1
PYTHONPATH="$tmp/prefix/$pydir" SWGL_TEST_PREFIX="$tmp/prefix" SWGL_TEST_TMP="$tmp" \
  "$py" "$here/test_python.py"

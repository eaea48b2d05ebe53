#!/bin/sh
# test_exports.sh LIBSWGL_SO NM HEADER...: libswgl.so exports exactly the functions its
# headers declare SWGL_API, no more (everything else is hidden: the engine's, the schemes',
# gpgpu's names would otherwise clash with a program's own) and no fewer.
lib=$1 nm=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# "SWGL_API type *name(args" -> name
grep -h '^[[:space:]]*SWGL_API[[:space:]]' "$@" | sed 's/(.*//; s/.*[[:space:]*]//' | sort -u > "$tmp/declared"
"$nm" -D --defined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u > "$tmp/exported"
n=$(wc -l < "$tmp/declared")
if [ "$n" -lt 10 ]; then
  echo "FAIL  only $n SWGL_API declarations found in $*"; exit 1
fi
if cmp -s "$tmp/declared" "$tmp/exported"; then
  echo "ok    libswgl.so exports exactly the $n SWGL_API functions of the headers"
  exit 0
fi
echo "FAIL  the exported symbols differ from the SWGL_API declarations"
comm -13 "$tmp/declared" "$tmp/exported" | sed 's/^/      exported, not declared: /'
comm -23 "$tmp/declared" "$tmp/exported" | sed 's/^/      declared, not exported: /'
exit 1

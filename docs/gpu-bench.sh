#!/usr/bin/env bash
# docs/gpu-bench.sh — what produced the GPU-machine tables in docs/performance.md.
# Run on a machine with a GPU and the GLVND/EGL user-space libraries, from the
# repository root, with swgl built in ./build:   bash docs/gpu-bench.sh [tests] [gpgpu] [roe] [sediment] [demo]
# Every bench prints the renderer, the sizes and the figures; logs go to $OUT (or ./out-gpu).
set -u
out=${OUT:-out-gpu}
mkdir -p "$out"
what=${*:-tests gpgpu roe sediment demo}
./build/swgl info 2>&1 | tee "$out/info.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>/dev/null | tee -a "$out/info.txt"
for w in $what; do
  case $w in
    tests)
      for t in build/tests/test_gl_*; do
        SWGL_GL_CHECK=1 "$t" > "$out/$(basename "$t").log" 2>&1
        echo "$(basename "$t"): exit $? — $(tail -n 1 "$out/$(basename "$t").log")"
      done 2>&1 | tee "$out/tests.txt" ;;
    gpgpu) ./build/swgl bench gpgpu 2>&1 | tee "$out/bench-gpgpu.txt" ;;
    roe) ./build/swgl bench roe --test1 0-5 --test2 0-4 --scalar-max 3 2>&1 | tee "$out/bench-roe.txt" ;;
    sediment)
      ./build/swgl bench sediment --sizes 1024,2048,4096 --form paper 2>&1 | tee "$out/bench-sediment-paper.txt"
      ./build/swgl bench sediment --sizes 1024,2048,4096 --form conservative --no-cpu 2>&1 | tee "$out/bench-sediment-cons.txt" ;;
    demo)
      ./build/swgl run --compare cpu --out "$out/dambreak" 2>&1 | tee "$out/demo.txt"
      ./build/swgl run --case sediment-basin --compare cpu --out "$out/basin" 2>&1 | tee -a "$out/demo.txt" ;;
  esac
done

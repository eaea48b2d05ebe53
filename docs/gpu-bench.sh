#!/usr/bin/env bash
# docs/gpu-bench.sh — what produced the GPU-machine tables in docs/performance.md.
# Run on a machine with a GPU and the GLVND/EGL user-space libraries, from the
# repository root, with swgl built in ./build:
#   bash docs/gpu-bench.sh [tests] [gpgpu] [roe] [sediment] [demo] [compute] [sweep] [scaling]
# (compute: issue 13's table, "The gpu-compute backend with kernels"; it needs GL 4.3 and,
# for the Malpasset rows, the shared data: SWGL_DATA; sweep: kp's flux kernel over work
# groups and kp.cells shapes (--tune), each checked to give one cell an invocation's bits;
# scaling: over MPI ranks, one GPU each, on a machine of two GPUs or more: MPIRUN, default
# "mpirun -n 2 --allow-run-as-root")
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
        "$t" > "$out/$(basename "$t").log" 2>&1
        echo "$(basename "$t"): exit $? — $(tail -n 1 "$out/$(basename "$t").log")"
      done 2>&1 | tee "$out/tests.txt" ;;
    gpgpu) ./build/swgl bench gpgpu 2>&1 | tee "$out/bench-gpgpu.txt" ;;
    roe) ./build/swgl bench roe --test1 0-5 --test2 0-4 --scalar-max 3 2>&1 | tee "$out/bench-roe.txt" ;;
    sediment)
      ./build/swgl bench sediment --sizes 1024,2048,4096 --form paper 2>&1 | tee "$out/bench-sediment-paper.txt"
      ./build/swgl bench sediment --sizes 1024,2048,4096 --form conservative --no-cpu 2>&1 | tee "$out/bench-sediment-cons.txt" ;;
    compute)
      R="--set domain.nx=4096 --set domain.ny=4096 --set domain.dx=0.009765625 --set domain.dy=0.009765625 --set output.maps=false --quiet"
      sum() { python3 -c "import json;d=json.load(open('$1/summary.json'));print('$2', d['steps'], 'steps', round(d['wall_s'],3), 's', '%.4g cell updates/s' % d['cells_per_s'], d['solver'])"; }
      {
        for t in build/tests/test_gl_roe_* build/tests/test_gl_kp_* build/tests/test_gl_reduce build/tests/test_gl_sediment build/tests/test_gl_compute; do
          echo "$(basename "$t") on compute passes: $("$t" --compute 2>&1 | tail -n 1)"
        done
        ./build/swgl bench gpgpu --min 4096 --max 4096
        for i in 1 2 3; do
          ./build/swgl run --case circular-dambreak --set run.scheme=roe --set run.t_end=0.5 $R --backend gpu-compute --out "$out/c-roe"
          sum "$out/c-roe" "roe 4096^2 gpu-compute (run $i)"
        done
        SWGL_PASS_PROFILE=1 ./build/swgl run --case circular-dambreak --set run.scheme=roe --set run.t_end=0.5 $R --backend gpu-compute --out "$out/c-roe"
        for integ in euler rk2; do
          ./build/swgl run --case circular-dambreak --set run.t_end=0.5 --set kp.integrator=$integ $R --backend gpu-compute --out "$out/c-kp"
          sum "$out/c-kp" "kp $integ 4096^2 gpu-compute"
        done
        SWGL_PASS_PROFILE=1 ./build/swgl run --case circular-dambreak --set run.t_end=0.5 $R --backend gpu-compute --out "$out/c-kp"
        ./build/swgl run --case circular-dambreak --set run.t_end=0.5 $R --backend gpu-compute --tune kp.fused=off --out "$out/c-kp0"
        sum "$out/c-kp0" "kp rk2 4096^2 gpu-compute, passes (--tune kp.fused=off)"
        ./build/swgl bench sediment --backend gpu-compute --sizes 4096 --no-cpu --form paper
        M="--set output.maps=false --set output.gauge_interval=4000 --quiet"
        for integ in euler rk2; do
          for ee in auto on off; do
            ./build/swgl run --case malpasset --backend gpu-compute $M --set kp.integrator=$integ --set kp.early_exit=$ee \
              --out "$out/c-mp"
            sum "$out/c-mp" "malpasset 15 m $integ gpu-compute, early exit $ee"
          done
          ./build/swgl run --case malpasset --backend gpu-compute --tune kp.fused=flux $M --set kp.integrator=$integ \
            --out "$out/c-mpf"
          sum "$out/c-mpf" "malpasset 15 m $integ gpu-compute, the flux kernel then passes (--tune kp.fused=flux)"
          SWGL_PASS_PROFILE=1 ./build/swgl run --case malpasset --backend gpu-compute $M --set kp.integrator=$integ \
            --out "$out/c-mp"
        done
        ./build/swgl run --case malpasset --backend gpu-compute --out "$out/c-mpv" --quiet
        ./build/swgl validate malpasset "$out/c-mpv" --out "$out/c-mpv" | tail -n 6
      } 2>&1 | tee "$out/compute.txt" ;;
    sweep)
      R="--set domain.nx=4096 --set domain.ny=4096 --set domain.dx=0.009765625 --set domain.dy=0.009765625 --set output.maps=false --quiet"
      M="--set output.maps=false --set output.gauge_interval=4000 --quiet"
      sum() { python3 -c "import json;d=json.load(open('$1/summary.json'));print('$2', d['steps'], 'steps', round(d['wall_s'],3), 's', '%.4g cell updates/s' % d['cells_per_s'])"; }
      # kt GROUP CELLS STAGED(1|0) SHARED(1|0): those as --tune items
      kt() { echo "kp.group=$1,kp.cells=$2,kp.stage=$([ "$3" = 1 ] && echo on || echo off),kp.xshare=$([ "$4" = 1 ] && echo on || echo off)"; }
      {
        ./build/swgl bench gpgpu --min 4096 --max 4096
        # (4096^2 is past 2^22 cells: the default there is 32x2 groups, 1x8 cells, rows shared, unstaged)
        ./build/swgl run --case circular-dambreak --tune "$(kt 16x8 1x1 1 0)" \
          --set run.t_end=0.5 $R --backend gpu-compute --out "$out/s-base"
        sum "$out/s-base" "kp rk2 4096^2, group 16x8, one cell an invocation, staged"
        # group, cells an invocation, staged (1) or not (0), a row's points shared (1) or not (0)
        for v in "16x8 1x2 1 0" "16x8 1x3 1 0" "8x8 1x4 1 0" "16x4 1x4 1 0" "8x8 2x2 1 0" "8x4 2x4 1 0" "8x8 2x4 0 0" \
                 "16x8 1x4 0 0" "16x8 2x4 0 0" "16x8 4x4 0 0" "32x4 1x8 0 0" "8x8 2x8 0 0" "8x8 4x4 0 0" "32x2 1x16 0 0" \
                 "32x2 1x16 0 1" "64x1 1x16 0 1" "32x4 1x16 0 1" "32x2 1x8 0 1" "64x2 1x8 0 1" "32x2 1x32 0 1" "32x2 1x2 0 1"; do
          set -- $v
          ./build/swgl run --case circular-dambreak --tune "$(kt $1 $2 $3 $4)" \
            --set run.t_end=0.5 $R --backend gpu-compute --out "$out/s-v"
          sum "$out/s-v" "kp rk2 4096^2, group $1, cells $2, staged $3, rows shared $4"
          cmp -s "$out/s-base/h.asc" "$out/s-v/h.asc" && cmp -s "$out/s-base/qx.asc" "$out/s-v/qx.asc" && echo "  the same h, qx" || echo "  DIFFERENT h or qx"
          for integ in euler rk2; do
            ./build/swgl run --case malpasset --backend gpu-compute --tune "$(kt $1 $2 $3 $4)" $M \
              --set kp.integrator=$integ --out "$out/s-mp" 2> /dev/null && sum "$out/s-mp" "  malpasset 15 m $integ"
          done
        done
        for n in 1024 2048; do   # the crossover: one cell an invocation against the large grids' form
          G="--set domain.nx=$n --set domain.ny=$n --set domain.dx=$(python3 -c "print(40/$n)") --set domain.dy=$(python3 -c "print(40/$n)") --set output.maps=false --quiet"
          for v in "16x8 1x1 1 0" "32x2 1x8 0 1" "32x2 1x16 0 1"; do
            set -- $v
            ./build/swgl run --case circular-dambreak --tune "$(kt $1 $2 $3 $4)" \
              --set run.t_end=0.5 $G --backend gpu-compute --out "$out/s-v"
            sum "$out/s-v" "kp rk2 ${n}^2, group $1, cells $2, staged $3, rows shared $4"
          done
        done
      } 2>&1 | tee "$out/sweep.txt" ;;
    scaling)
      ${MPIRUN:-mpirun -n 2 --allow-run-as-root} ./build/swgl bench scaling 2>&1 | tee "$out/bench-scaling.txt" ;;
    demo)
      ./build/swgl run --compare cpu --out "$out/dambreak" 2>&1 | tee "$out/demo.txt"
      ./build/swgl run --case sediment-basin --compare cpu --out "$out/basin" 2>&1 | tee -a "$out/demo.txt" ;;
  esac
done

"""test_python.py — the Python module swgl, as installed (run by tests/test_python.sh, which
installs the build into SWGL_TEST_PREFIX and puts the prefix's module on PYTHONPATH).

  - the module and libswgl.so it loads are the installed ones;
  - the ctypes structs match the C structs of swgl.h: member names in order (read from the
    header), and every offset and size as the C compiler lays them out;
  - the dam break on cpu-scalar: the step count of `swgl run` of the same case and backend,
    the volume within 1e-9 relative of its summary.json mass_final;
  - fields: (ny, nx) float64 arrays, row 0 the southern one (a bed of 0.001 y + 0.0001 x);
    set_field round trip; eta = bed + h;
  - errors raise swgl.Error (a RuntimeError) with the library's message and status: a bad
    set= key names it, a bad tune= value names its key (a good dict is taken), run_to to an
    earlier time, an unknown field, wrong shapes;
  - observers (an exception in one comes out of run_to; a stop request), finish and out=,
    close and the context manager.
"""
import json
import os
import re
import subprocess
import sys
import threading

import numpy as np

import swgl

prefix = os.environ["SWGL_TEST_PREFIX"]
tmp = os.environ["SWGL_TEST_TMP"]
swgl_bin = os.environ.get("SWGL_BIN")
passed = failed = 0
# the environment of the programs this test starts: as it was before test_python.sh preloaded
# the sanitizers' runtime for the interpreter (a sanitized build)
child_env = dict(os.environ)
for var, saved in (("LD_PRELOAD", "SWGL_TEST_ENV_PRELOAD"), ("ASAN_OPTIONS", "SWGL_TEST_ENV_ASAN_OPTIONS")):
    if saved in child_env:
        if child_env[saved]:
            child_env[var] = child_env[saved]
        else:
            child_env.pop(var, None)


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("ok    " + what)
    else:
        failed += 1
        print("FAIL  " + what)
    sys.stdout.flush()


def raises(fn, exc=swgl.Error):
    try:
        fn()
    except exc as e:
        return e
    except Exception as e:  # the wrong kind
        print("      raised %r" % (e,))
        return None
    return None


# ---- the installed module and library --------------------------------------------------------
real = os.path.realpath
check(real(swgl.__file__).startswith(real(prefix) + os.sep), "the module is the installed one: %s" % swgl.__file__)
libdir = os.environ.get("SWGL_TEST_LIBDIR", "lib")  # CMAKE_INSTALL_LIBDIR
check(real(swgl.library_path) == real(os.path.join(prefix, libdir, "libswgl.so.0")),
      "it loaded the prefix's libswgl.so.0: %s" % swgl.library_path)
check(re.match(r"^\d+\.\d+\.\d+", swgl.version() or "") is not None, "swgl.version() = %s" % swgl.version())
check("dambreak" in swgl.case_names(), "swgl.case_names() lists dambreak")
check((swgl.case_text("dambreak") or "").find("[domain]") >= 0, "swgl.case_text('dambreak') is a scenario")
check(swgl.case_text("no-such-case") is None, "swgl.case_text of an unknown case is None")
check(issubclass(swgl.Error, RuntimeError), "swgl.Error is a RuntimeError")

# ---- the structs against the C compiler ------------------------------------------------------
header = open(os.path.join(prefix, "include", "swgl.h")).read()
header_nc = re.sub(r"/\*.*?\*/", "", header, flags=re.S)


def members(struct):
    """The member names of typedef struct NAME { ... } NAME; in swgl.h, in order."""
    m = re.search(r"typedef struct %s \{(.*?)\} %s;" % (struct, struct), header_nc, re.S)
    names = []
    for decl in m.group(1).split(";"):
        decl = decl.strip()
        if not decl:
            continue
        for part in decl.split(","):
            part = re.sub(r"\[.*?\]", "", part).strip()
            names.append(re.findall(r"[A-Za-z_]\w*", part)[-1])
    return names


structs = {"swgl_sim_desc": swgl._SimDesc, "swgl_sim_info": swgl._SimInfo,
           "swgl_device_field": swgl._DeviceField, "swgl_raster": swgl._Raster}
for cname, cls in structs.items():
    py_names = [n for n, _ in cls._fields_]
    check(py_names == members(cname), "%s: the ctypes members are the header's, in order" % cname)

src = ["#include <stddef.h>", "#include <stdio.h>", "#include <swgl.h>", "int main(void) {"]
expect = []
for cname, cls in structs.items():
    src.append('printf("%s %%zu\\n", sizeof(%s));' % (cname, cname))
    expect.append("%s %d" % (cname, swgl.ctypes.sizeof(cls)))
    for n, _ in cls._fields_:
        src.append('printf("%s.%s %%zu %%zu\\n", offsetof(%s, %s), sizeof(((%s *)0)->%s));'
                   % (cname, n, cname, n, cname, n))
        expect.append("%s.%s %d %d" % (cname, n, getattr(cls, n).offset, getattr(cls, n).size))
src.append("return 0; }")
with open(os.path.join(tmp, "layout.c"), "w") as f:
    f.write("\n".join(src) + "\n")
cc = os.environ.get("CC", "cc")
cflags = os.environ.get("SWGL_TEST_CFLAGS", "").split()
r = subprocess.run([cc] + cflags + ["-I" + os.path.join(prefix, "include"), "-o", os.path.join(tmp, "layout"),
                                    os.path.join(tmp, "layout.c")], capture_output=True, text=True, env=child_env, timeout=300)
check(r.returncode == 0, "the layout program compiles %s" % r.stderr.strip())
if r.returncode == 0:
    got = subprocess.run([os.path.join(tmp, "layout")], capture_output=True, text=True, env=child_env).stdout.split("\n")[:-1]
    diff = [(a, b) for a, b in zip(expect, got) if a != b]
    check(len(got) == len(expect) and not diff,
          "every size and offset of the 4 structs as the C compiler's (%d checked)%s"
          % (len(expect), "".join("\n      ctypes %s, C %s" % d for d in diff)))

# ---- the dam break against swgl run ----------------------------------------------------------
ref = None
if swgl_bin:
    out = os.path.join(tmp, "ref")
    r = subprocess.run([swgl_bin, "run", "--case", "dambreak", "--backend", "cpu-scalar", "--out", out],
                       capture_output=True, text=True, env=child_env, timeout=300)
    check(r.returncode == 0, "swgl run --case dambreak --backend cpu-scalar" + (r.returncode and ": " + r.stderr or ""))
    if r.returncode == 0:
        with open(os.path.join(out, "summary.json")) as f:
            ref = json.load(f)
with swgl.Sim(case="dambreak", backend="cpu-scalar") as sim:
    check(sim.shape == (200, 200) and sim.size == (200, 200, 1.0, 1.0), "shape (ny, nx) and size (nx, ny, dx, dy)")
    check(sim.time == 0 and sim.steps == 0 and sim.t_end == 15, "at t = 0, 0 steps, t_end 15 s")
    sim.run_to(sim.t_end)
    check(sim.time == sim.t_end, "run_to(t_end) lands on t_end exactly")
    if ref:
        # The same arithmetic on the same backend (the program and the module run the same
        # engine, cpu-scalar in double): the same steps; the volume differs by nothing but the
        # printing of summary.json's number (17 significant digits) - 1e-9 relative is a wide
        # margin for that, and far below any real difference.
        check(sim.steps == ref["steps"], "%d steps as swgl run (%d)" % (sim.steps, ref["steps"]))
        v, vr = sim.volume(), ref["mass_final"]
        check(abs(v - vr) <= 1e-9 * abs(vr), "volume %.17g within 1e-9 of swgl run's %.17g" % (v, vr))
    info = sim.info()
    check(info["scheme"] == "roe" and info["backend"] == "cpu-scalar" and info["nx"] == 200,
          "info(): roe on cpu-scalar, 200 cells a row")
    check(sim.stat("steps") == sim.steps, "stat('steps') is steps")

    fields = {}
    for name in ("h", "eta", "qx", "qy", "bed"):
        a = sim.field(name)
        fields[name] = a
        check(a.shape == (200, 200) and a.dtype == np.float64 and a.flags.c_contiguous,
              "field(%r): a C-ordered (ny, nx) float64 array" % name)
    h, eta, bed = fields["h"], fields["eta"], fields["bed"]
    check(np.isnan(h[50, 100]) and np.isnan(h[150, 100]) and not np.isnan(h[100, 100]),
          "NaN on the dam (x = 100 m, outside the breach 80 < y < 120), not in the breach")
    ok = ~np.isnan(h)
    check(np.allclose(eta[ok], bed[ok] + h[ok], rtol=0, atol=1e-9), "eta = bed + h")
    check(abs(np.nansum(h) * sim.dx * sim.dy - sim.volume()) <= 1e-10 * sim.volume(),
          "sum h dx dy = volume()")
    buf = np.empty(sim.shape)
    check(sim.field("h", out=buf) is buf and np.array_equal(buf, h, equal_nan=True), "field(name, out=array)")
    check(raises(lambda: sim.field("h", out=np.empty((3, 3))), ValueError) is not None,
          "field into an array of the wrong shape raises ValueError")
    e = raises(lambda: sim.field("no-such-field"))
    check(e is not None and "no-such-field" in str(e), "an unknown field raises swgl.Error naming it: %s" % e)

    # set_field: the half of every depth
    v0 = sim.volume()
    sim.set_field("h", h * 0.5)
    h2 = sim.field("h")
    check(np.allclose(h2[ok], 0.5 * h[ok], rtol=1e-15, atol=0), "set_field('h') then field('h'): the same values")
    check(abs(sim.volume() - 0.5 * v0) <= 1e-10 * v0, "the volume is halved")
    check(raises(lambda: sim.set_field("h", np.zeros((200, 199))), ValueError) is not None,
          "set_field of the wrong shape raises ValueError")
    neg = np.where(ok, -1.0, np.nan)
    e = raises(lambda: sim.set_field("h", neg))
    check(e is not None, "set_field of negative depths raises swgl.Error: %s" % e)

    # run_to to an earlier time
    t = sim.time
    e = raises(lambda: sim.run_to(1.0))
    check(e is not None and e.status != swgl.Status.OK and str(e),
          "run_to to an earlier time raises swgl.Error: %s (%s)" % (e, e and e.status.name))
    check(sim.time == t, "and leaves the time as it was")
check(sim.closed, "leaving the with block closes the sim")
e = raises(lambda: sim.time)
check(e is not None, "a closed sim raises swgl.Error: %s" % e)
sim.close()

# ---- rows: row 0 is the south, columns run east ----------------------------------------------
with swgl.Sim(case="dambreak", backend="cpu-scalar", set={"domain.bed": "0.001 * y + 0.0001 * x"}) as sim:
    bed = sim.field("bed")
    j, i = np.mgrid[0:sim.ny, 0:sim.nx]
    want = 0.001 * (j + 0.5) * sim.dy + 0.0001 * (i + 0.5) * sim.dx
    err = np.nanmax(np.abs(bed - want))
    check(err < 1e-9, "a bed of 0.001 y + 0.0001 x: bed[j, i] at cell (i, j)'s centre, row 0 the south (%.2g)" % err)

# ---- errors at creation ----------------------------------------------------------------------
e = raises(lambda: swgl.Sim(case="dambreak", backend="cpu-scalar", set=["run.cfl=7"]))
check(e is not None and isinstance(e, RuntimeError) and "cfl" in str(e) and isinstance(e.status, swgl.Status)
      and e.status != swgl.Status.OK,
      "set=['run.cfl=7'] raises swgl.Error naming the key: %s (%s)" % (e, e and e.status.name))
# tune= (swgl_sim_desc.tune, the last member of the desc: a wrong ctypes mirror would pass
# garbage or nothing): a dict with each kind of value is taken, and a bad value named
with swgl.Sim(case="dambreak", backend="cpu-scalar",
              tune={"clock_every": 8, "mpi.overlap": False, "kp.group": (16, 8)}) as sim:
    sim.run_to(0.1)
    check(sim.time == 0.1 and sim.steps > 0, "tune={'clock_every': 8, 'mpi.overlap': False, 'kp.group': (16, 8)} "
          "is taken, and the sim steps to 0.1 s (%d steps)" % sim.steps)
e = raises(lambda: swgl.Sim(case="dambreak", backend="cpu-scalar", tune="clock_every=8,kp.group=99"))
check(e is not None and "kp.group=99" in str(e) and "expected AxB" in str(e) and e.status == swgl.Status.ERR_ARG,
      "tune='clock_every=8,kp.group=99' raises swgl.Error naming the key and the expectation: %s" % e)
e = raises(lambda: swgl.Sim(case="dambreak", backend="tpu"))
check(e is not None and "tpu" in str(e), "an unknown backend raises swgl.Error naming it: %s" % e)
e = raises(lambda: swgl.Sim(case="no-such-case", backend="cpu-scalar"))
check(e is not None and "no-such-case" in str(e), "an unknown case raises swgl.Error naming it: %s" % e)
e = raises(lambda: swgl.Sim(scenario=os.path.join(tmp, "no-such.ini"), backend="cpu-scalar"))
check(e is not None and "no-such.ini" in str(e) and e.status in (swgl.Status.ERR_IO, swgl.Status.ERR_INPUT),
      "a missing scenario file raises swgl.Error naming it: %s" % e)

# ---- observers, stop requests, out= and finish -----------------------------------------------
out = os.path.join(tmp, "out")
with swgl.Sim(case="dambreak", backend="cpu-scalar", set={"run.t_end": 2}, out=out) as sim:
    seen = []
    sim.observe(lambda s, ev, t: seen.append((ev, t)), swgl.Event.STEP | swgl.Event.FINISH)
    sim.run_to(1.0)
    steps = [x for x in seen if x[0] == swgl.Event.STEP]
    check(len(steps) == sim.steps and steps[-1][1] == 1.0, "an observer sees every step, the last at t = 1")
    check(all(a[1] < b[1] for a, b in zip(steps, steps[1:])), "at increasing times")

    class Boom(Exception):
        pass

    calls = []

    def boom(s, ev, t):
        calls.append(t)
        if len(calls) == 5:
            raise Boom("at the 5th step")
    sim.observe(boom, swgl.Event.STEP)
    n0 = sim.steps
    e = raises(lambda: sim.run_to(2.0), Boom)
    check(e is not None and sim.steps == n0 + 5 and sim.time == calls[-1] < 2.0,
          "an observer's exception stops run_to after that step and comes out of it (step %d, t = %.6g)"
          % (sim.steps, sim.time))
    # the step the observer saw is whole: the sim goes on from it (boom raises only once)
    sim.run_to(2.0)
    check(sim.time == 2.0 and sim.steps > n0 + 5, "after it, run_to goes on from that step (t = %.6g)" % sim.time)
    # a stop request from an observer is for good: later run_to calls raise at once
    sim.observe(lambda s, ev, t: s.request_stop(), swgl.Event.STEP)
    n1 = sim.steps
    e = raises(lambda: sim.run_to(3.0))
    check(e is not None and e.status == swgl.Status.ERR_INTERRUPTED and sim.steps == n1 + 1,
          "request_stop() in an observer: run_to stops after that step (%s)" % e)
    e = raises(lambda: sim.run_to(3.0))
    check(e is not None and e.status == swgl.Status.ERR_INTERRUPTED, "and later run_to calls raise at once: %s" % e)
    sim.finish()
    check(seen[-1][0] == swgl.Event.FINISH and seen[-1][1] == sim.time, "finish() calls the finish observers")
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    check(summary["steps"] == sim.steps and summary["interrupted"] is True,
          "finish() wrote out/summary.json: %d steps, interrupted" % summary["steps"])
    text = sim.summary()
    check("cpu-scalar" in text and "mass balance" in text,
          "summary(): swgl run's lines, all of them on the stream given (%d lines)" % text.count("\n"))

with swgl.Sim(case="dambreak", backend="cpu-scalar", set={"run.t_end": 2}, out=out) as sim:
    seen = []
    sim.observe(lambda s, ev, t: seen.append((ev, t)), swgl.Event.FINISH)
    sim.run()
    check(sim.time == 2.0, "run() goes to t_end")
    sim.finish()
    check(seen == [(swgl.Event.FINISH, 2.0)], "finish() calls the finish observers at t = 2")
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    check(summary["steps"] == sim.steps and summary["t_end"] == 2 and summary["interrupted"] is False,
          "finish() wrote out/summary.json: %d steps to t = 2" % summary["steps"])

with swgl.Sim(case="dambreak", backend="cpu-scalar") as sim:
    calls = []

    def stop_at_5(s, ev, t):
        calls.append(t)
        if len(calls) == 5:
            s.request_stop()
    sim.observe(stop_at_5, swgl.Event.STEP)
    e = raises(lambda: sim.run_to(sim.t_end))
    check(e is not None and e.status == swgl.Status.ERR_INTERRUPTED and sim.steps == 5,
          "request_stop() in an observer: run_to raises ERR_INTERRUPTED after that step (%d steps)" % sim.steps)

# request_stop from another thread: run_to releases the GIL while it steps
with swgl.Sim(case="dambreak", backend="cpu-scalar", set={"run.t_end": 300}) as sim:
    started = threading.Event()
    sim.observe(lambda s, ev, t: started.set(), swgl.Event.STEP)
    th = threading.Thread(target=lambda: (started.wait(60), sim.request_stop()))
    th.start()
    e = raises(lambda: sim.run_to(sim.t_end))
    th.join()
    check(e is not None and e.status == swgl.Status.ERR_INTERRUPTED and 0 < sim.time < sim.t_end,
          "request_stop() from another thread stops a run_to (t = %.6g)" % sim.time)

print("test_python: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)

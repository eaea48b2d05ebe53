"""swgl: shallow-water and sediment-transport simulation on GPUs through OpenGL, and on CPUs.

The Python face of swgl's C API (include/swgl.h), through ctypes and numpy: nothing to compile.

    import swgl
    with swgl.Sim(case="dambreak", backend="cpu-scalar") as sim:
        sim.run_to(sim.t_end)                  # lands on t_end exactly
        h = sim.field("h")                     # (ny, nx) float64; h[0] is the southern row
        print(sim.steps, sim.volume())

A failing call raises swgl.Error (a RuntimeError) with the library's one-line message and its
status (swgl.Status).  The library is libswgl.so: $SWGL_LIBRARY if set, else the one installed
with this module, else the system's (ctypes.util.find_library).  docs/api.md is the guide.
"""

import ctypes
import ctypes.util
import enum
import os
import sys
import weakref
from collections import namedtuple

import numpy as np

__all__ = [
    "Sim", "Error", "Status", "Event", "DeviceField", "version", "has", "case_names",
    "case_text", "case_summary", "data_dir", "devices", "copy_bandwidth", "read_raster",
    "strerror", "library_path",
]

from ._capi import *  # noqa: F401,F403  (the library and its declarations: _capi.py)
from ._capi import library_path  # noqa: F401  (named for readers)


# ---- errors -----------------------------------------------------------------------------------


class Error(RuntimeError):
    """A failed swgl call: str(e) is swgl_last_error()'s line, e.status the swgl.Status."""

    def __init__(self, message, status=Status.ERR_ARG):
        super().__init__(message)
        self.message = message
        try:
            self.status = Status(status)
        except ValueError:
            self.status = status

    def __repr__(self):
        return "swgl.Error(%r, %s)" % (self.message, self.status)


def strerror(status):
    """The status's words ("invalid argument", ...)."""
    return _s(_strerror(int(status)))


def _check(status):
    if status != 0:
        raise Error(_s(_last_error()) or strerror(status), status)


# ---- the library's calls ----------------------------------------------------------------------


def version():
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return _s(_version())


def has(feature):
    """Whether this build has a feature: "netcdf" (run.nc, restart), "mpi", "gl"."""
    return bool(_has(_b(feature)))


def case_names():
    """The built-in cases' names."""
    names, p, k = [], _case_names(), 0
    while p and p[k] is not None:
        names.append(_s(p[k]))
        k += 1
    return names


def case_text(name):
    """A built-in case's scenario text (None if unknown)."""
    return _s(_case_text(_b(name)))


def case_summary(name):
    """A built-in case's first comment line (None if unknown)."""
    return _s(_case_summary(_b(name)))


def data_dir():
    """The shared data folder (@data/ paths): $SWGL_DATA, else the build's."""
    return _s(_data_dir())


def _device_args(device):
    return (0, 0) if device is None else (1, int(device))


def devices(device=None):
    """swgl info's text: the EGL devices, and the renderer a sim would get."""
    use, d = _device_args(device)
    r, text = _captured(lambda f: _print_devices(f, use, d))
    if r != 0:
        raise Error(_s(_last_error()) or text.strip(), Status.ERR_NO_DEVICE)
    return text


def copy_bandwidth(device=None, compute=False):
    """GB/s of a float4 copy as a fragment pass (or a compute kernel) on the device."""
    use, d = _device_args(device)
    gbs = c_double()
    _check(_copy_bandwidth(use, d, int(bool(compute)), ctypes.byref(gbs)))
    return gbs.value


def read_raster(path):
    """An ESRI ASCII grid: (values as a (ny, nx) float64 array, row 0 the southern one, NaN
    where NODATA; a dict of x0, y0 (the south-west corner), dx, dy)."""
    r = _Raster()
    _check(_raster_read(_b(path), ctypes.byref(r)))
    try:
        v = np.ctypeslib.as_array(r.v, shape=(r.ny, r.nx)).copy()
    finally:
        _raster_free(ctypes.byref(r))
    return v, {"x0": r.x0, "y0": r.y0, "dx": r.dx, "dy": r.dy}


# ---- a simulation -----------------------------------------------------------------------------

DeviceField = namedtuple("DeviceField", "texture component texture2 component2 scale2 "
                                        "width height x0 y0 nx ny")
DeviceField.__doc__ = ("Where a field lives on the GPU (swgl_device_field): value(i, j) = "
                       "texel(texture, x0+i, y0+j)[component] + scale2 * texel(texture2, ...)"
                       "[component2] where texture2 != 0.")


def _set_list(set):
    """--set overrides: a "section.key=value" string, a list of them, or a dict."""
    if set is None:
        return []
    if isinstance(set, (str, bytes)):
        set = [set]
    elif isinstance(set, dict):
        items = []
        for k, v in set.items():
            if isinstance(v, bool):
                v = "true" if v else "false"
            elif isinstance(v, (list, tuple)):
                v = ",".join(str(x) for x in v)
            items.append("%s=%s" % (k, v))
        set = items
    return [s if isinstance(s, bytes) else str(s).encode() for s in set]


def _tune_text(tune):
    """tune=: "key=value,key=value" text, or a dict (True/False: on/off, a pair: AxB)."""
    if tune is None or isinstance(tune, (str, bytes)):
        return tune
    if isinstance(tune, dict):
        items = []
        for k, v in tune.items():
            if isinstance(v, bool):
                v = "on" if v else "off"
            elif isinstance(v, (list, tuple)):
                v = "x".join(str(x) for x in v)
            items.append("%s=%s" % (k, v))
        return ",".join(items)
    raise Error("swgl.Sim: tune must be None, a 'key=value,...' string or a dict, not %r" % (tune,),
                Status.ERR_ARG)


class Sim:
    """A simulation (swgl_sim): a scenario on a backend, stepped to the times asked for.

    Sim(scenario=None, case=None, set=None, backend=None, precision=None, out=None, *,
        device=None, use_current_context=False, restart=None, restart_time=None,
        compare=None, progress=None, profile=False, host_clock=False, tune=None)

    scenario   a scenario file (docs/scenarios.md); case: a built-in case instead (neither:
               the default demo, case "dambreak")
    set        "section.key=value" overrides as --set: a string, a list, or a dict
    backend    "gpu" (the default), "gpu-compute", "cpu", "cpu-scalar"
    precision  "single" | "double" (None: the scheme's default)
    out        an output folder (written by finish()); None: no files
    device     an EGL device index (swgl info); None: $SWGL_DEVICE, else the first GPU,
               else llvmpipe
    use_current_context  use the GL context current on this thread (3.3 core; 4.3 for
               gpu-compute) instead of a headless one: it must stay current for every call
    restart    a run.nc to continue from (its latest state; restart_time: the one stored then)
    compare    a second backend run at finish() over the same stops (summary.json)
    progress   None | "tty" | "lines": a progress line on stderr while stepping, and the
               run's messages there (restart, comparison); None: the library prints nothing
    profile    time every GPU pass (profile())
    host_clock step on the host's clock (a GPU backend reads the time step back every step)
    tune       tuning choices (swgl_sim_desc.tune, --tune; `swgl tune-keys` lists them): a
               "key=value,key=value" string or a dict, e.g. {"clock_every": 8,
               "kp.group": (16, 8), "mpi.overlap": False}; a bad key or value raises
               swgl.Error naming it
    """

    def __init__(self, scenario=None, case=None, set=None, backend=None, precision=None,
                 out=None, *, device=None, use_current_context=False, restart=None,
                 restart_time=None, compare=None, progress=None, profile=False,
                 host_clock=False, tune=None):
        self._h = None
        self._observers = []
        self._pending = None
        d = _SimDesc()
        d.scenario = _b(scenario)
        d.case_name = _b(case)
        overrides = _set_list(set)
        if overrides:
            arr = (c_char_p * (len(overrides) + 1))(*overrides, None)
            d.set = ctypes.cast(arr, P(c_char_p))
            self._set_array = arr  # the strings live as long as the sim
        d.backend = _b(backend)
        d.precision = _b(precision)
        d.out = _b(out)
        if device is not None:
            d.use_device, d.device = 1, int(device)
        d.use_current_context = int(bool(use_current_context))
        d.restart = _b(restart)
        if restart_time is not None:
            d.restart_at_time, d.restart_time = 1, float(restart_time)
        d.compare = _b(compare)
        if progress not in _PROGRESS:
            raise Error("swgl.Sim: progress must be None, 'tty' or 'lines', not %r" % (progress,),
                        Status.ERR_ARG)
        d.progress = _PROGRESS[progress]
        d.profile = int(bool(profile))
        d.host_clock = int(bool(host_clock))
        d.tune = _b(_tune_text(tune))
        self._desc = d
        h = c_void_p()
        _check(_sim_create(ctypes.byref(d), ctypes.byref(h)))
        self._h = h
        nx, ny, dx, dy = c_int(), c_int(), c_double(), c_double()
        _sim_size(h, ctypes.byref(nx), ctypes.byref(ny), ctypes.byref(dx), ctypes.byref(dy))
        self._size = (nx.value, ny.value, dx.value, dy.value)

    # -- lifetime --

    def _handle(self):
        if self._h is None:
            raise Error("swgl.Sim: the sim is closed", Status.ERR_ARG)
        return self._h

    def close(self, _destroy=_sim_destroy):
        """Releases the sim (swgl_sim_destroy); without finish() the output folder is left as
        it was.  Closing twice is fine."""
        h, self._h = self._h, None
        if h is not None:
            _destroy(h)
        self._observers = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    @property
    def closed(self):
        return self._h is None

    def __repr__(self):
        if self._h is None:
            return "<swgl.Sim closed>"
        return "<swgl.Sim %dx%d t=%.9g of %.9g, %d steps>" % (
            self.nx, self.ny, self.time, self.t_end, self.steps)

    # -- stepping --

    def _run(self, status):
        pending, self._pending = self._pending, None
        if pending is not None:
            raise pending
        _check(status)

    def run_to(self, t):
        """Steps to time t (s), landing on it exactly; output times on the way are written.
        An earlier t raises swgl.Error; t beyond t_end is allowed."""
        h = self._handle()
        self._run(_sim_run_to(h, float(t)))

    def run(self):
        """run_to(t_end)."""
        self.run_to(self.t_end)

    def step(self):
        """One step of the largest stable size, never past t_end (none at t_end)."""
        self._run(_sim_step(self._handle()))

    def request_stop(self):
        """Asks a running run_to (in another thread) to stop after its step: it raises
        swgl.Error with Status.ERR_INTERRUPTED, the state reached still whole."""
        if self._h is not None:
            _sim_request_stop(self._h)

    def finish(self):
        """With out: writes the final state, maps, gauges, run.nc, summary.json, pictures, runs
        the comparison, commits the folder.  Once; no stepping after it."""
        self._run(_sim_finish(self._handle()))

    @property
    def time(self):
        """The current time (s)."""
        return _sim_time(self._handle())

    @property
    def steps(self):
        """The steps taken so far."""
        return _sim_steps(self._handle())

    @property
    def t_end(self):
        """The scenario's [run] t_end (s)."""
        return _sim_t_end(self._handle())

    # -- the grid and the fields --

    @property
    def size(self):
        """(nx, ny, dx, dy), as swgl_sim_size: cells (or the sediment scheme's points)."""
        return self._size

    @property
    def nx(self):
        return self._size[0]

    @property
    def ny(self):
        return self._size[1]

    @property
    def dx(self):
        return self._size[2]

    @property
    def dy(self):
        return self._size[3]

    @property
    def shape(self):
        """(ny, nx): the shape of every field array."""
        return (self._size[1], self._size[0])

    @property
    def origin(self):
        """(x0, y0): the map coordinates of the grid's south-west corner."""
        x0, y0 = c_double(), c_double()
        _sim_origin(self._handle(), ctypes.byref(x0), ctypes.byref(y0))
        return (x0.value, y0.value)

    def field(self, name, out=None):
        """A field of the current state as a (ny, nx) float64 array: a[j, i] is cell (i, j),
        i eastward, row j = 0 the southern one; NaN outside the domain.  "h" "eta" "qx" "qy"
        "bed" (shallow water), "h" "s" (sediment).  out: an array to fill instead."""
        if out is None:
            out = np.empty(self.shape, dtype=np.float64)
        elif (out.shape != self.shape or out.dtype != np.float64 or not out.flags.c_contiguous
              or not out.flags.writeable):
            raise ValueError("swgl.Sim.field: out must be a writeable C-contiguous float64 "
                             "array of shape %s" % (self.shape,))
        _check(_sim_field(self._handle(), _b(name), out.ctypes.data_as(P(c_double))))
        return out

    def set_field(self, name, values):
        """Sets a state field ("h" "qx" "qy", or "eta" as bed + h; sediment "h" "s") from a
        (ny, nx) array (cells outside the domain ignored; negative depths refused)."""
        a = np.ascontiguousarray(values, dtype=np.float64)
        if a.shape != self.shape:
            raise ValueError("swgl.Sim.set_field(%r): shape %s, the grid's is %s (ny, nx)"
                             % (name, a.shape, self.shape))
        _check(_sim_set_field(self._handle(), _b(name), a.ctypes.data_as(P(c_double))))

    def volume(self):
        """The water volume sum h dx dy over the domain (m^3), as summary.json's mass_final
        (the sediment scheme: the basin's volume)."""
        return _sim_volume(self._handle())

    # -- observers --

    def observe(self, fn, events=Event.STEP | Event.OUTPUT | Event.FINISH):
        """Calls fn(sim, event, t) at the events asked for (swgl.Event flags), on this thread,
        with the state readable through field().  fn may return a swgl.Status other than OK
        to end the run_to (step, finish) with it; an exception it raises ends it too and comes
        out of that call.  The step it saw is whole: a later run_to goes on.  At most 32
        observers."""
        ref = weakref.ref(self)

        def call(handle, event, t, user):
            sim = ref()
            if sim is None:
                return int(Status.ERR_ARG)
            try:
                r = fn(sim, Event(event), t)
                return 0 if r is None else int(r)
            except BaseException as e:  # carried to the caller of run_to
                sim._pending = e
                return int(Status.ERR_INTERRUPTED)

        cb = _OBSERVER(call)
        _check(_sim_observe(self._handle(), int(events), cb, None))
        self._observers.append(cb)  # alive as long as the sim

    # -- what ran --

    def info(self):
        """What runs: scheme, backend, solver, renderer, precision, source, nx, ny, dx, dy,
        t_start, t_end, cells (swgl_sim_info) as a dict."""
        i = _SimInfo()
        _check(_sim_get_info(self._handle(), ctypes.byref(i)))
        return {name: (_s(getattr(i, name)) if isinstance(getattr(i, name), bytes) else getattr(i, name))
                for name, _ in _SimInfo._fields_}

    def stat(self, name):
        """A number about the run so far: "wall_s", "steps", "dt_min", "dt_max",
        "cells_per_s", "mass_initial", "mass_final", "tiles_fraction", "exchange_s",
        "interrupted"."""
        v = c_double()
        _check(_sim_stat(self._handle(), _b(name), ctypes.byref(v)))
        return v.value

    def profile(self):
        """With profile=True on a GPU backend: [(pass name, GPU seconds, count), ...]."""
        h, rows, k = self._handle(), [], 0
        name, sec, count = c_char_p(), c_double(), c_long()
        while _sim_profile(h, k, ctypes.byref(name), ctypes.byref(sec), ctypes.byref(count)) == 0:
            rows.append((_s(name.value), sec.value, count.value))
            k += 1
        return rows

    def summary(self):
        """The summary of a finished sim as swgl run prints it."""
        h = self._handle()
        return _captured(lambda f: _sim_print_summary(h, f))[1]

    def print_summary(self, file=None):
        (file or sys.stdout).write(self.summary())

    def device_field(self, name):
        """Where a field lives on the GPU (swgl.DeviceField), valid in the sim's GL context
        until the next step; a CPU backend or a double state raises swgl.Error."""
        f = _DeviceField()
        _check(_sim_device_field(self._handle(), _b(name), ctypes.byref(f)))
        return DeviceField(*(getattr(f, n) for n, _ in _DeviceField._fields_))

    def trace_step(self, directory):
        """GPU backends: the next step with every pass's arrays written as pictures into
        directory (index.html); returns the number of passes."""
        n = c_int()
        self._run(_sim_trace_step(self._handle(), _b(directory), ctypes.byref(n)))
        return n.value

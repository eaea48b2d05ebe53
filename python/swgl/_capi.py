"""swgl._capi: libswgl.so loaded, and its C API as ctypes declarations (include/swgl.h): the
status and event enums, the structs member for member, each function's prototype, and the
memory stream a FILE * argument writes into.  swgl/__init__.py builds the Python API on it."""

import ctypes
import ctypes.util
import enum
import os

# ---- the library ------------------------------------------------------------------------------


def _library_candidates():
    env = os.environ.get("SWGL_LIBRARY")
    if env:
        return [env], True
    found = []
    try:
        from . import _config  # written at install: where libswgl.so lies from here
        found.append(os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   _config.LIBRARY)))
    except ImportError:
        pass
    name = ctypes.util.find_library("swgl")
    if name:
        found.append(name)
    return found, False


def _load():
    # OpenMP threads that share the machine (issue 28; solver/app/main.c): passive waiting
    # unless the user chose otherwise, set before the library (and its libgomp) is loaded,
    # which reads it once when it loads
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    candidates, from_env = _library_candidates()
    errors = []
    for path in candidates:
        if not from_env and os.sep in path and not os.path.exists(path):
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append(str(e))
    where = "; ".join(errors) if errors else "none found"
    raise ImportError("swgl: cannot load libswgl.so (%s): set SWGL_LIBRARY to its path, or install "
                      "swgl with this module (cmake --install, docs/api.md)" % where)


_lib, library_path = _load()

c_int, c_uint, c_long, c_double, c_char_p, c_void_p = (
    ctypes.c_int, ctypes.c_uint, ctypes.c_long, ctypes.c_double, ctypes.c_char_p, ctypes.c_void_p)
P = ctypes.POINTER


class Status(enum.IntEnum):
    """swgl_status (include/swgl_status.h)."""
    OK = 0
    ERR_ARG = 1
    ERR_NO_MEMORY = 2
    ERR_NO_DEVICE = 3
    ERR_NO_CONTEXT = 4
    ERR_TOO_LARGE = 5
    ERR_FRAMEBUFFER = 6
    ERR_COMPILE = 7
    ERR_MISSING = 8
    ERR_ALIAS = 9
    ERR_GL = 10
    ERR_INPUT = 11
    ERR_IO = 12
    ERR_BLOWUP = 13
    ERR_INTERRUPTED = 14


class Event(enum.IntFlag):
    """swgl_event: when an observer is called."""
    STEP = 1
    OUTPUT = 2
    FINISH = 4


_PROGRESS = {None: 0, False: 0, "none": 0, True: 2, "tty": 1, "lines": 2}


# The structs of swgl.h, field for field (tests/test_python.py checks every offset against
# the C compiler's).
class _SimDesc(ctypes.Structure):
    _fields_ = [
        ("scenario", c_char_p),
        ("case_name", c_char_p),
        ("set", P(c_char_p)),
        ("backend", c_char_p),
        ("precision", c_char_p),
        ("out", c_char_p),
        ("use_device", c_int),
        ("device", c_int),
        ("use_current_context", c_int),
        ("restart", c_char_p),
        ("restart_at_time", c_int),
        ("restart_time", c_double),
        ("compare", c_char_p),
        ("progress", c_int),
        ("profile", c_int),
        ("host_clock", c_int),
        ("mpi_alone", c_int),
        ("tune", c_char_p),
    ]


class _SimInfo(ctypes.Structure):
    _fields_ = [
        ("scheme", ctypes.c_char * 32),
        ("backend", ctypes.c_char * 32),
        ("solver", ctypes.c_char * 320),
        ("renderer", ctypes.c_char * 256),
        ("precision", ctypes.c_char * 16),
        ("source", ctypes.c_char * 512),
        ("nx", c_int),
        ("ny", c_int),
        ("dx", c_double),
        ("dy", c_double),
        ("t_start", c_double),
        ("t_end", c_double),
        ("cells", c_long),
    ]


class _DeviceField(ctypes.Structure):
    _fields_ = [
        ("texture", c_uint),
        ("component", c_int),
        ("texture2", c_uint),
        ("component2", c_int),
        ("scale2", c_double),
        ("width", c_int),
        ("height", c_int),
        ("x0", c_int),
        ("y0", c_int),
        ("nx", c_int),
        ("ny", c_int),
    ]


class _Raster(ctypes.Structure):
    _fields_ = [
        ("nx", c_int),
        ("ny", c_int),
        ("x0", c_double),
        ("y0", c_double),
        ("dx", c_double),
        ("dy", c_double),
        ("v", P(c_double)),
    ]


_OBSERVER = ctypes.CFUNCTYPE(c_int, c_void_p, c_int, c_double, c_void_p)


def _proto(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_sim_create = _proto("swgl_sim_create", c_int, P(_SimDesc), P(c_void_p))
_sim_run_to = _proto("swgl_sim_run_to", c_int, c_void_p, c_double)
_sim_step = _proto("swgl_sim_step", c_int, c_void_p)
_sim_time = _proto("swgl_sim_time", c_double, c_void_p)
_sim_steps = _proto("swgl_sim_steps", c_long, c_void_p)
_sim_t_end = _proto("swgl_sim_t_end", c_double, c_void_p)
_sim_size = _proto("swgl_sim_size", None, c_void_p, P(c_int), P(c_int), P(c_double), P(c_double))
_sim_origin = _proto("swgl_sim_origin", None, c_void_p, P(c_double), P(c_double))
_sim_field = _proto("swgl_sim_field", c_int, c_void_p, c_char_p, P(c_double))
_sim_set_field = _proto("swgl_sim_set_field", c_int, c_void_p, c_char_p, P(c_double))
_sim_volume = _proto("swgl_sim_volume", c_double, c_void_p)
_sim_observe = _proto("swgl_sim_observe", c_int, c_void_p, c_uint, _OBSERVER, c_void_p)
_sim_request_stop = _proto("swgl_sim_request_stop", None, c_void_p)
_sim_finish = _proto("swgl_sim_finish", c_int, c_void_p)
_sim_print_summary = _proto("swgl_sim_print_summary", None, c_void_p, c_void_p)
_sim_destroy = _proto("swgl_sim_destroy", None, c_void_p)
_sim_get_info = _proto("swgl_sim_get_info", c_int, c_void_p, P(_SimInfo))
_sim_stat = _proto("swgl_sim_stat", c_int, c_void_p, c_char_p, P(c_double))
_sim_profile = _proto("swgl_sim_profile", c_int, c_void_p, c_int, P(c_char_p), P(c_double), P(c_long))
_sim_device_field = _proto("swgl_sim_device_field", c_int, c_void_p, c_char_p, P(_DeviceField))
_sim_trace_step = _proto("swgl_sim_trace_step", c_int, c_void_p, c_char_p, P(c_int))
_version = _proto("swgl_version", c_char_p)
_has = _proto("swgl_has", c_int, c_char_p)
_case_names = _proto("swgl_case_names", P(c_char_p))
_case_text = _proto("swgl_case_text", c_char_p, c_char_p)
_case_summary = _proto("swgl_case_summary", c_char_p, c_char_p)
_data_dir = _proto("swgl_data_dir", c_char_p)
_print_devices = _proto("swgl_print_devices", c_int, c_void_p, c_int, c_int)
_copy_bandwidth = _proto("swgl_copy_bandwidth", c_int, c_int, c_int, c_int, P(c_double))
_raster_read = _proto("swgl_raster_read", c_int, c_char_p, P(_Raster))
_raster_free = _proto("swgl_raster_free", None, P(_Raster))
_strerror = _proto("swgl_strerror", c_char_p, c_int)
_last_error = _proto("swgl_last_error", c_char_p)

# What a FILE * argument is given: a memory stream (POSIX open_memstream), read back as text.
_libc = ctypes.CDLL(None)
_open_memstream = _libc.open_memstream
_open_memstream.restype = c_void_p
_open_memstream.argtypes = [P(c_void_p), P(ctypes.c_size_t)]
_fclose = _libc.fclose
_fclose.argtypes = [c_void_p]
_free = _libc.free
_free.argtypes = [c_void_p]


def _captured(write):
    """Calls write(FILE *) on a memory stream; returns (what write returned, the text)."""
    buf, size = c_void_p(), ctypes.c_size_t()
    f = _open_memstream(ctypes.byref(buf), ctypes.byref(size))
    if not f:
        raise MemoryError("swgl: open_memstream failed")
    try:
        r = write(f)
    finally:
        _fclose(f)
        text = ctypes.string_at(buf, size.value).decode("utf-8", "replace") if buf else ""
        _free(buf)
    return r, text


def _s(b):
    return None if b is None else b.decode("utf-8", "replace")


def _b(s):
    return None if s is None else os.fsencode(s)


# everything here is the package's (its underscore names included)
__all__ = [n for n in dir() if not n.startswith("__")]

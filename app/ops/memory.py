"""Garbage-collector and allocator settings for the long-running server process.

The read models kept per data version hold a few million small objects. With CPython's
default thresholds, a full collection scans all of them every few hundred requests and
stops every thread for up to 0.4 s at x10 data (measured with gc.callbacks over the bench's
distinct URLs): the slowest one percent of requests were mostly those pauses. Objects are
freed by reference counting as soon as they are unused; the cycle collector only finds
cycles, so running it less often costs little memory (peak RSS unchanged in the same
measurement) and removes the pauses.

glibc's malloc gives each thread that contends for it an arena of its own, up to eight per
core, and memory freed in one arena is kept there for that arena's next use. With sixteen
worker threads building pages, freed memory piled up in a dozen arenas: at ten times the
data, the bench's distinct URLs left the server at 495 MB; with two arenas, 405 MB for the
same requests and no slower (measured 2026-11-28). So the server asks for two, as
MALLOC_ARENA_MAX=2 would, before its threads start.
"""

import ctypes
import ctypes.util
import gc

THRESHOLDS = (20_000, 20, 1_000)
M_ARENA_MAX = -8  # glibc's mallopt parameter number
ARENAS = 2


def limit_malloc_arenas(arenas: int = ARENAS) -> bool:
    """Cap glibc's malloc arenas (a no-op elsewhere: musl, macOS). True when it took."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_ARENA_MAX, arenas))


def tune_for_serving() -> None:
    """Call once, after start-up: what exists by then (modules, templates, the app) lives as
    long as the process, so it is moved out of the collector's sight for good."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)

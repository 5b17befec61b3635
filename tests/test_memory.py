"""The server process runs the cycle collector rarely (app/ops/memory.py has the measurement)."""

import gc

from app.ops.memory import THRESHOLDS, tune_for_serving


def test_serving_raises_the_thresholds_and_freezes_start_up_objects() -> None:
    before = gc.get_threshold()
    try:
        tune_for_serving()
        assert gc.get_threshold() == THRESHOLDS
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)

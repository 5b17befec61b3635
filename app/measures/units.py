"""Unit normalisation: figures are compared only after converting to one unit per metric."""

# Factor to the dimension's base unit (seconds, megabytes); rates and ratios stand alone.
_TO_BASE: dict[str, tuple[str, float]] = {
    "ms": ("time", 0.001),
    "s": ("time", 1.0),
    "min": ("time", 60.0),
    "MB": ("memory", 1.0),
    "GB": ("memory", 1000.0),
}


def convert(value: float, unit: str, target: str) -> float:
    """`value` in `unit` expressed in `target`; raises ValueError across dimensions."""
    if unit == target:
        return value
    source_dim, source_factor = _TO_BASE.get(unit, (unit, 1.0))
    target_dim, target_factor = _TO_BASE.get(target, (target, 1.0))
    if source_dim != target_dim:
        raise ValueError(f"cannot convert {unit} to {target}")
    return value * source_factor / target_factor


def convertible(unit: str, target: str) -> bool:
    try:
        convert(1.0, unit, target)
    except ValueError:
        return False
    return True

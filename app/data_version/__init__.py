"""The data version, one concept in one place: read once per transaction, bumped by every
write, announced to other processes (NOTIFY) and watched by each; the per-version memo of
read models keys on it.
"""

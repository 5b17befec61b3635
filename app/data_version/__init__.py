"""The data version, one concept in one place: read once per transaction and bumped by every
write (version.py), read afresh for every cached answer (fresh.py), and the one cache of
things computed from the data, keyed by it (memo.py).
"""

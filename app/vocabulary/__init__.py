"""Fixed value lists (levels, kinds, statuses) and name resolution for the shared vocabulary
entries (hardware, models, workloads): what people type, matched to a slug.
"""

"""The fixed vocabularies, defined once: levels, kinds of system, statuses, licence families."""

LEVELS = ("yes", "partial", "experimental", "via", "no", "unknown")
SYSTEM_KINDS = ("engine", "wrapper", "desktop-app", "orchestration", "proxy", "library")
STATUSES = ("active", "maintenance", "archived", "unknown")
SOURCE_KINDS = ("article", "paper", "vendor-docs", "benchmark-report", "team-measurement")
# What a reader should bear in mind about a source (seed/README.md says when each applies).
CAVEAT_KINDS = ("machine-written", "vendor-interest", "estimates", "vague-date")
LICENCE_FAMILIES = ("permissive", "copyleft", "proprietary", "unknown")

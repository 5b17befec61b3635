"""The fixed vocabularies, defined once: levels, kinds of system, statuses, licence families."""

LEVELS = ("yes", "partial", "experimental", "via", "no", "unknown")
SYSTEM_KINDS = ("engine", "wrapper", "desktop-app", "orchestration", "proxy", "library")
STATUSES = ("active", "maintenance", "archived", "unknown")
# The project's own word about itself: its documentation, its release notes, its blog.
FIRST_PARTY_KINDS = ("project-docs", "release-notes", "official-blog")
SOURCE_KINDS = ("article", "paper", *FIRST_PARTY_KINDS, "benchmark-report", "team-measurement")
# Renamed kinds: older backups may still carry the old name.
OLD_SOURCE_KINDS = {"vendor-docs": "project-docs"}
# What a reader should bear in mind about a source (seed/README.md says when each applies).
CAVEAT_KINDS = ("machine-written", "vendor-interest", "estimates", "vague-date")
LICENCE_FAMILIES = ("permissive", "copyleft", "proprietary", "unknown")

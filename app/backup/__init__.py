"""Backups: `inference-atlas export DIR` writes team.json beside the seed files, and
`inference-atlas import DIR` restores both into an empty database (docs/database.md).

document.py is the file's format, read.py reads it; checks.py checks it against the seed
files it will be restored with; dump.py writes it; restore.py puts it back.
"""

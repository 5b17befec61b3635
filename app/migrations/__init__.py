"""Alembic's migration environment: env.py and the revisions in versions/ (see app/migrate.py)."""

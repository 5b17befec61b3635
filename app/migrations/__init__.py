"""Alembic's environment (env.py), the revisions (versions/) and migrate.py, which runs them."""

"""The team tests use the account fixtures: a private seeded database per module with an admin
(ada), an editor (eddie) and a viewer (vera), and clients signed in as each."""

from tests.accounts.conftest import (  # noqa: F401  (fixtures, registered by import)
    accounts_app,
    accounts_engine,
    accounts_url,
    clients,
    fresh_url,
)

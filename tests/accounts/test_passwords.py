"""Password hashing: Argon2 through pwdlib, rehash on new parameters, the dummy verify."""

import os

import pytest
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from app.accounts import passwords
from app.accounts.passwords import hash_password, password_problem, verify_password


def test_a_hash_verifies_its_password_only() -> None:
    stored = hash_password("correct horse battery staple")
    assert stored.startswith("$argon2id$")
    assert "correct horse" not in stored
    assert verify_password("correct horse battery staple", stored) == (True, None)
    assert verify_password("correct horse battery stapler", stored) == (False, None)


def test_two_hashes_of_one_password_differ() -> None:
    assert hash_password("correct horse battery staple") != hash_password(
        "correct horse battery staple"
    )


def test_a_hash_made_with_weaker_parameters_is_replaced_on_sign_in(production_cost) -> None:
    weak = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=8192, parallelism=1),))
    stored = weak.hash("correct horse battery staple")
    matches, new_hash = verify_password("correct horse battery staple", stored)
    assert matches
    assert new_hash is not None and "m=65536" in new_hash and "m=8192" in stored


def test_an_unknown_name_is_checked_against_the_dummy_hash(production_cost, monkeypatch) -> None:
    checked: list[str] = []
    real_verify = passwords._hasher().verify

    def spy(password: str, stored: str) -> bool:
        checked.append(stored)
        return real_verify(password, stored)

    monkeypatch.setattr(passwords._hasher(), "verify", spy)
    assert verify_password("whatever it is", None) == (False, None)
    # The same Argon2 work as a real account: one verification against a real hash.
    assert checked == [passwords._dummy_hash()]
    assert checked[0].startswith("$argon2id$v=19$m=65536")


def test_production_hashes_with_argon2id_at_64_mib_three_passes_four_lanes(
    production_cost,
) -> None:
    assert hash_password("correct horse battery staple").startswith(
        "$argon2id$v=19$m=65536,t=3,p=4$"
    )


def test_the_suite_hashes_at_the_minimum_cost_which_production_refuses(monkeypatch) -> None:
    assert os.environ["ATLAS_PASSWORD_HASH"] == passwords.TEST_COST
    assert hash_password("correct horse battery staple").startswith("$argon2id$v=19$m=8,t=1,p=1$")
    monkeypatch.setenv("ATLAS_ENV", "production")
    with pytest.raises(RuntimeError, match="refused in production"):
        passwords.hasher_from_environment()
    monkeypatch.setenv("ATLAS_PASSWORD_HASH", "fast")
    with pytest.raises(RuntimeError, match="unset it"):
        passwords.hasher_from_environment()


def test_a_stored_value_that_is_no_hash_matches_nothing() -> None:
    assert verify_password("plain text", "plain text") == (False, None)


@pytest.mark.parametrize(
    ("password", "problem"),
    [
        ("", "empty"),
        ("short", "5 characters long; use at least 12"),
        ("x" * 1025, "longer than 1024"),
        ("Ada.Lovelace", "the account's name"),
    ],
)
def test_weak_passwords_are_refused_with_the_reason(password: str, problem: str) -> None:
    assert problem in (password_problem(password, "ada.lovelace") or "")


def test_a_long_enough_password_passes() -> None:
    assert password_problem("twelve chars", "ada") is None

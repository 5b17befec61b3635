"""Password hashing (Argon2 through pwdlib) and the rules a new password must meet."""

import os
import re
import secrets
import threading
from functools import cache
from pathlib import Path

from pwdlib import PasswordHash
from pwdlib.exceptions import UnknownHashError
from pwdlib.hashers.argon2 import Argon2Hasher

MIN_LENGTH = 12
# Argon2 takes any length, but hashing megabytes on request is a cheap way to load a server.
MAX_LENGTH = 1024

# ATLAS_PASSWORD_HASH=insecure-fast-for-tests: Argon2id at its minimum cost (8 KiB, one pass),
# for the test suite only (tests/conftest.py sets it), whose sign-ins would otherwise take
# minutes. Refused when ATLAS_ENV=production; unset, the production cost applies.
TEST_COST = "insecure-fast-for-tests"


def hasher_from_environment() -> PasswordHash:
    """Argon2id at pwdlib's recommended cost (m=64 MiB, t=3, p=4), unless ATLAS_PASSWORD_HASH
    names the test cost."""
    cost = os.environ.get("ATLAS_PASSWORD_HASH", "")
    if not cost:
        return PasswordHash.recommended()
    if cost != TEST_COST:
        raise RuntimeError(f"ATLAS_PASSWORD_HASH={cost!r}: unset it (or {TEST_COST!r} in tests)")
    if os.environ.get("ATLAS_ENV", "").lower() == "production":
        raise RuntimeError(f"ATLAS_PASSWORD_HASH={TEST_COST!r} is refused in production")
    return PasswordHash((Argon2Hasher(time_cost=1, memory_cost=8, parallelism=1),))


@cache
def _hasher() -> PasswordHash:
    return hasher_from_environment()


# Each Argon2 computation takes 64 MiB for ~0.15 s: sixteen worker threads signing in at
# once would take a GiB. Two at a time keeps memory flat; the rest wait their turn.
_slots = threading.BoundedSemaphore(2)


def hash_password(password: str) -> str:
    with _slots:
        return _hasher().hash(password)


@cache
def _dummy_hash() -> str:
    # A hash of nothing anyone knows, made once per process with the current parameters.
    return _hasher().hash(secrets.token_urlsafe(24))


def warm_up() -> None:
    """Make the dummy hash now (at start-up): made on the first unknown name instead, that
    one answer would take twice as long as the others."""
    _dummy_hash()


def verify_password(password: str, password_hash: str | None) -> tuple[bool, str | None]:
    """Whether `password` matches, and a new hash when the stored one uses old parameters.

    With no hash (no such account, or a disabled one) a dummy hash is verified instead, so
    the answer takes as long as for a real account and timing does not tell names apart.
    """
    with _slots:
        if password_hash is None:
            _hasher().verify(password, _dummy_hash())
            return False, None
        try:
            return _hasher().verify_and_update(password, password_hash)
        except UnknownHashError:
            # Not a hash we know (edited by hand?): no password can match it.
            _hasher().verify(password, _dummy_hash())
            return False, None


def password_problem(password: str, name: str = "") -> str | None:
    """What is wrong with a new password, or None."""
    if not password:
        return "The password is empty."
    if len(password) < MIN_LENGTH:
        return f"The password is {len(password)} characters long; use at least {MIN_LENGTH}."
    if len(password) > MAX_LENGTH:
        return f"The password is longer than {MAX_LENGTH} characters."
    if name and password.lower() == name.lower():
        return "The password is the account's name."
    if is_sequence(password):
        return (
            "The password is a run of keys in order (like 123456789012 or qwertyuiop), which "
            "anyone guessing tries among the first. Use a few unrelated words, or a password "
            "manager's."
        )
    if is_common(password):
        return (
            "The password is one of the most common ones (or one of them with digits or "
            "symbols around it, or a short pattern repeated), which are tried first by anyone "
            "guessing. Use a few unrelated words, or a password manager's."
        )
    return None


# Digits and punctuation people add around a common word ("Password2024!").
_AROUND = re.compile(r"^[\W\d_]+|[\W\d_]+$")
_AROUND_SYMBOLS = re.compile(r"^[\W_]+|[\W_]+$")
# Runs that are absent from the frequency list once longer than its entries ("123456789012"
# is not in it, though every shorter run of digits is): digits wrap round, alphabet, the
# keyboard's rows. zxcvbn finds these with its sequence and spatial matchers.
_RUNS = ("0123456789" * 4, "abcdefghijklmnopqrstuvwxyz", "qwertyuiopasdfghjklzxcvbnm")


def is_sequence(password: str) -> bool:
    """Whether `password` is, apart from symbols around it, one run of keys in order, forwards
    or backwards: digits (wrapping past 9), letters, or the keyboard's letter rows."""
    core = _AROUND_SYMBOLS.sub("", password.lower())
    return len(core) >= MIN_LENGTH // 2 and any(core in run or core in run[::-1] for run in _RUNS)


COMMON_PASSWORDS = Path(__file__).parent / "data" / "common-passwords.txt"


@cache
def _common() -> frozenset[str]:
    lines = COMMON_PASSWORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


def is_common(password: str) -> bool:
    """Whether `password` is in the bundled list of the 30,000 most common passwords, as it is
    or once digits and symbols around it are taken off (a core of 4 characters or more), or
    is one short unit repeated ("abcabcabcabc")."""
    lowered = password.lower()
    common = _common()
    if lowered in common:
        return True
    core = _AROUND.sub("", lowered)
    if len(core) >= 4 and core in common:
        return True
    return any(
        len(lowered) % size == 0 and lowered == lowered[:size] * (len(lowered) // size)
        for size in range(1, min(len(lowered) // 2, 6) + 1)
    )

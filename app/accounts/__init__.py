"""Accounts: users and roles, browser sessions, API tokens, sign-in limiting."""

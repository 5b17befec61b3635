"""The read side, shared by HTML views and the JSON API: SQL in, read models out; no HTTP."""

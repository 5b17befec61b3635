"""Every change to the data: check, apply, record a revision and bump the data version, in
the caller's one write transaction. The seed loader, the forms, the API, result-file imports
and backup restores all go through here.
"""

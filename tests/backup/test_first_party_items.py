"""team.json and first-party sources (migration 0008): a backup made before it still reads,
its vendor-docs sources as project-docs, and the new fields come back as they went in."""

from app.backup.document import ClaimItem, SourceItem

OLD_SOURCE = {
    "slug": "our-docs-notes",
    "short": "Our notes on the docs",
    "title": "Docs notes",
    "date": "2026-10-01",
    "kind": "vendor-docs",
    "url": "https://example.org/docs",
    "note": None,
    "position": 0,
    "published": False,
    "withdrawn": False,
    "caveats": [],
}
OLD_CLAIM = {
    "system": "vllm",
    "capability": "prefix-caching",
    "source": "team",
    "level": "yes",
    "strength": None,
    "note": None,
    "position": 0,
    "withdrawn": False,
    "user": None,
    "version": 1,
    "updated_at": None,
}


def test_a_backup_from_before_0008_reads_with_the_new_kind_and_empty_fields() -> None:
    source = SourceItem.model_validate(OLD_SOURCE)
    assert source.kind == "project-docs"
    assert (source.version, source.commit, source.read) == (None, None, None)
    claim = ClaimItem.model_validate(OLD_CLAIM)
    assert (claim.since, claim.how, claim.page) == (None, None, None)


def test_the_new_fields_round_trip_through_the_document() -> None:
    source = SourceItem.model_validate(
        OLD_SOURCE | {"kind": "release-notes", "version": "v1.2.0", "read": "2026-11-25"}
    )
    assert SourceItem.model_validate(source.model_dump()) == source
    assert source.kind == "release-notes"
    claim = ClaimItem.model_validate(
        OLD_CLAIM
        | {
            "since": "v0.4.0",
            "how": "--enable-prefix-caching",
            "page": "https://example.org/docs/apc.md",
        }
    )
    assert ClaimItem.model_validate(claim.model_dump()).how == "--enable-prefix-caching"

"""The history of changes as an Atom 1.0 feed (RFC 4287). Pure: revisions in, bytes out.

The XML is built as an element tree, so text from users (keys, messages, values) is always
escaped by the serialiser, never pasted into markup. Links are relative: the render cache
does not key on the Host header, so an absolute link built for one host name would be handed
to readers who came by another. `with_base` adds an `xml:base` (RFC 4287 section 2) for the
host of each request after the cache, so every reader resolves them the same way.
"""

import datetime as dt
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote, urlencode
from xml.sax.saxutils import quoteattr

from app.present.change_words import ChangeWords, field_changes
from app.queries.import_groups import ImportChange
from app.schemas import RevisionView
from app.text import entity_label

ATOM = "http://www.w3.org/2005/Atom"
MEDIA_TYPE = "application/atom+xml"
# Tag URIs (RFC 4151) name what they identify forever, whatever host the feed is read from.
TAG = "tag:inference-atlas,2026"
# Characters XML 1.0 cannot carry at all, even escaped (most C0 controls, lone surrogates).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
PAST_TENSE = {"create": "Created", "update": "Updated", "delete": "Deleted", "withdraw": "Withdrew"}


@dataclass(frozen=True)
class FeedLinks:
    """Where the feed is (`self`), its page (`alternate`) and its next, older page if any."""

    self: str
    alternate: str
    next: str | None = None


def feed_title(kind: str, system: str, user: str) -> str:
    """ "Inference Atlas: claim changes on vLLM by ann" (each part only when filtered on)."""
    what = f"{entity_label(kind).lower()} changes" if kind else "changes"
    if system:
        what += f" on {system}"
    if user:
        what += f" by {user}"
    return f"Inference Atlas: {what}"


def change_feed(
    revisions: Sequence[RevisionView | ImportChange],
    *,
    title: str,
    feed_id: str,
    links: FeedLinks,
    updated: dt.datetime,
    describe: Callable[[RevisionView], ChangeWords] | None = None,
    files: Mapping[str, str] | None = None,
) -> bytes:
    """The feed document for one page of revisions, newest first; an import's figures are
    one entry (`files`: import source -> the file's name)."""
    feed = ET.Element("feed", xmlns=ATOM)
    _text(feed, "id", feed_id)
    _text(feed, "title", title)
    _text(feed, "updated", _stamp(_at(revisions[0]) if revisions else updated))
    _link(feed, "self", links.self, MEDIA_TYPE)
    _link(feed, "alternate", links.alternate, "text/html")
    if links.next:
        _link(feed, "next", links.next, MEDIA_TYPE)
    _text(feed, "generator", "Inference Atlas")
    for revision in revisions:
        if isinstance(revision, ImportChange):
            name = (files or {}).get(revision.source, revision.source)
            feed.append(_import_entry(revision, name))
        else:
            feed.append(_entry(revision, describe(revision) if describe else None))
    ET.indent(feed)
    # typeshed types only encoding=None (bytes) and "unicode" (str); "utf-8" gives bytes too.
    document: bytes = ET.tostring(feed, encoding="utf-8", xml_declaration=True)
    return document


def entry_id(revision: RevisionView) -> str:
    """A revision's id in feeds: its number and its time, so two instances never share one."""
    at = revision.at.astimezone(dt.UTC)
    return f"{TAG}:revision/{revision.id}/{at:%Y%m%dT%H%M%S.%fZ}"


def change_title(revision: RevisionView) -> str:
    """ "Updated claim vllm/prefix-caching/source" (the verb, the kind of item, its key)."""
    verb = PAST_TENSE.get(revision.action, revision.action.capitalize())
    return f"{verb} {entity_label(revision.entity).lower()} {revision.key}"


def change_summary(revision: RevisionView) -> str:
    """The revision as plain text: its message, then one line per changed field."""
    lines = [revision.message] if revision.message else []
    if revision.system:
        lines.append(f"System: {revision.system}")
    for change in field_changes(revision):
        lines.append(f"{change.field}: {change.before or '—'} → {change.after or '—'}")
    return "\n".join(lines)


def with_base(document: bytes, base: str) -> bytes:
    """The feed with `xml:base` set to the site's address, so its relative links resolve."""
    attribute = f" xml:base={quoteattr(_NOT_XML.sub('', base))}".encode()
    return document.replace(b"<feed ", b"<feed" + attribute + b" ", 1)


def _entry(revision: RevisionView, words: ChangeWords | None) -> ET.Element:
    entry = ET.Element("entry")
    _text(entry, "id", entry_id(revision))
    _text(entry, "title", words.text if words else change_title(revision))
    _text(entry, "updated", _stamp(revision.at))
    author = ET.SubElement(entry, "author")
    _text(author, "name", revision.actor)
    # The page of the history that starts with this change.
    page = f"/changes?before={revision.id + 1}#change-{revision.id}"
    if words and words.link:  # the changed cell, figure or page; the history entry beside it
        _link(entry, "alternate", words.link, "text/html")
        _link(entry, "related", page, "text/html")
    else:
        _link(entry, "alternate", page, "text/html")
    content = _text(entry, "content", change_summary(revision) or change_title(revision))
    content.set("type", "text")
    return entry


def _import_entry(change: ImportChange, file_name: str) -> ET.Element:
    """One entry for an import's saved figures: the file, how many, the import's page."""
    first, key = change.first, change.source.removeprefix("import-")
    plural = "s" if change.figures != 1 else ""
    entry = ET.Element("entry")
    _text(entry, "id", entry_id(first))
    _text(entry, "title", f"Imported {file_name}: {change.figures} figure{plural} saved")
    _text(entry, "updated", _stamp(first.at))
    author = ET.SubElement(entry, "author")
    _text(author, "name", first.actor)
    _link(entry, "alternate", f"/imports/{quote(key, safe='')}", "text/html")
    figures = "/benchmarks?" + urlencode({"source": change.source}) + "#team_sweeps"
    _link(entry, "related", figures, "text/html")
    lines = [f"{change.figures} team figure{plural} saved from the result file {file_name}"]
    if first.system:
        lines.append(f"System: {first.system}")
    content = _text(entry, "content", "\n".join(lines))
    content.set("type", "text")
    return entry


def _at(item: RevisionView | ImportChange) -> dt.datetime:
    return item.first.at if isinstance(item, ImportChange) else item.at


def _text(parent: ET.Element, tag: str, text: str) -> ET.Element:
    element = ET.SubElement(parent, tag)
    element.text = _NOT_XML.sub("\ufffd", text)
    return element


def _link(parent: ET.Element, rel: str, href: str, media_type: str) -> None:
    ET.SubElement(parent, "link", rel=rel, href=_NOT_XML.sub("", href), type=media_type)


def _stamp(at: dt.datetime) -> str:
    """An RFC 3339 time in UTC, to the second."""
    return at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

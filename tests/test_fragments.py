"""The fragment cache renders each key once and stays within its byte bound."""

from app.web.fragment_cache import FragmentCache


def test_a_fragment_is_rendered_once_per_key() -> None:
    cache = FragmentCache(max_bytes=1000)
    calls: list[str] = []

    def render(text: str) -> str:
        calls.append(text)
        return text

    assert cache.get("a", lambda: render("<p>a</p>")) == "<p>a</p>"
    assert cache.get("a", lambda: render("<p>changed</p>")) == "<p>a</p>"
    assert calls == ["<p>a</p>"]


def test_the_oldest_fragments_go_when_the_bound_is_passed() -> None:
    cache = FragmentCache(max_bytes=250)
    for key in "abc":
        cache.get(key, lambda key=key: key * 100)
    rendered: list[str] = []
    cache.get("a", lambda: rendered.append("a") or "a" * 100)
    cache.get("c", lambda: rendered.append("c") or "c" * 100)
    assert rendered == ["a"], "a was dropped to make room; c, the newest, was kept"


def test_cached_fragments_are_markup_not_escaped_again() -> None:
    cache = FragmentCache(max_bytes=1000)
    assert str(cache.get("k", lambda: "<b>x</b>")) == "<b>x</b>"
    assert hasattr(cache.get("k", lambda: ""), "__html__")

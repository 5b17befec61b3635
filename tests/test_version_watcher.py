"""The version watcher never puts back a version older than one a request has just seen."""

from app.data_version.watcher import VersionWatcher


def test_a_version_observed_during_a_background_read_is_kept() -> None:
    watcher: VersionWatcher

    def slow_read() -> str:
        # While the background read is under way, a request's own transaction sees a write.
        watcher.observe("8.bbbb")
        return "7.aaaa"

    watcher = VersionWatcher(slow_read)
    watcher.observe("7.aaaa")
    assert watcher.refresh() == "8.bbbb"
    assert watcher.value == "8.bbbb"


def test_a_read_with_nothing_observed_meanwhile_is_taken() -> None:
    versions = iter(["7.aaaa", "9.cccc"])
    watcher = VersionWatcher(lambda: next(versions))
    assert watcher.refresh() == "7.aaaa"
    assert watcher.refresh() == "9.cccc"

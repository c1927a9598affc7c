"""The state directory and the one reader of store URLs (``ruleweave._kernel.state``)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ruleweave._kernel import state
from ruleweave._kernel.state import StoreUrl, parse_store_url, state_directory


@pytest.mark.parametrize(
    ("env", "platform", "expected"),
    [
        ({}, "linux", "/home/u/.local/state/ruleweave"),
        ({"RULEWEAVE_STATE_DIR": "/srv/state"}, "linux", "/srv/state"),
        ({"RULEWEAVE_STATE_DIR": "~/st"}, "darwin", "/home/u/st"),
        ({"RULEWEAVE_STATE_DIR": "~"}, "linux", "/home/u"),
        ({"RULEWEAVE_STATE_DIR": "~other/st"}, "linux", "~other/st"),
        ({"XDG_STATE_HOME": "/xdg"}, "darwin", "/xdg/ruleweave"),
        ({"XDG_STATE_HOME": "relative/ignored"}, "linux", "/home/u/.local/state/ruleweave"),
        ({}, "darwin", "/home/u/Library/Application Support/ruleweave"),
        ({"LOCALAPPDATA": "C:/Users/u/AppData/Local"}, "win32", "C:/Users/u/AppData/Local/ruleweave"),
        ({}, "win32", "/home/u/AppData/Local/ruleweave"),
    ],
)
def test_state_directory(env: dict[str, str], platform: str, expected: str) -> None:
    """The override, then an absolute XDG_STATE_HOME, then the platform's user state directory."""
    assert state_directory(env, "/home/u", platform) == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite://", StoreUrl("sqlite", "")),
        ("sqlite:///srv/rw/state.db", StoreUrl("sqlite", "/srv/rw/state.db")),
        ("sqlite:///srv/my%20dir/s.db?ttl=60", StoreUrl("sqlite", "/srv/my dir/s.db", 60.0)),
        ("SQLite:///a.db", StoreUrl("sqlite", "/a.db")),
        ("sqlite:///tmp/a\tb.db", StoreUrl("sqlite", "/tmp/ab.db")),  # urllib drops tabs and newlines
        ("sqlite:////double.db", StoreUrl("sqlite", "//double.db")),
        ("memory://?ttl=30", StoreUrl("memory", "", 30.0)),
        (
            "redis://u:pw@h:6379/0?prefix=a:&ttl=5&socket_timeout=2&prefix=b:",
            StoreUrl("redis", "redis://u:pw@h:6379/0", 5.0,
                     (("prefix", "a:"), ("socket_timeout", "2"), ("prefix", "b:"))),
        ),
        ("unix:///run/redis.sock?db=1", StoreUrl("unix", "unix:///run/redis.sock", None, (("db", "1"),))),
    ],
)
def test_parse_store_url(url: str, expected: StoreUrl) -> None:
    """Each scheme's location, ttl and remaining parameters, as urllib splits the URL."""
    assert parse_store_url(url) == expected


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("sqlite://host/abs.db", "has no absolute path"),
        ("sqlite:///a.db?prefix=x", "unknown parameters ['prefix']"),
        ("sqlite:///a.db?ttl=0", "ttl='0'; use a positive number of seconds"),
        ("memory://here", "should be just memory://"),
        ("postgres://me:hunter2@db/state", "Unknown store URL scheme 'postgres' in postgres://me:***@db/state"),
        ("redis://[::1/0", "cannot be parsed"),
        ("sqlite:///a.db?ttl", "cannot be parsed"),
    ],
)
def test_parse_store_url_refuses(url: str, message: str) -> None:
    """A URL that names no store is refused in one sentence, its password masked."""
    with pytest.raises(ValueError, match=r"^(The store URL|Unknown store URL) ") as info:
        parse_store_url(url)
    assert message in str(info.value)
    assert "hunter2" not in str(info.value)


_PIECES = st.sampled_from(
    ["/", "a", "Z", "9", ".", "-", "_", "~", ":", "@", "+", ",", "=", "%20", "%", "?", "?ttl=5", "#", "#x",
     "\t", "\n", " ", "[", "]", "é", "//", "&", ";", "\x00"]
)


@given(st.lists(_PIECES, max_size=12).map("".join))
def test_plain_sqlite_urls_read_as_the_general_reader_reads_them(rest: str) -> None:
    """The reading that spares the hook urllib gives what urllib's reading gives, for any sqlite:// URL."""
    url = "sqlite://" + rest
    try:
        general: StoreUrl | str = state._parse(url)
    except ValueError as exc:
        general = str(exc)
    try:
        read: StoreUrl | str = parse_store_url(url)
    except ValueError as exc:
        read = str(exc)
    assert read == general


def test_the_hooks_reading_imports_no_urllib() -> None:
    """``sqlite://`` and a plain absolute path are read without importing urllib.parse (the warm path)."""
    code = (
        "import sys\n"
        "from ruleweave._kernel.state import parse_store_url\n"
        "assert parse_store_url('sqlite://').location == ''\n"
        "assert parse_store_url('sqlite:///srv/rw/state.db').location == '/srv/rw/state.db'\n"
        "assert 'urllib.parse' not in sys.modules, 'urllib.parse imported'\n"
        "assert parse_store_url('sqlite:///srv/rw/state.db?ttl=9').ttl == 9.0\n"
        "assert 'urllib.parse' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)

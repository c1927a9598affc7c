"""Where ruleweave keeps its state, and the one reader of store URLs.

``state_directory`` is where ``SQLiteStore()`` keeps ``state.db`` and where the
Claude Code hook keeps its snapshots and log; ``parse_store_url`` reads a store
URL (``memory://``, ``sqlite://``, ``sqlite:///abs/path/state.db``,
``redis://…``, ``rediss://…``, ``unix://…``) for ``open_store`` and for the
hook's warm path, which claims notices itself only in an SQLite file.

Standard library only, and no ``typing``: the hook's warm path imports this
module, so ``urllib.parse`` (a tenth of that path's start-up) is imported only
for a URL that is more than ``sqlite://`` and a plain absolute path.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: the hook's warm path imports this module
if TYPE_CHECKING:
    from collections.abc import Mapping

STATE_DIR_VAR = "RULEWEAVE_STATE_DIR"
"""The variable that moves the state directory."""

STATE_FILE = "state.db"
"""The SQLite store's file name in the state directory (``sqlite://``)."""

SCHEMES = ("memory", "sqlite", "redis", "rediss", "unix")
"""The store URL schemes ruleweave understands."""

REDIS_SCHEMES = ("redis", "rediss", "unix")
"""The schemes of a Redis server's URL (their other query parameters go to redis-py)."""

# A sqlite:// URL made of these characters only reads the same with urlsplit and unquote:
# no query, fragment, escape, bracket, white space or control character to interpret.
_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-~+,=@:"


def state_directory(env: Mapping[str, str], home: str, platform: str = sys.platform) -> str:
    """The directory ruleweave keeps its state in.

    ``$RULEWEAVE_STATE_DIR`` when that is set (a leading ``~`` is the home
    directory); otherwise ``<user state dir>/ruleweave``, the user state dir
    being ``$XDG_STATE_HOME`` when set to an absolute path, else
    ``~/.local/state`` (``~/Library/Application Support`` on macOS,
    ``%LOCALAPPDATA%`` on Windows).

    Args:
        env: The environment to read (``os.environ`` where a process builds its defaults).
        home: The user's home directory.
        platform: ``sys.platform`` (tests pass another).

    Returns:
        The directory (it may not exist yet).
    """
    override = env.get(STATE_DIR_VAR)
    if override:
        # Expanded by hand: os.path.expanduser would read HOME from os.environ again.
        if override == "~" or override.startswith("~/"):
            override = home + override[1:]
        return override
    xdg = env.get("XDG_STATE_HOME")
    if xdg and os.path.isabs(xdg):  # the XDG spec says to ignore relative values
        base = xdg
    elif platform == "darwin":
        base = os.path.join(home, "Library", "Application Support")
    elif platform == "win32":
        base = env.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
    else:
        base = os.path.join(home, ".local", "state")
    return os.path.join(base, "ruleweave")


class StoreUrl:
    """A store URL, read and checked.

    Attributes:
        scheme: One of ``SCHEMES``, lower case.
        location: For ``sqlite``, the file's path, percent-escapes decoded (``''``:
            the default file, ``STATE_FILE`` in the state directory); for the Redis
            schemes, the URL without its query; for ``memory``, ``''``.
        ttl: The ``ttl`` parameter in seconds (a positive number), or ``None``.
        params: The other query parameters in order, repeats kept (only the Redis
            schemes have any: ``prefix`` and redis-py's).
    """

    __slots__ = ("location", "params", "scheme", "ttl")

    def __init__(
        self, scheme: str, location: str, ttl: float | None = None, params: tuple[tuple[str, str], ...] = ()
    ) -> None:
        self.scheme = scheme
        self.location = location
        self.ttl = ttl
        self.params = params

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StoreUrl):
            return NotImplemented
        return (self.scheme, self.location, self.ttl, self.params) == (
            other.scheme, other.location, other.ttl, other.params
        )

    def __repr__(self) -> str:
        return f"StoreUrl({self.scheme!r}, {self.location!r}, {self.ttl!r}, {self.params!r})"


def parse_store_url(url: str) -> StoreUrl:
    """Read a store URL exactly as ``urllib.parse`` splits it, and check it names a store.

    Args:
        url: ``memory://``, ``sqlite://`` (the default file), ``sqlite:///abs/path/state.db``,
            ``redis://[user:password@]host:port/db``, ``rediss://…`` or
            ``unix:///path/redis.sock``; the query may set ``ttl`` and, for Redis,
            ``prefix`` and redis-py's parameters.

    Returns:
        The URL's parts.

    Raises:
        ValueError: The URL is malformed, names an unknown scheme, has a ``ttl``
            that is not a positive number of seconds, parameters its scheme does
            not take, or (memory, sqlite) a host or path it should not have. The
            message is one sentence that shows the URL without its password.
    """
    rest = url[len("sqlite://") :]
    if url.startswith("sqlite://") and (not rest or (rest[0] == "/" and not rest.strip(_PLAIN))):
        return StoreUrl("sqlite", rest)  # what the general reading below gives, without importing urllib
    return _parse(url)


def _parse(url: str) -> StoreUrl:
    from urllib.parse import parse_qsl, unquote, urlsplit

    shown = redact_url(url)
    try:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError as exc:
        raise ValueError(f"The store URL {shown} cannot be parsed: {exc}.") from exc
    scheme = parts.scheme.lower()
    params = dict(query)  # a repeated parameter: its last value counts
    ttl = _ttl(params.pop("ttl"), shown) if "ttl" in params else None
    if scheme in REDIS_SCHEMES:
        # Cut the query off by hand: urlunsplit would turn unix:///path into unix:/path.
        return StoreUrl(scheme, url.partition("?")[0], ttl, tuple((k, v) for k, v in query if k != "ttl"))
    if scheme not in SCHEMES:
        raise ValueError(
            f"Unknown store URL scheme {parts.scheme!r} in {shown}; "
            "use memory://, sqlite:///path or redis://host:port/0."
        )
    if params:
        raise ValueError(f"The store URL {shown} has unknown parameters {sorted(params)}; only ttl is known.")
    if scheme == "memory":
        if parts.netloc or parts.path:
            raise ValueError(f"The store URL {shown} should be just memory:// (with an optional ?ttl=).")
        return StoreUrl(scheme, "", ttl)
    if parts.netloc or (parts.path and not parts.path.startswith("/")):
        raise ValueError(
            f"The store URL {shown} has no absolute path; write sqlite:///abs/path/state.db "
            "(three slashes) or sqlite:// for the default file."
        )
    return StoreUrl(scheme, unquote(parts.path), ttl)


def _ttl(raw: str, shown: str) -> float:
    try:
        ttl = float(raw)
    except ValueError:
        ttl = float("nan")
    if not (0 < ttl < float("inf")):  # also refuses nan
        raise ValueError(f"The store URL {shown} has ttl={raw!r}; use a positive number of seconds.")
    return ttl


def redact_url(url: str) -> str:
    """``url`` with any password replaced by ``***``, for messages and logs.

    Args:
        url: A store URL (or anything else).

    Returns:
        The URL, safe to show.
    """
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rpartition("@")[2]
        return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))
    except ValueError:
        return "<unparsable URL>"

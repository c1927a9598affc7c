"""Which notices a session has claimed, known without opening the state file.

Most tool calls of a CLI agent touch files whose notices went out earlier in
the session: claiming them again in the SQLite state file wins nothing, yet
costs a hook process about a quarter of its warm start (importing
``_sqlite3``, opening the file, a write transaction). Beside the state file
``<db>-claimed/`` keeps a memo per session of keys known claimed, which the
hook's warm path reads first (``known``): when every key of a call is in it,
the answer is nothing, and the state file is not opened.

A claim is never undone by another claim, so a memo can only go stale when
keys are released (compaction, ``forget_calls``, ``forget``) or the file is
replaced. Those writers (``SQLiteStore``) run under ``unclaiming``: an
exclusive ``flock`` on ``<db>-claimed/epoch`` and a new random token written
there before their transaction. A memo carries the token read, under a shared
lock held from before its claim transaction until the memo is written
(``holding``), so it is trusted only while no release can have happened since
its keys were seen claimed. A memo also names the state file's device and
inode, and is trusted for ``MAX_AGE`` (at most half the store's ``ttl``): a
session answered from its memo does not refresh ``last_used``, and must not
look unused to the store's sweep.

Standard library only: the hook's warm path imports this module (``fcntl``
only to write a memo). Without ``fcntl`` (Windows) no memo is written, and
every call opens the state file as before.
"""

from __future__ import annotations

import os
import zlib

from ruleweave._kernel import jsontext

TYPE_CHECKING = False  # not typing's: the hook's warm path imports this module
if TYPE_CHECKING:
    from collections.abc import Sequence

FORMAT = 1
"""The memo layout: ``[FORMAT, session, token, device, inode, written_at, keys]``."""

MAX_AGE = 3600.0
"""Seconds a memo is trusted (and at most half the store's ``ttl``)."""

EPOCH = "epoch"
"""The lock file holding the current token, in ``directory(db)``."""

TOKEN_BYTES = 16
"""Random bytes per token (written as hex): a token is never seen twice."""


def directory(db: str) -> str:
    """Where the memos of the state file ``db`` live."""
    return db + "-claimed"


def memo_path(db: str, session_id: str) -> str:
    """The memo of ``session_id`` (the session is checked inside: a hash clash is only a miss)."""
    name = f"{zlib.crc32(session_id.encode('utf-8', 'surrogatepass')):08x}.json"
    return os.path.join(directory(db), name)


def _token(fd: int) -> str:
    """The token the epoch file holds (``''`` when none or unreadable)."""
    try:
        raw = os.pread(fd, 2 * TOKEN_BYTES + 1, 0)
    except OSError:
        return ""
    return raw.decode("ascii", "replace") if len(raw) == 2 * TOKEN_BYTES else ""


def _identity(db: str) -> list[int] | None:
    try:
        st = os.stat(db)
    except (OSError, ValueError):
        return None
    return [st.st_dev, st.st_ino]


def _read_memo(db: str, session_id: str) -> list[object] | None:
    """The session's memo as stored, or ``None`` (missing, damaged or another session's)."""
    try:
        with open(memo_path(db, session_id), "rb") as handle:
            memo = jsontext.loads(handle.read(1 << 20))
    except (OSError, ValueError, UnicodeError, RecursionError):
        return None
    if type(memo) is not list or len(memo) != 7 or memo[0] != FORMAT or memo[1] != session_id:
        return None
    return memo


def _trusted(
    memo: list[object] | None, token: str, db: str, ttl: float | None, now: float
) -> set[str] | None:
    """The memo's keys when it still holds: same token, same state file, young enough."""
    if memo is None or not token or memo[2] != token or memo[3:5] != _identity(db):
        return None
    written, keys = memo[5], memo[6]
    if type(written) not in (int, float) or type(keys) is not list:
        return None
    age = now - written  # type: ignore[operator]
    if not -1.0 <= age < (MAX_AGE if ttl is None else min(MAX_AGE, ttl / 2)):
        return None
    return {key for key in keys if type(key) is str}


def known(db: str, session_id: str, keys: Sequence[str], ttl: float | None, now: float) -> bool:
    """Whether every key in ``keys`` is claimed for the session, as a memo still trusted says.

    No lock: a release changes the token before its transaction, so a token read
    here that a memo carries means no release had begun when this was decided.

    Args:
        db: The state file.
        session_id: The session.
        keys: The store keys a call would claim.
        ttl: The store's ``ttl`` (``None``: the default, longer than ``MAX_AGE``).
        now: Wall-clock seconds.

    Returns:
        True only when the memo holds every key; never raises.
    """
    if not keys:
        return False
    try:
        fd = os.open(os.path.join(directory(db), EPOCH), os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except (OSError, ValueError):
        return False
    try:
        token = _token(fd)
    finally:
        os.close(fd)
    found = _trusted(_read_memo(db, session_id), token, db, ttl, now)
    return found is not None and all(key in found for key in keys)


class Holding:
    """A shared lock on the epoch file and the token it held, from before a claim transaction until
    its memo is written (``holding``); ``release`` it in every case."""

    __slots__ = ("db", "fd", "token")

    def __init__(self, db: str, fd: int, token: str) -> None:
        self.db, self.fd, self.token = db, fd, token

    def remember(self, session_id: str, keys: Sequence[str], at: float, ttl: float | None) -> None:
        """Record ``keys`` as claimed for the session (with the memo's keys, while it holds).

        Args:
            session_id: The session.
            keys: Keys the transaction claimed or found claimed.
            at: Wall-clock seconds read before the transaction (no later than its ``last_used``).
            ttl: The store's ``ttl`` (as ``known``).
        """
        identity = _identity(self.db)
        if identity is None:
            return
        kept = _trusted(_read_memo(self.db, session_id), self.token, self.db, ttl, at) or set()
        kept.update(keys)
        memo = [FORMAT, session_id, self.token, *identity, at, sorted(kept)]
        path = memo_path(self.db, session_id)
        temporary = f"{path}.{os.getpid()}.tmp"
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            try:
                os.write(fd, jsontext.dumps(memo).encode("utf-8", "surrogatepass"))
            finally:
                os.close(fd)
            os.replace(temporary, path)
        except (OSError, ValueError):
            try:  # noqa: SIM105 - contextlib is not on the hook's warm path
                os.unlink(temporary)
            except OSError:
                pass

    def release(self) -> None:
        """Drop the lock."""
        done(self.fd)


def holding(db: str) -> Holding | None:
    """A shared lock on the epoch file of ``db`` and its token, or ``None`` (no ``fcntl``, a release
    under way, no directory that can be made): then no memo is written. An epoch file without a
    token gets one first (a new token only ever makes memos untrusted).

    Never blocks and never raises.
    """
    try:
        import fcntl
    except ImportError:
        return None
    try:
        fd = _open_epoch(db)
    except (OSError, ValueError):
        return None
    try:
        if not _token(fd):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if not _token(fd):
                _write_token(fd)
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # converts an exclusive lock held above
        token = _token(fd)  # read under the lock: no release can begin until it is dropped
    except OSError:
        os.close(fd)
        return None
    if not token:
        os.close(fd)
        return None
    return Holding(db, fd, token)


def _open_epoch(db: str) -> int:
    """The epoch file of ``db``, opened for reading and writing, made (with the memo directory,
    private to the user, beside the state file) when missing.

    Raises:
        OSError: Either cannot be made or opened.
    """
    where = directory(db)
    try:  # noqa: SIM105 - contextlib is not on the hook's warm path
        os.mkdir(where, 0o700)
    except FileExistsError:
        pass
    return os.open(os.path.join(where, EPOCH), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK, 0o600)


def _write_token(fd: int) -> None:
    """A fresh token into the epoch file (its lock held exclusively)."""
    os.ftruncate(fd, 0)
    os.pwrite(fd, os.urandom(TOKEN_BYTES).hex().encode("ascii"), 0)


def unclaiming(db: str) -> int | None:
    """Before keys of ``db`` are released or the file replaced: an exclusive lock on the epoch file,
    held until ``done``, and a new token in it, so that no memo written before is trusted again.

    Blocks while a hook holds its shared lock (the length of one claim transaction). Returns the
    descriptor to pass to ``done``, or ``None`` where there is nothing to lock (no ``fcntl``; a
    directory that cannot be made, where no memo can be either).
    """
    try:
        import fcntl
    except ImportError:
        return None
    try:
        fd = _open_epoch(db)
    except (OSError, ValueError):
        try:  # noqa: SIM105 - an epoch file this process cannot write must not vouch for memos
            os.unlink(os.path.join(directory(db), EPOCH))
        except (OSError, ValueError):
            pass
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _write_token(fd)
    except OSError:
        # The token could not change: blank it as far as possible, so no memo is trusted.
        try:  # noqa: SIM105 - contextlib is not imported here
            os.ftruncate(fd, 0)
        except OSError:
            pass
    return fd


def done(fd: int | None) -> None:
    """Drop the lock ``unclaiming`` (or ``holding``) took: closing the descriptor releases its flock."""
    if fd is not None:
        try:  # noqa: SIM105 - contextlib is not imported here
            os.close(fd)
        except OSError:
            pass


def invalidate(db: str) -> None:
    """Make every memo of ``db`` untrusted now (its file is being replaced or created)."""
    done(unclaiming(db))


def sweep(db: str, cutoff: float) -> None:
    """Remove the memos of ``db`` last written before ``cutoff`` (wall-clock seconds); never raises."""
    where = directory(db)
    try:
        names = os.listdir(where)
    except OSError:
        return
    for name in names:
        if name == EPOCH:
            continue
        path = os.path.join(where, name)
        try:
            if os.stat(path, follow_symlinks=False).st_mtime < cutoff:
                os.unlink(path)
        except OSError:
            continue

"""The Lua scripts ``RedisStore`` runs, and the key layout they work on.

Key layout, per session (``P`` = the key prefix, default ``ruleweave:``)::

    P{<session>}:claims   hash  claimed key -> "-" (no call) | "+" + call id
    P{<session>}:calls    hash  call id -> JSON [[key, record], ...] in claim order
    P{<session>}:values   hash  value key -> string (counters too: HINCRBY)
    P{<session>}:queue    list  delivery queue items, first first
    P{<session>}:record   list  delivery record entries, oldest first (LTRIM to the limit)

The session id sits in a ``{…}`` hash tag, so Redis Cluster keeps a session's
keys on one slot and a Lua script may touch them together. In the tag
``%``, ``{`` and ``}`` are percent-encoded (so no session id can close the
tag early or collide with another), and the empty id, which would make the
empty tag Redis ignores, is written ``%00`` (no other id encodes to that).

Every script gets the five keys (``KEYS[1..5]``) and the session's TTL in
milliseconds first (``ARGV[1]``), and renews the keys with PEXPIRE, so a
session lives ``ttl`` seconds after its last use. Nothing here imports redis-py.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

# Shared by every script: renew the session's keys (PEXPIRE on a missing key does nothing).
_TOUCH = """
local function touch()
  for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
end
"""

# KEYS: claims, calls, values. ARGV: ttl ms, '1' if a call id is given, the call id,
# then key, record pairs. Returns 1/0 per key. HSETNX makes exactly one caller the winner.
_CLAIM_MANY = _TOUCH + """
local marker = '-'
if ARGV[2] == '1' then marker = '+' .. ARGV[3] end
local won, added = {}, {}
for i = 4, #ARGV, 2 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], marker) == 1 then
    won[#won + 1] = 1
    if ARGV[2] == '1' then added[#added + 1] = {ARGV[i], ARGV[i + 1]} end
  else
    won[#won + 1] = 0
  end
end
if #added > 0 then
  local held = redis.call('HGET', KEYS[2], ARGV[3])
  local list = held and cjson.decode(held) or {}
  for _, pair in ipairs(added) do list[#list + 1] = pair end
  redis.call('HSET', KEYS[2], ARGV[3], cjson.encode(list))
end
touch()
return won
"""

# ARGV: ttl ms, prefix. Prefix match by byte comparison (string.sub), so no pattern
# character in a key or prefix means anything. Drops the released keys' ledger entries.
_RELEASE = _TOUCH + """
local prefix = ARGV[2]
if prefix == '' then
  redis.call('DEL', KEYS[1], KEYS[2])
  touch()
  return 0
end
local n = #prefix
local all = redis.call('HGETALL', KEYS[1])
local gone = {}
for i = 1, #all, 2 do
  local key, held = all[i], all[i + 1]
  if string.sub(key, 1, n) == prefix then
    redis.call('HDEL', KEYS[1], key)
    if string.sub(held, 1, 1) == '+' then
      local call = string.sub(held, 2)
      gone[call] = gone[call] or {}
      gone[call][key] = true
    end
  end
end
for call, keys in pairs(gone) do
  local held = redis.call('HGET', KEYS[2], call)
  if held then
    local keep = {}
    for _, pair in ipairs(cjson.decode(held)) do
      if not keys[pair[1]] then keep[#keep + 1] = pair end
    end
    if #keep == 0 then
      redis.call('HDEL', KEYS[2], call)
    else
      redis.call('HSET', KEYS[2], call, cjson.encode(keep))
    end
  end
end
touch()
return 0
"""

# ARGV: ttl ms, call ids. Returns, per call id, its JSON pair list or ''.
_LEDGER = _TOUCH + """
local out = {}
for i = 2, #ARGV do
  out[#out + 1] = redis.call('HGET', KEYS[2], ARGV[i]) or ''
end
touch()
return out
"""

# As _LEDGER, and releases the keys and drops the entries of those calls.
_FORGET_CALLS = _TOUCH + """
local out = {}
for i = 2, #ARGV do
  local held = redis.call('HGET', KEYS[2], ARGV[i])
  if held then
    for _, pair in ipairs(cjson.decode(held)) do redis.call('HDEL', KEYS[1], pair[1]) end
    redis.call('HDEL', KEYS[2], ARGV[i])
  end
  out[#out + 1] = held or ''
end
touch()
return out
"""

_GET = _TOUCH + """
local value = redis.call('HGET', KEYS[3], ARGV[2])
touch()
return value
"""

_PUT = _TOUCH + """
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
touch()
return 0
"""

# A value that is not an integer counts as 0 (as in MemoryStore); overflow stays an error.
# The new value is read back as a string: Lua numbers are doubles, exact only to 2^53.
_INCR = _TOUCH + """
local n = redis.pcall('HINCRBY', KEYS[3], ARGV[2], ARGV[3])
if type(n) == 'table' and n.err then
  if not string.find(n.err, 'not an integer', 1, true) then return n end
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
end
touch()
return redis.call('HGET', KEYS[3], ARGV[2])
"""


# ARGV: ttl ms, '1' to add before the first item, then the items in order.
_ENQUEUE = _TOUCH + """
if ARGV[2] == '1' then
  for i = #ARGV, 3, -1 do redis.call('LPUSH', KEYS[4], ARGV[i]) end
else
  for i = 3, #ARGV do redis.call('RPUSH', KEYS[4], ARGV[i]) end
end
touch()
return 0
"""

# Every item, and the list gone, in one step: two callers never both get an item.
_TAKE_QUEUE = _TOUCH + """
local items = redis.call('LRANGE', KEYS[4], 0, -1)
redis.call('DEL', KEYS[4])
touch()
return items
"""

# ARGV: ttl ms, the limit, then the entries.
_RECORD = _TOUCH + """
for i = 3, #ARGV do redis.call('RPUSH', KEYS[5], ARGV[i]) end
redis.call('LTRIM', KEYS[5], -tonumber(ARGV[2]), -1)
touch()
return 0
"""

_DELIVERIES = _TOUCH + """
local entries = redis.call('LRANGE', KEYS[5], 0, -1)
touch()
return entries
"""


@dataclass(frozen=True)
class Script:
    """A Lua script run by EVALSHA (EVAL once if the server does not know it yet)."""

    source: str
    sha: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha", hashlib.sha1(self.source.encode()).hexdigest())


CLAIM_MANY = Script(_CLAIM_MANY)
RELEASE = Script(_RELEASE)
LEDGER = Script(_LEDGER)
FORGET_CALLS = Script(_FORGET_CALLS)
GET = Script(_GET)
PUT = Script(_PUT)
INCR = Script(_INCR)
ENQUEUE = Script(_ENQUEUE)
TAKE_QUEUE = Script(_TAKE_QUEUE)
RECORD = Script(_RECORD)
DELIVERIES = Script(_DELIVERIES)


def session_keys(prefix: str, session_id: str) -> tuple[str, str, str, str, str]:
    """The session's five keys: claims, calls (the ledger), values, the delivery queue and record;
    they share one hash tag."""
    base = f"{prefix}{{{session_tag(session_id)}}}"
    return f"{base}:claims", f"{base}:calls", f"{base}:values", f"{base}:queue", f"{base}:record"


def session_tag(session_id: str) -> str:
    """The hash tag content for ``session_id``: injective and free of ``{``/``}``.

    Args:
        session_id: Any session id.

    Returns:
        The id with ``%``, ``{`` and ``}`` percent-encoded; ``%00`` for the empty id.
    """
    if not session_id:
        return "%00"
    return session_id.replace("%", "%25").replace("{", "%7B").replace("}", "%7D")

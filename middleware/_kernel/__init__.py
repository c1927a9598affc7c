"""Standard library only: the facts the hook's fast path and the library share, one copy each."""

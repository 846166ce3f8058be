"""`pan db check`: the database's integrity, then every session replayed and compared with what
is stored.

One job a module: ``database`` (the whole check: integrity, every session, the marks kept),
``session`` (one session: what to replay, its parts, its running totals), ``marks`` (what a
check verified, sealed with a key kept outside the database), ``verify`` (a piece of a
session's log replayed and compared with what is stored).
"""

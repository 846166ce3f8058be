"""`pan db check`: the database's integrity, then every session replayed and compared with what
is stored.

One job a module: ``database`` (the whole check: integrity, every session, the marks kept),
``verify`` (one piece of a session's log replayed and compared).
"""

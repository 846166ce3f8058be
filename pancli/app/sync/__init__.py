"""`pan sync`: one history across hosts through a shared folder (run.py says how, in full).

One job a module: ``run`` (a sync, start to end), ``folder`` (reading the folder: files,
signatures, manifests), ``conflicts`` (a contradiction in words).
"""

"""The application layer: recording a session, re-scoring, reports, archives and database care.

It joins the pure game cores to storage; it reads no terminal and prints nothing.
"""

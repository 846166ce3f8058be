"""`pan serve`: the table on every player's phone (Starlette app, Jinja2 templates, live over SSE)."""

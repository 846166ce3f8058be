"""`pan check` and `pan rules`."""

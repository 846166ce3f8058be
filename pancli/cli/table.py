"""pan table commands."""

"""pan games commands."""

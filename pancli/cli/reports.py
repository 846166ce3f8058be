"""pan reports commands."""

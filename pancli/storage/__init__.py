"""SQLite storage: every SQL statement pancli runs lives in this package."""

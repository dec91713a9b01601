"""Pure report builders: each returns a plain, JSON-ready report document (a dict)."""

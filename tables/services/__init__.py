"""Services: the only code that writes table state (lock, replay, decide, append, project)."""

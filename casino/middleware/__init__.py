"""Response headers every answer carries (see `headers`)."""

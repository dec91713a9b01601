"""The event log's pure parts: canonical JSON and the hash chain."""

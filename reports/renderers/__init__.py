"""Renderers turn a report document into bytes: canonical JSON, CSV and a printable PDF."""

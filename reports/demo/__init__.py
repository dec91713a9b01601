"""A demonstration shift played through the real services: custody, rounds, counts, reports."""

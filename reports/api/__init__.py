"""The reports API: custody records, stored reports and their downloads, report runs."""

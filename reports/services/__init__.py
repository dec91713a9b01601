"""The reports app's writers: custody facts on the tables' logs, and the stored reports."""

"""Readers that turn the log and its projections into the pure builders' inputs."""

"""SHOE-LINK/1 codec: pure bytes in, values out. No clock, no randomness, no port."""

"""A SHOE-LINK device on the other end of a line: a shuffled shoe, its ring buffer, its faults."""

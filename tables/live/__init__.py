"""Live updates over websockets: one group per table and one for the whole floor."""

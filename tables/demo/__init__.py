"""The demo floor a newcomer sees after `make run`."""

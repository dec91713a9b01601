"""Server-rendered screens: sign-in, the landing that sends each role to its screen, the tablet."""

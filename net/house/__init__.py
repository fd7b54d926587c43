"""The house: the admin socket and commands, bans and the audit log."""

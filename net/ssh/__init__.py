"""How a person reaches the club: the SSH server, the session, its limits and identity."""

"""Where the club is kept: the store ports, the shared SQL, SQLite and PostgreSQL."""

"""Who holds the truth of a table: the owner, its remote twin, the journal port, autoplay, the club."""

"""``python -m sukno``: the same command as ``sukno`` (net.cli.main)."""

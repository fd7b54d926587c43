"""The ``sukno`` command line."""

"""Widgets of the felt, the hand, the log, the command line and the timer bar."""

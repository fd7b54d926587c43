"""Screens: welcome (choose a name), hall, table."""

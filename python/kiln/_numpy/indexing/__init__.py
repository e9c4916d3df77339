"""Indexing routines: index helpers, gathering, conditional picks and writes, nonzero."""

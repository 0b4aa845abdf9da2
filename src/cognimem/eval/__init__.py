"""Benchmark harnesses (the data is read from a path, never shipped)."""

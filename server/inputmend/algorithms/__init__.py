"""Algorithms: pure functions over an oracle, each returning a small frozen result."""

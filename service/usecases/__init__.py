"""The use cases: plain functions, one per thing a caller does, given their dependencies."""

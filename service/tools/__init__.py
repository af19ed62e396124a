"""Operator tools (benchmarks, the reliability check, the contract): imported by nothing that serves players."""

"""Tests of service/tools/."""

"""Tests of service/http/."""

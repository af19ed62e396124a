"""Tests of service/model/."""

"""Tests of service/usecases/."""

"""Tests of the framework adapters, one module per framework."""

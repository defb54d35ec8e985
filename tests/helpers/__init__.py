"""Helpers shared by several test files: one home for each, imported, never copied.

Test files import helpers from here and fixtures come from a conftest.py; no test file
imports another (tests/test_tests_stand_alone.py checks it).
"""

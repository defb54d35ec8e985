"""Fault tests: bounded versions of the kill, noise, unplug, corruption and fuzz runs.

Each test reads its size through :func:`tests.faults.scale.scaled`, so the same code
runs small in the suite and long from ``bench/bench_faults.py``.
"""

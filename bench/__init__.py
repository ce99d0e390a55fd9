"""The benchmark (`make bench`): a large league, the real stack under load, the rules engine.

Not part of `make test`. See bench/run.py.
"""

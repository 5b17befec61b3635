"""The parts of scripts/bench.py: the server under test, wrk runs, URL lists and the report."""

"""minimind-lab's benchmark suite: lesson run time, slider latency, the FFN against its floor.

Run from the repository root with the project's interpreter::

    .venv/bin/python -m benchmarks              # full run, writes benchmarks/RESULTS.md
    .venv/bin/python -m benchmarks --quick --out /tmp/bench.md   # smoke run (what CI runs)

Timings never fail a run; only errors do (exit status 1). See ``benchmarks/README.md``.
"""

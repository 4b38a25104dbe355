"""Worker process for measurements that need a fresh interpreter (cold caches, isolation).

    python -m benchmarks._worker widget NAME --sets N
    python -m benchmarks._worker profile-widget NAME CONTROL --sets N
    python -m benchmarks._worker profile-notebook PATH

Prints one line ``BENCHMARK-RESULT:<json>`` last on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys

from .sliders import RESULT_MARKER, measure_widget, profile_widget


def main(argv: list[str]) -> int:
    """Parse the command, run it, print the JSON result line."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks._worker")
    sub = parser.add_subparsers(dest="command", required=True)
    widget = sub.add_parser("widget")
    widget.add_argument("name")
    widget.add_argument("--sets", type=int, default=20)
    prof = sub.add_parser("profile-widget")
    prof.add_argument("name")
    prof.add_argument("control")
    prof.add_argument("--sets", type=int, default=20)
    nb = sub.add_parser("profile-notebook")
    nb.add_argument("path")
    args = parser.parse_args(argv)
    if args.command == "widget":
        result = measure_widget(args.name, args.sets)
    elif args.command == "profile-widget":
        result = profile_widget(args.name, args.control, args.sets)
    else:
        from .profiling import profile_notebook

        result = profile_notebook(args.path)
    print(RESULT_MARKER + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

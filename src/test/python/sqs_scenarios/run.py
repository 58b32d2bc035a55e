"""Runs every boto3 scenario against the Sluice on 127.0.0.1:$SLUICE_PORT; exit status 1 if any fails."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import run_all  # noqa: E402
import fifo_scenarios, dead_letter_scenarios  # noqa: E402,F401  (they register their scenarios)

sys.exit(0 if run_all(set(sys.argv[1:]) or None) else 1)

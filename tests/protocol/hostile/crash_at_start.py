"""Dies before reading anything: a missing library, a syntax error..."""

import sys

sys.stderr.write("fatal: cannot load the rules table (hostile: crash_at_start)\n")
sys.stderr.flush()
raise SystemExit(3)

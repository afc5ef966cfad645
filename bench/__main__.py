"""``python -m bench``: the benchmark of every registered game against python-chess (docs/performance.md)."""

import sys

from bench.run import main

sys.exit(main())

"""The corpus is data, not tests: keep the referee's pytest plugin from collecting its ``*.rec`` files (they are
hostile on purpose and carry no ``Expect`` tags; ``tests/test_hostile.py`` judges them against ``manifest.json``)."""

collect_ignore_glob = ["corpus/*", "*.rec", "*.toml"]

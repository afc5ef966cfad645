"""pytest glue for the property suites: the Hypothesis profiles, selected by ``REFEREE_PROFILE``.

``ci``   few examples, derandomised (the same games every run), no example database: fits the CI budget.
``dev``  a little deeper, random, with the example database: for working on a rule.
``deep`` hundreds of examples per property and long state-machine runs: ``REFEREE_PROFILE=deep pytest properties``.

The profiles are applied to the property tests only (``PROPS``), never loaded globally, so other Hypothesis tests
of the project keep their own settings.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {
    "deadline": None,
    "print_blob": True,
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
        HealthCheck.filter_too_much,
    ],
}

settings.register_profile(
    "referee-ci", max_examples=10, derandomize=True, database=None, stateful_step_count=30, **_COMMON
)
settings.register_profile("referee-dev", max_examples=50, stateful_step_count=60, **_COMMON)
settings.register_profile("referee-deep", max_examples=500, stateful_step_count=150, **_COMMON)

PROFILE = os.environ.get("REFEREE_PROFILE", "ci").lower()
if PROFILE not in ("ci", "dev", "deep"):
    raise RuntimeError(f"REFEREE_PROFILE={PROFILE!r}: use ci, dev or deep")
PROPS = settings.get_profile(f"referee-{PROFILE}")


def scaled(fraction: float) -> settings:
    """The active profile with fewer examples (for the slowest properties)."""
    return settings(PROPS, max_examples=max(2, int(PROPS.max_examples * fraction)))


def pytest_report_header(config) -> str:
    return f"referee properties: Hypothesis profile '{PROFILE}' (REFEREE_PROFILE=deep for the long search)"

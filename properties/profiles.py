"""The property suites' Hypothesis settings (registered in ``properties/conftest.py``)."""

from properties.conftest import PROFILE, PROPS, scaled

__all__ = ["PROFILE", "PROPS", "scaled"]

"""Property suites (Hypothesis) and the tests of the z3 proofs; see docs/properties.md."""

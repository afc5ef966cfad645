"""Hostile inputs for the referee: the committed corpus (``corpus/`` + ``manifest.json``, written by
``build_corpus.py``), the inputs made at test time, and the invariants every input must keep (``invariants.py``)."""

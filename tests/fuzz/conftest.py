"""Hypothesis profiles for the property tests: ``ci`` (the default) keeps the whole folder well under a minute on
two cores; ``long`` (``CLARVIS_FUZZ_PROFILE=long``) is for a run by hand. The example database stays in
``.hypothesis/`` at the repository root, which git ignores."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {
    "deadline": None,  # the machine is shared: a slow example is not a failure (speed lives in benchmarks/)
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
}
settings.register_profile("ci", max_examples=100, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("long", max_examples=3000, **_COMMON)  # type: ignore[arg-type]
settings.load_profile(os.environ.get("CLARVIS_FUZZ_PROFILE", "ci"))

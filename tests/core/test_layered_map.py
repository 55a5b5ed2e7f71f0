"""``LayeredMap``, the immutable index a root's scan updates per keystroke, behaves as a copied dict would.

Hypothesis runs sequences of updates and removals on both, and checks after each step that the new map holds what
the dict holds, that the map before the step did not change, and that folding the changes into a new base
(``FOLD_AT``) changes nothing a reader sees. The order of iteration is not compared: a root's scan keeps its own
sorted order of directories, and every reader of these indexes looks keys up or sorts.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from clarvis_lsp.discovery import layered
from clarvis_lsp.discovery.layered import LayeredMap

KEYS = st.sampled_from([f"skill-{index}" for index in range(12)])
STEPS = st.lists(st.tuples(st.booleans(), KEYS, st.integers(0, 5)), max_size=60)


def _same(layered_map: LayeredMap[str, int], model: dict[str, int]) -> None:
    assert dict(layered_map.items()) == model
    assert sorted(layered_map) == sorted(model)  # each key once
    assert len(layered_map) == len(model)
    for key in [f"skill-{index}" for index in range(12)]:
        assert (key in layered_map) == (key in model)
        assert layered_map.get(key) == model.get(key)
        assert layered_map.get(key, -1) == model.get(key, -1)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(KEYS, st.integers(0, 5), max_size=8), STEPS, st.sampled_from([2, 256]))
def test_updates_read_as_a_copied_dict(base: dict[str, int], steps: list[tuple[bool, str, int]], fold: int) -> None:
    original, layered.FOLD_AT = layered.FOLD_AT, fold
    try:
        current, model = LayeredMap(dict(base)), dict(base)
        for is_set, key, value in steps:
            before, before_model = current, dict(model)
            if is_set:
                current = current.set(key, value)
                model[key] = value
            else:
                current = current.without(key)
                model.pop(key, None)
            _same(current, model)
            _same(before, before_model)  # the map an older scan holds is untouched
    finally:
        layered.FOLD_AT = original


def test_a_missing_key_raises_key_error() -> None:
    removed = LayeredMap({"a": 1}).without("a")
    for key in ("a", "b"):
        try:
            removed[key]
        except KeyError:
            continue
        raise AssertionError(f"{key} was found")

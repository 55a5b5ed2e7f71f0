"""A read-only mapping that a copy-on-write update does not copy: a base dict under a small dict of changes.

A root's scan is immutable (an editor's snapshot may still read the one before an edit), so each keystroke in a
SKILL.md used to copy the root's three indexes (directories, names, kept copies): at 12,500 skills a root, that
was three dictionaries of 12,500 entries allocated and filled per keystroke, most of the keystroke's cost. A
``LayeredMap`` update copies only its changes, and folds them into a new base once they are many (``FOLD_AT``),
so an update costs O(1) amortized and a read at most two dictionary lookups.

Iteration gives each key once: the base's keys in place, then the keys the changes added. Nothing reads an order
from these indexes (a root's scan keeps its sorted list of directories apart), so a key removed and set again may
come back at its place or at the end, depending on whether a fold came between.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar, cast, overload

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

FOLD_AT = 256
"""Changes kept apart before they are folded into a new base: a copy of the base every 256 updates at most."""


class _Removed:
    __slots__ = ()


REMOVED = _Removed()


class LayeredMap(Mapping[K, V], Generic[K, V]):
    """An immutable mapping: ``set`` and ``without`` answer a new one and leave this one as it was."""

    __slots__ = ("_base", "_changes", "_length")

    def __init__(self, base: dict[K, V] | None = None) -> None:
        self._base: dict[K, V] = base if base is not None else {}
        self._changes: dict[K, V | _Removed] = {}
        self._length = len(self._base)

    @classmethod
    def _of(cls, base: dict[K, V], changes: dict[K, V | _Removed], length: int) -> LayeredMap[K, V]:
        if len(changes) > FOLD_AT:
            folded = {key: value for key, value in _items(base, changes)}
            return cls(folded)
        layered = cls.__new__(cls)
        layered._base, layered._changes, layered._length = base, changes, length
        return layered

    def view(self) -> Mapping[K, V]:
        """A read-only mapping of the same entries: the base dict itself while there are no changes (its lookups
        run at a dict's speed, which the registry's name lookups over every skill notice), else this map."""
        return self if self._changes else self._base

    def set(self, key: K, value: V) -> LayeredMap[K, V]:
        changes = dict(self._changes)
        changes[key] = value
        return self._of(self._base, changes, self._length + (0 if key in self else 1))

    def without(self, key: K) -> LayeredMap[K, V]:
        if key not in self:
            return self
        changes = dict(self._changes)
        if key in self._base:
            changes[key] = REMOVED
        else:
            del changes[key]
        return self._of(self._base, changes, self._length - 1)

    def __getitem__(self, key: K) -> V:
        changes = self._changes
        if changes and key in changes:
            value = changes[key]
            if value is REMOVED:
                raise KeyError(key)
            return cast(V, value)
        return self._base[key]

    @overload
    def get(self, key: K, /) -> V | None: ...

    @overload
    def get(self, key: K, /, default: V | T) -> V | T: ...

    def get(self, key: K, /, default: object = None) -> object:
        changes = self._changes
        if changes and key in changes:
            value = changes[key]
            return default if value is REMOVED else cast(V, value)
        return self._base.get(key, default)

    def __contains__(self, key: object) -> bool:
        changes = self._changes
        if changes and key in changes:
            return changes[key] is not REMOVED  # type: ignore[index]
        return key in self._base

    def __iter__(self) -> Iterator[K]:
        return (key for key, _value in _items(self._base, self._changes))

    def __len__(self) -> int:
        return self._length

    def __repr__(self) -> str:
        return f"LayeredMap({dict(_items(self._base, self._changes))!r})"


def _items(base: dict[K, V], changes: dict[K, V | _Removed]) -> Iterator[tuple[K, V]]:
    if not changes:
        yield from base.items()
        return
    for key, value in base.items():
        if key in changes:
            changed = changes[key]
            if changed is not REMOVED:
                yield key, cast(V, changed)
        else:
            yield key, value
    for key, changed in changes.items():
        if key not in base and changed is not REMOVED:
            yield key, cast(V, changed)

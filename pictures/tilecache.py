"""Caches of drawn text, bounded in bytes: :class:`TileCache` (:data:`TEXT_BUDGET` in all).

Every picture draws the same few texts again and again (digits, headings, die labels, the
legend): each is drawn once and pasted from its cache afterwards. Some texts belong to one game
only: its title (which carries the game's id) and its players' names. They are reused while the
game goes on, then never again, so they live in a cache of their own (``one_off``) and can never
push the reusable tiles out. Each cache holds at most its budget of pixel bytes (width x height x
bands, what Pillow allocates) and evicts the least recently used tiles beyond it; a tile larger
than an eighth of its budget is drawn but not kept.

Pictures are drawn in worker threads: every cache takes a lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from PIL import Image

MiB: Final = 1024 * 1024
TEXT_BUDGET: Final = 8 * MiB
"""What the pictures' text caches (in pictures/fonts.py and pictures/text.py) hold at most."""

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def image_bytes(image: Image.Image) -> int:
    """The pixel bytes Pillow holds for ``image``."""
    return image.width * image.height * len(image.getbands())


@dataclass(frozen=True, slots=True)
class CacheFigures:
    """What a cache holds now, for benchmarks and tests."""

    name: str
    entries: int
    bytes: int
    budget: int
    hits: int
    misses: int


class TileCache(Generic[K, V]):
    """A least-recently-used cache bounded by the bytes of what it holds."""

    def __init__(self, name: str, budget: int, size_of: Callable[[V], int]) -> None:
        """At most ``budget`` bytes, each value's size by ``size_of``."""
        self.name = name
        self.budget = budget
        self.largest = budget // 8
        """Values above this size are not kept (one would push out too many others)."""
        self._size_of = size_of
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        CACHES.append(self)

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value of ``key``, made by ``make()`` (and kept if it fits) when absent."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return found[0]
            self.misses += 1
        value = make()  # outside the lock: other threads draw meanwhile
        size = self._size_of(value)
        if size > self.largest:
            return value
        with self._lock:
            if key in self._items:  # another thread drew it meanwhile
                return self._items[key][0]
            self._items[key] = (value, size)
            self._bytes += size
            while self._bytes > self.budget:
                _, (_, dropped) = self._items.popitem(last=False)
                self._bytes -= dropped
        return value

    def __len__(self) -> int:
        return len(self._items)

    @property
    def bytes(self) -> int:
        return self._bytes

    def clear(self) -> None:
        """Forget every value (tests; the figures start again)."""
        with self._lock:
            self._items.clear()
            self._bytes = 0
            self.hits = self.misses = 0

    def figures(self) -> CacheFigures:
        """Entries, bytes, budget, hits and misses now."""
        with self._lock:
            return CacheFigures(self.name, len(self._items), self._bytes, self.budget,
                                self.hits, self.misses)


CACHES: list[TileCache[Any, Any]] = []
"""Every text cache of the pictures (each registers itself): see :func:`text_caches`."""


def text_caches() -> list[CacheFigures]:
    """The figures of every text cache the pictures keep."""
    return [c.figures() for c in CACHES]


def total_budget() -> int:
    """The bytes all the text caches may hold together."""
    return sum(c.budget for c in CACHES)

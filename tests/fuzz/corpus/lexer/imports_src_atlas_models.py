from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from atlas.storage import Store


@dataclass
class Place:
    name: str
    lat: float
    lon: float

    def save(self, store: Store) -> None:
        store.put(self.name, (self.lat, self.lon))

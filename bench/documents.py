"""Test documents shared by the benchmarks."""

from __future__ import annotations

import json


def json_document(size: int) -> str:
    """A realistic JSON document of about ``size`` characters (ASCII)."""
    items = []
    total = 0
    index = 0
    while total < size:
        item = json.dumps(
            {
                "id": index,
                "name": f"item {index}",
                "tags": ["alpha", "beta", index * 1.5],
                "active": index % 2 == 0,
                "nested": {"x": [1, 2, {"y": None}]},
            }
        )
        items.append(item)
        total += len(item) + 3
        index += 1
    return "[\n" + ",\n".join(items) + "\n]\n"

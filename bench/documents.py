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


def yaml_document(size: int) -> str:
    """A realistic YAML document of about ``size`` characters: a list of
    service definitions with nested mappings, block and flow sequences,
    quoted and plain scalars, a literal block scalar and comments."""
    parts = ["# services of the fleet\nservices:\n"]
    total = len(parts[0])
    index = 0
    while total < size:
        part = (
            f"  - name: service-{index}\n"
            f'    image: "registry.example.com/team/app:{index % 97}.{index % 13}"\n'
            f"    replicas: {index % 5 + 1}\n"
            f"    enabled: {'true' if index % 2 else 'false'}\n"
            f"    ports: [{8000 + index % 100}, {9000 + index % 100}]\n"
            f"    labels:\n"
            f"      tier: {'backend' if index % 3 else 'frontend'}\n"
            f"      owner: 'team {index % 7}'  # who to page\n"
            f"    env:\n"
            f"      - name: LOG_LEVEL\n"
            f"        value: info\n"
            f"      - name: WEIGHT\n"
            f'        value: "{index * 1.5}"\n'
            f"    command: |\n"
            f"      ./run --id {index}\n"
            f"      --verbose\n"
        )
        parts.append(part)
        total += len(part)
        index += 1
    return "".join(parts)

"""Valid seed documents: the FSynth study's files, the corpora of the newer
formats (``tests/corpus/FORMAT``) and realistic generated ones.

Generated documents are seeded (``SEED_DOCUMENTS_SEED``) and independent of
the damage seed, so that every run damages the same documents.
"""

from __future__ import annotations

import csv
import io
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..documents import json_document

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
FORMAT_CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus"
SEED_DOCUMENTS_SEED = 0


@dataclass(frozen=True)
class Seed:
    """A valid document and where it comes from (a corpus file or a generator)."""

    name: str
    text: str


def corpus_seeds(fmt: str) -> list[Seed]:
    """The study's ``FMT-valid`` files (none when the corpus is not there).

    A UTF-8 byte order mark is dropped, as inputmend drops it before checking."""
    folder = CORPUS / f"{fmt}-valid"
    if not folder.is_dir():
        return []
    return [
        Seed(f"{folder.name}/{path.name}", path.read_text(encoding="utf-8").removeprefix("\ufeff"))
        for path in sorted(folder.iterdir())
    ]


def format_corpus_seeds(fmt: str) -> list[Seed]:
    """The real-looking valid files of ``tests/corpus/FMT`` (TOML, YAML, XML, JSONC)."""
    folder = FORMAT_CORPUS / fmt
    return [
        Seed(f"{fmt}/{path.name}", path.read_text(encoding="utf-8").removeprefix("\ufeff"))
        for path in sorted(folder.iterdir())
        if path.is_file()
    ]


# ----------------------------------------------------------------------- JSON

PEOPLE = (
    "Ada Lovelace",
    "José Álvarez",
    "Zoë Müller",
    "Łukasz Nowak",
    "Mei Chen",
    "Amara Okafor",
    "Kwame Mensah",
    "Sofía Reyes",
    "Björn Andersson",
    "Priya Natarajan",
    "Conor O'Brien",
    'Anne "Nan" Lee',
)
WORDS = (
    "alpha",
    "beta",
    "invoice",
    "billing",
    "sensor",
    "gateway",
    "archive",
    "render",
    "queue",
    "cache",
)
CITIES = (
    ("Berlin", 52.52, 13.405),
    ("Lagos", 6.5244, 3.3792),
    ("Lima", -12.0464, -77.0428),
    ("Osaka", 34.6937, 135.5023),
    ("Reykjavík", 64.1466, -21.9426),
)


def _user(rng: random.Random, index: int) -> dict[str, Any]:
    name = rng.choice(PEOPLE)
    return {
        "id": index,
        "name": name,
        "email": f"{name.split()[0].lower()}.{index}@example.com",
        "active": rng.random() < 0.7,
        "score": round(rng.uniform(0, 100), rng.choice((1, 2))),
        "tags": rng.sample(WORDS, rng.randint(0, 3)),
        "manager": None if rng.random() < 0.5 else rng.randint(1, index + 1),
        "address": None
        if rng.random() < 0.3
        else {"city": rng.choice(CITIES)[0], "zip": f"{rng.randint(1000, 99999):05d}"},
    }


def _api_page(rng: random.Random) -> Any:
    count = rng.randint(1, 6)
    return {
        "page": rng.randint(1, 9),
        "per_page": count,
        "total": rng.randint(count, 500),
        "data": [_user(rng, i + 1) for i in range(count)],
        "next": None if rng.random() < 0.4 else f"https://api.example.com/users?page={count + 1}",
    }


def _config(rng: random.Random) -> Any:
    service = rng.choice(WORDS)
    return {
        "name": f"{service}-service",
        "version": f"{rng.randint(0, 3)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
        "debug": rng.random() < 0.3,
        "port": rng.choice((80, 443, 8080, 5432)),
        "timeout": rng.choice((30.0, 2.5, 0.75)),
        "retries": rng.randint(0, 5),
        "offset": -rng.randint(1, 60),
        "ratio": 1e-06 if rng.random() < 0.2 else 0.25,
        "features": {word: rng.random() < 0.5 for word in rng.sample(WORDS, 3)},
        "paths": ["/usr/local/bin", "C:\\Program Files\\" + service, "~/.config/" + service],
        "database": {"host": "db.internal", "user": service, "password": None},
        "banner": 'Welcome!\nPress "q" to quit\t(v1)',
        "empty": rng.choice(({}, [])),
    }


def _events(rng: random.Random) -> Any:
    levels = ("debug", "info", "warn", "error")
    return [
        {
            "ts": f"2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T0{rng.randint(0, 9)}:15:00Z",
            "level": rng.choice(levels),
            "message": rng.choice(
                ("Disk usage at 91%", "Login failed for user é", "Cache miss", "Retrying (2/5)")
            ),
            "value": rng.choice((91.0, 0, -3, 1.5e3, 12)),
            "ok": rng.random() < 0.5,
            "meta": {} if rng.random() < 0.5 else {"host": f"node-{rng.randint(1, 9)}"},
        }
        for _ in range(rng.randint(2, 8))
    ]


def _geo(rng: random.Random) -> Any:
    return {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [longitude, latitude]},
                "properties": {"name": name, "visited": rng.random() < 0.5, "rank": rank},
            }
            for rank, (name, latitude, longitude) in enumerate(
                rng.sample(CITIES, rng.randint(1, len(CITIES)))
            )
        ],
    }


def _package(rng: random.Random) -> Any:
    return {
        "name": f"@acme/{rng.choice(WORDS)}",
        "version": "1.0.0",
        "private": True,
        "scripts": {"build": "tsc -p .", "test": "jest --ci"},
        "dependencies": {word: f"^{rng.randint(1, 9)}.0.0" for word in rng.sample(WORDS, 3)},
        "engines": {"node": ">=18"},
    }


JSON_SHAPES = (_api_page, _config, _events, _geo, _package)


def generated_json(count: int = 30) -> list[Seed]:
    """API responses, configuration files, logs, GeoJSON, package manifests."""
    rng = random.Random(f"{SEED_DOCUMENTS_SEED}/json")
    seeds = []
    for index in range(count):
        shape = JSON_SHAPES[index % len(JSON_SHAPES)]
        value = shape(rng)
        layout = rng.choice(("indent 2", "indent 4", "one line", "minified"))
        ascii_only = rng.random() < 0.5
        if layout.startswith("indent"):
            text = json.dumps(value, indent=int(layout[-1]), ensure_ascii=ascii_only) + "\n"
        elif layout == "one line":
            text = json.dumps(value, ensure_ascii=ascii_only)
        else:
            text = json.dumps(value, separators=(",", ":"), ensure_ascii=ascii_only)
        seeds.append(Seed(f"generated/{shape.__name__[1:]}-{index}.json", text))
    seeds.append(Seed("documents.json_document(2000)", json_document(2000)))
    return seeds


# ------------------------------------------------------------------------ CSV


def generated_csv(count: int = 40) -> list[Seed]:
    """Spreadsheet and database exports, quoted the ways real writers quote."""
    rng = random.Random(f"{SEED_DOCUMENTS_SEED}/csv")
    columns = {
        "id": lambda i: i,
        "name": lambda i: rng.choice(PEOPLE),
        "last, first": lambda i: ", ".join(reversed(rng.choice(PEOPLE).split(" ", 1))),
        "email": lambda i: f"user{i}@example.org",
        "city": lambda i: rng.choice(CITIES)[0],
        "amount": lambda i: round(rng.uniform(-500, 5000), 2),
        "quantity": lambda i: rng.randint(0, 40),
        "date": lambda i: f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "active": lambda i: rng.choice(("true", "false")),
        "note": lambda i: rng.choice(
            (
                "",
                "paid in full",
                "call back, after 5pm",
                'customer said "urgent"',
                "line one\nline two",
                "n/a",
            )
        ),
    }
    quotings = (csv.QUOTE_MINIMAL, csv.QUOTE_NONNUMERIC, csv.QUOTE_ALL)
    seeds = []
    for index in range(count):
        header = ["id", *rng.sample(sorted(columns)[1:], rng.randint(2, 6))]
        rng.shuffle(header)
        buffer = io.StringIO()
        writer = csv.writer(
            buffer, quoting=rng.choice(quotings), lineterminator=rng.choice(("\n", "\r\n"))
        )
        writer.writerow(header)
        for row in range(rng.randint(3, 25)):
            writer.writerow([columns[column](row + 1) for column in header])
        seeds.append(Seed(f"generated/export-{index}.csv", buffer.getvalue()))
    return seeds


# ------------------------------------------------------------------------ DOT

NODE_NAMES = ("fetch", "build", "test", "lint", "deploy", "db", "api", "web", "cache", "auth")
NODE_LABELS = ("Fetch sources", "Build", "Unit tests", "Deploy to prod", "Postgres 15", "API")
SHAPES = ("box", "ellipse", "circle", "diamond", "record", "cylinder")
COLORS = ("red", "gray40", '"#1f77b4"', '"#ff7f0e"', "blue", "darkgreen")


def _dot_id(rng: random.Random, name: str) -> str:
    return f'"{name} node"' if rng.random() < 0.15 else name


def _dot_attrs(pairs: list[str], separator: str) -> str:
    return "[" + separator.join(pairs) + "]"


def generated_dot(count: int = 40) -> list[Seed]:
    """Build pipelines, service maps and state machines as people write them."""
    rng = random.Random(f"{SEED_DOCUMENTS_SEED}/dot")
    seeds = []
    for index in range(count):
        directed = rng.random() < 0.7
        edge = "->" if directed else "--"
        end = ";" if rng.random() < 0.6 else ""
        separator = rng.choice((", ", ",", " ", "; "))
        indent = rng.choice(("  ", "    ", "\t"))
        names = [_dot_id(rng, name) for name in rng.sample(NODE_NAMES, rng.randint(3, 8))]
        kind = "digraph" if directed else "graph"
        lines = [kind + " " + rng.choice(("G", "pipeline", '"my graph"')) + " {"]
        if rng.random() < 0.6:
            lines.append(f"{indent}rankdir=LR{end}")
        if rng.random() < 0.7:
            defaults = [f"shape={rng.choice(SHAPES)}", 'style="rounded,filled"']
            lines.append(f"{indent}node {_dot_attrs(defaults, separator)}{end}")
        if rng.random() < 0.4:
            lines.append(f"{indent}// {rng.choice(WORDS)} stage")
        for name in names:
            if rng.random() < 0.6:
                attrs = [f'label="{rng.choice(NODE_LABELS)}"']
                if rng.random() < 0.4:
                    attrs.append(f"color={rng.choice(COLORS)}")
                lines.append(f"{indent}{name} {_dot_attrs(attrs, separator)}{end}")
        for _ in range(rng.randint(2, 7)):
            chain = rng.sample(names, rng.randint(2, min(4, len(names))))
            statement = f" {edge} ".join(chain)
            if rng.random() < 0.4:
                attrs = [rng.choice(('label="calls"', "style=dashed", "weight=2", "penwidth=1.5"))]
                statement += " " + _dot_attrs(attrs, separator)
            lines.append(f"{indent}{statement}{end}")
        if rng.random() < 0.4:
            members = " ".join(f"{name};" for name in rng.sample(names, 2))
            lines.append(f"{indent}subgraph cluster_{index} {{")
            lines.append(f'{indent}{indent}label="{rng.choice(WORDS)}"{end}')
            lines.append(f"{indent}{indent}{members}")
            lines.append(f"{indent}}}")
        lines.append("}")
        seeds.append(Seed(f"generated/graph-{index}.dot", "\n".join(lines) + "\n"))
    return seeds

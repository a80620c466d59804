"""Repairs of damaged real documents, per (format, family), on fit and held-out sources.

``python -m bench.realcorpus.evaluate [--cases N] [--jobs N] [--dump FILE] ...``

For every (format, damage family) it draws ``--cases`` documents of the
fetched corpus (``fetch.py``) from FIT sources and as many from HELD-OUT ones
(``splits.toml``), damages each with one of the family's operators (seeded),
keeps the damaged texts that the format's check rejects (the bundled grammar
and the format's reference loader, ``fetch.accepts``: a text only the loader
refuses counts, and an engine that offers nothing for it fails), and has
the engine repair them in worker processes with a budget in oracle runs (and
a wall-time safety cap, reported when hit).  It prints, per cell and side,
how often the top repair (and one of the top five) carries the intended data
(``families.Damage``), json-repair's rate on the JSON cases of the same run,
how often the top repair changes a line that the damage did not touch, how
often its title quotes whole words (:func:`title_in_whole_words`), and
whether a second run of a sample gives byte-identical candidates.
``--dump FILE`` writes one JSON line per case with every candidate (its
judgement, the ranking's features, its title, whether it carries the intended data):
what ``fit.py`` fits the ranking's weights to; ``--top N`` keeps more
candidates per case than the five the table reads.
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import re
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bench.damage.judges import keeps_prefix, same_data

from . import engine
from .families import FAMILIES, FAMILY_FORMATS, Damage
from .fetch import Document, accepts, load_documents
from .splits import Splits, load_splits

SIDES = ("fit", "held-out")


@dataclass(frozen=True)
class Case:
    id: str  # FORMAT/FAMILY/SIDE/NNN
    format: str
    family: str
    side: str
    package: str
    path: str
    damage: Damage


def _documents_by_side(
    documents: Sequence[Document], splits: Splits, fmt: str, max_bytes: int
) -> dict[str, list[Document]]:
    chosen = sorted(
        (d for d in documents if d.format == fmt and len(d.text.encode()) <= max_bytes),
        key=lambda d: d.digest,
    )
    return {
        "fit": [d for d in chosen if splits.is_fit_source(d.source, d.package)],
        "held-out": [d for d in chosen if not splits.is_fit_source(d.source, d.package)],
    }


def generate(
    documents: Sequence[Document],
    splits: Splits,
    *,
    formats: Sequence[str],
    families: Sequence[str],
    cases: int,
    seed: int,
    max_bytes: int,
    tries: int = 20,
) -> list[Case]:
    """Up to ``cases`` damaged documents per (format, family, side) that the format rejects.

    One random stream per (seed, format, family, side): a cell's cases do not
    depend on which other cells run."""
    generated: list[Case] = []
    for fmt in formats:
        by_side = _documents_by_side(documents, splits, fmt, max_bytes)
        for family in families:
            operators = FAMILIES[family].get(fmt)
            if not operators:
                continue
            for side in SIDES:
                pool = by_side[side]
                rng = random.Random(f"{seed}/{fmt}/{family}/{side}")
                seen: set[str] = set()
                kept = 0
                for _ in range(cases * tries):
                    if kept == cases or not pool:
                        break
                    document = rng.choice(pool)
                    damage = rng.choice(operators)(document.text, rng)
                    if damage is None or damage.text in seen or accepts(fmt, damage.text):
                        continue
                    seen.add(damage.text)
                    generated.append(
                        Case(
                            f"{fmt}/{family}/{side}/{kept:03d}",
                            fmt,
                            family,
                            side,
                            document.package,
                            document.path,
                            damage,
                        )
                    )
                    kept += 1
    return generated


def carries(case: Case, repaired: str) -> bool:
    """Does ``repaired`` carry the data the damage intends?"""
    if case.damage.prefix:
        return keeps_prefix(case.format, case.damage.text, repaired)
    return any(same_data(case.format, intended, repaired) for intended in case.damage.intended)


def _changed_lines(before: str, after: str) -> set[int]:
    """Lines of ``before`` that ``after`` replaces or deletes (insertions between lines are not)."""
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    changed: set[int] = set()
    for tag, start, end, _, _ in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            changed.update(range(start, end))
    return changed


def touches_untouched_line(case: Case, repaired: str) -> bool:
    """Does the repair change a line of the damaged text that the damage left as it was?

    A truncation cuts the text at its end: the last line that holds more than
    blanks is where it cut (what follows it is blanks the cut left, and a
    separator there is dangling because of the cut), so it and the lines after
    it are touched; lines a completion adds after them are insertions."""
    damaged = case.damage.text
    touched = set().union(*(_changed_lines(damaged, i) for i in case.damage.intended))
    if case.damage.prefix:
        lines = damaged.splitlines()
        last = max((n for n, line in enumerate(lines) if line.strip()), default=0)
        touched.update(range(last, len(lines)))
    return bool(_changed_lines(damaged, repaired) - touched)


_QUOTED = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
"""A fragment a title quotes, in a run of backticks (a fragment that holds
backticks is in a longer run, padded with a blank)."""


def _whole(fragment: str, text: str) -> bool:
    """Does ``fragment`` occur in ``text`` with no word character glued to a
    word character at either of its ends?"""
    start = text.find(fragment)
    while start >= 0:
        end = start + len(fragment)
        glued_before = start > 0 and text[start - 1].isalnum() and fragment[0].isalnum()
        glued_after = end < len(text) and text[end].isalnum() and fragment[-1].isalnum()
        if not (glued_before or glued_after):
            return True
        start = text.find(fragment, start + 1)
    return False


def title_in_whole_words(title: str, damaged: str, repaired: str) -> bool:
    """Does ``title`` quote whole words of the damaged or the repaired text
    (``Insert `</dependency>` ...``, not ``Insert `y></dependenc` after
    `</dependenc` ``), and no line break?  A mechanical stand-in for "names
    what a person would say": a title quoting pieces of words, or an escaped
    line break, names characters rather than the change.  A fragment cut
    short (``…``) or written with escapes is read up to where it was cut."""
    for fence, quoted in _QUOTED.findall(title):
        fragment = quoted[1:-1] if len(fence) > 1 and quoted[:1] == quoted[-1:] == " " else quoted
        if "\\n" in fragment and "\\n" not in damaged:
            return False  # a line break written as an escape (not a text's own `\n`)
        shown = fragment.removesuffix("…").removesuffix(" ...")
        if "\\" in shown or not shown.strip():
            continue
        words = " ".join(shown.split())
        candidates = (damaged, repaired, " ".join(damaged.split()), " ".join(repaired.split()))
        if shown != fragment:  # a title shows line breaks and indentation as one blank
            if not any(words in text for text in candidates):
                return False
            continue
        if not any(_whole(words, text) for text in candidates):
            return False
    return True


def _run(arguments: tuple[str, str, int, float, int]) -> dict[str, Any]:
    text, fmt, max_tests, timeout_s, top = arguments
    try:
        answer = engine.repair(text, fmt, max_tests=max_tests, timeout_s=timeout_s, top=top)
    except Exception as error:  # noqa: BLE001 - an engine failure is a result
        return {"candidates": [], "error": f"{type(error).__name__}: {error}", "capped": False}
    return {
        "candidates": [asdict(candidate) for candidate in answer.candidates],
        "error": None,
        "capped": answer.wall_time_capped,
    }


def run_engine(
    cases: Sequence[Case], *, jobs: int, max_tests: int, timeout_s: float, top: int
) -> list[dict[str, Any]]:
    work = [(case.damage.text, case.format, max_tests, timeout_s, top) for case in cases]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_run, work, chunksize=1))


def run_json_repair(cases: Sequence[Case]) -> dict[str, str | None] | None:
    """json-repair's output for the JSON cases (by id), ``None`` when it is not installed."""
    try:
        import json_repair
    except ImportError:
        return None
    outputs: dict[str, str | None] = {}
    for case in cases:
        if case.format != "json":
            continue
        try:
            outputs[case.id] = str(json_repair.repair_json(case.damage.text, ensure_ascii=False))
        except Exception:  # noqa: BLE001 - a peer's failure is a data point
            outputs[case.id] = None
    return outputs


@dataclass
class Tally:
    cases: int = 0
    top1: int = 0
    top5: int = 0
    peer: int = 0
    peer_cases: int = 0
    untouched: int = 0
    titled: int = 0
    repaired: int = 0
    capped: int = 0


def _rate(count: int, total: int) -> str:
    return f"{100 * count / total:.0f}%" if total else "–"


def table(
    cases: Sequence[Case],
    results: Sequence[dict[str, Any]],
    peer: dict[str, str | None] | None,
    splits: Splits,
) -> tuple[list[str], dict[tuple[str, str, str], Tally]]:
    """The Markdown table, one row per (format, family), fit and held-out side by side."""
    tallies: dict[tuple[str, str, str], Tally] = {}
    for case, result in zip(cases, results, strict=True):
        tally = tallies.setdefault((case.format, case.family, case.side), Tally())
        texts = [candidate["text"] for candidate in result["candidates"]]
        tally.cases += 1
        tally.top1 += bool(texts) and carries(case, texts[0])
        tally.top5 += any(carries(case, text) for text in texts[:5])
        tally.untouched += bool(texts) and touches_untouched_line(case, texts[0])
        if texts:
            tally.repaired += 1
            title = result["candidates"][0].get("title", "")
            tally.titled += title_in_whole_words(title, case.damage.text, texts[0])
        tally.capped += result["capped"]
        if peer is not None and case.id in peer:
            tally.peer_cases += 1
            output = peer[case.id]
            tally.peer += output is not None and carries(case, output)
    lines = [
        "| format | family | fit: cases | top-1 | top-5 | json-repair "
        "| held-out: cases | top-1 | top-5 | json-repair | changes an untouched line "
        "| title in whole words |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for fmt in FAMILY_FORMATS:
        for family in FAMILIES:
            if not any((fmt, family, side) in tallies for side in SIDES):
                continue
            pair = [tallies.get((fmt, family, side), Tally()) for side in SIDES]
            name = family if splits.is_fit_family(family) else f"{family} (held out)"
            cells = []
            for t in pair:
                peer_cell = _rate(t.peer, t.peer_cases) if fmt == "json" and peer else ""
                cells += [str(t.cases), _rate(t.top1, t.cases), _rate(t.top5, t.cases), peer_cell]
            untouched = sum(t.untouched for t in pair)
            titled = f"{sum(t.titled for t in pair)}/{sum(t.repaired for t in pair)}"
            lines.append(
                f"| {fmt} | {name} | " + " | ".join(cells) + f" | {untouched} | {titled} |"
            )
    return lines, tallies


def _totals(tallies: dict[tuple[str, str, str], Tally], splits: Splits) -> list[str]:
    lines = []
    for side in SIDES:
        for held in (False, True):
            chosen = [
                t
                for (_, family, s), t in tallies.items()
                if s == side and splits.is_fit_family(family) != held
            ]
            total = sum(t.cases for t in chosen)
            what = "held-out families" if held else "fit families"
            lines.append(
                f"- {side} sources, {what}: top-1 {_rate(sum(t.top1 for t in chosen), total)} "
                f"of {total} cases"
            )
    return lines


def dump(path: Path, cases: Sequence[Case], results: Sequence[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for case, result in zip(cases, results, strict=True):
            record = {
                "id": case.id,
                "format": case.format,
                "family": case.family,
                "side": case.side,
                "package": case.package,
                "path": case.path,
                "damaged": case.damage.text,
                "intended": list(case.damage.intended),
                "prefix": case.damage.prefix,
                "error": result["error"],
                "candidates": [
                    {
                        "rank": rank,
                        "text": candidate["text"],
                        "algorithm": candidate["algorithm"],
                        "carries": carries(case, candidate["text"]),
                        "edits": candidate["edits"],
                        "judgement": dict(candidate["judgement"]),
                        "features": dict(candidate["features"]),
                        "title": candidate.get("title", ""),
                    }
                    for rank, candidate in enumerate(result["candidates"], 1)
                ],
            }
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=4, help="cases per (format, family, side)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--max-tests", type=int, default=3000, help="oracle runs per repair")
    parser.add_argument("--timeout", type=float, default=20.0, help="wall-time safety cap (s)")
    parser.add_argument("--max-bytes", type=int, default=2048, help="largest document damaged")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--formats", default=",".join(FAMILY_FORMATS))
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument(
        "--determinism", type=int, default=8, help="cases run twice (0: no determinism check)"
    )
    parser.add_argument("--cache", type=Path, default=None, help="the corpus cache folder")
    parser.add_argument("--dump", type=Path, default=None, help="JSON lines, one per case")
    parser.add_argument("--top", type=int, default=5, help="candidates per case (at least 5)")
    options = parser.parse_args(argv)
    splits = load_splits()
    documents = load_documents(options.cache)
    cases = generate(
        documents,
        splits,
        formats=options.formats.split(","),
        families=options.families.split(","),
        cases=options.cases,
        seed=options.seed,
        max_bytes=options.max_bytes,
    )
    settings = {"jobs": options.jobs, "max_tests": options.max_tests, "top": max(5, options.top)}
    results = run_engine(cases, timeout_s=options.timeout, **settings)
    peer = run_json_repair(cases)
    lines, tallies = table(cases, results, peer, splits)
    print("\n".join(lines))
    print()
    print("\n".join(_totals(tallies, splits)))
    every = tallies.values()
    repaired = sum(t.repaired for t in every)
    print(
        f"- top repairs that change a line the damage left as it was: "
        f"{sum(t.untouched for t in every)} of {repaired}; "
        f"titles in whole words: {sum(t.titled for t in every)} of {repaired}"
    )
    capped = sum(t.capped for t in every)
    print(f"- wall-time cap ({options.timeout:g} s) hit: {capped} of {len(cases)} cases")
    if peer is None:
        print("- json-repair is not installed (pip install -e '.[bench]'): its column is empty")
    if options.determinism > 0:
        sample = list(cases[:: max(1, len(cases) // options.determinism)])
        sample = sample[: options.determinism]
        again = run_engine(sample, timeout_s=options.timeout, **settings)
        first = {case.id: result for case, result in zip(cases, results, strict=True)}
        same = sum(
            [c["text"] for c in first[case.id]["candidates"]]
            == [c["text"] for c in result["candidates"]]
            for case, result in zip(sample, again, strict=True)
        )
        print(f"- determinism: {same} of {len(sample)} cases give byte-identical candidates again")
    if options.dump is not None:
        dump(options.dump, cases, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

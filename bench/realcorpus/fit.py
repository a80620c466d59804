"""Fit the ranking's weights to damaged documents whose intended repair is known.

``python -m bench.realcorpus.fit DUMP [DUMP ...] [--out FILE] [--rounds N] [--each-family]
[--start FILE] [--only FEATURE,...]``

A dump (``python -m bench.realcorpus.evaluate --dump FILE --top 10``) holds,
per damaged document, the engine's candidates with the ranking's features
and whether each carries the intended data.  Fitting uses the cases of FIT
sources and families (``splits.toml``) that have a candidate carrying the
data and one that does not; everything else is held out and reported.

The weights start from :func:`hand_weights`, which reproduce the ordering
the ranking had before it was fitted (a lexicographic order of its
criteria, most important first) as far as one weighted sum can: each
criterion outweighs every less important one within their usual range
(:data:`HAND_ORDER`).  Then coordinate ascent (Metzler and Croft's method
for ranking) tries, one feature at a time, to scale its weight by each of
:data:`STEPS` (or to zero it); the best is kept when it ranks a carrying
candidate first in at least ``--min-gain`` more FIT cases (of equal
top-1, the one with more carrying-above-not-carrying pairs wins the
comparison among the trials), until a round changes nothing.  The
weights' magnitudes span many orders (a lexicographic order), which a
gradient on a pairwise loss would move only in very many steps, and the
top-1 count is flat between the points where two candidates swap; a
multiplicative step over a wide grid crosses them.  The result is
deterministic: features are tried in a fixed order, and of equal results
the smallest change (ties keep the current weights).

``--each-family`` also leaves each family out in turn, fits on the FIT
sources of all the others (the families ``splits.toml`` holds out
included) and reports the left-out family's top-1: how the fit carries over
to damage it never saw.  ``--ablate`` refits with each feature's weight held at 0 and
reports top-1 on the fit families: which features the corpus needs.
``--out`` writes the weights file (``grammars/ranking.toml``).

``--start FILE`` starts from the weights in a weights file (the committed
``grammars/ranking.toml``) instead of the hand order, and ``--only`` lets
the ascent move only the features named: a new feature's weight is fitted
on dumps of the damage it was made for while every other weight stays as
the full fit set it (the cases held out and the other families are
reported as always, so that what the new weight costs elsewhere shows).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from inputmend.algorithms.features import NAMES, Weights, WeightsError, load_weights, order_key

from .splits import Splits, load_splits

WEIGHTS = Path(__file__).resolve().parents[2] / "grammars" / "ranking.toml"

HAND_ORDER: tuple[tuple[str, int, int], ...] = (
    # (feature, its usual range, +1: more is worse, -1: more is better), most important first
    ("loader_rejects", 1, 1),
    ("lossy", 1, 1),
    ("misshapen", 32, 1),
    ("changed", 16, 1),
    ("quoted", 4, 1),
    ("data_lost", 32, 1),
    ("escapes_kept", 4, 1),
    ("escapes_removed", 32, 1),
    ("wrapper_removed", 2, 1),
    ("structure_lost", 16, 1),
    ("joined", 4, 1),
    ("dropped", 2, 1),
    ("misplaced", 16, 1),
    ("invented", 4, 1),
    ("unfilled", 4, 1),
    ("punctuated", 4, 1),
    ("absorbed", 4, 1),
    ("reread", 4, -1),
    ("commented", 32, 1),
    ("tail_commented", 32, 1),
    ("divided", 4, 1),
    ("phrase", 8, 1),
    ("entry_commented", 8, 1),
    ("distance", 32, 1),
    ("edits", 4, 1),
    ("layout", 4, -1),
    ("break_lost", 1, 1),
    ("hinted", 1, -1),
    ("style", 16, 1),
    ("convention", 8, 1),
    ("unaligned", 16, 1),
    ("inserted", 16, 1),
)
"""The criteria of the hand-made order, most important first, with the
range over which each one outweighs all later ones.  The escapes and
wrappers a repair removes follow the data lost (the judgement counted them
as lost data before they had features of their own); text it turns into a
comment comes just before the edit distance (hidden, not lost: the loss
limit counts it); punctuation quoted into a value follows tokens changed.
``lines`` and ``resolved`` were no criteria (weight 0): a merge
conflict's resolution already loses no data by the judgement; the side
it takes (``conflict_choice``) is :data:`ARGUED`."""

STEPS = (*(4.0**k for k in range(-8, 9) if k), 0.0)
"""Factors coordinate ascent tries on a weight: powers of 4 from 4⁻⁸ to 4⁸
(a weight may cross the next criterion's, which takes a large step: the hand
weights are orders of magnitude apart), and 0 (the feature unused)."""


FIXED = ("loader_rejects", "lossy")
"""Features whose weights coordinate ascent leaves as the hand order sets
them: they are rules, not preferences.  A repair the format's loader
rejects, or one over the loss limit the user set (``--max-loss``), is never
first while another is not; the corpus has few cases where they matter
and many where they tie, so a fit would trade them for a few cases' gain."""

ARGUED = {"conflict_choice": "distance", "rewritten": "style"}
"""Features whose weights follow from an argument, not from the corpus,
each with the criterion of :data:`HAND_ORDER` it goes before: coordinate
ascent leaves them, and they are set after it to outweigh that criterion
and every later one within their ranges at the weights found
(:func:`argued`).  The side a merge conflict's resolution takes: ours (the
current side, which git and editors offer first), theirs, then both in a
row, right only when each side added something of its own, which the text
cannot tell.  Resolutions lose no data and edit only their marker lines
(:mod:`inputmend.core.conflicts`), so the edit distance and the criteria
after it are where they differ: the layout and style of the version kept
are the writer's, no reason to prefer it.  The merge-conflict family is
held out of fitting (the corpus's other side is made up: a word reversed,
a number changed), so no weight may be learnt from it.  The lines a repair
rewrites: a person mends the line the damage is on and leaves the others
as they were, a lost line's closer on a line of its own; the corpus judges
the data a repair carries, which is the same wherever the closer goes, so
it cannot tell the two apart.  It decides only among repairs equal in
everything else the ranking reads but style (the edit distance leaves out
the layout of inserted lines, so the two are equally far): a shorter
repair, or the hints' own, still comes first (``<img>`` self-closed, not
given ``</img>`` below)."""

MIN_GAIN = 2
"""More FIT cases a change of weight must get right: one case is noise (the
corpus holds a few hundred), and a weight moved for it changes the order of
every repair that feature tells apart."""


def hand_weights() -> dict[str, float]:
    """Weights that order as :data:`HAND_ORDER` does within its ranges: from
    the least important criterion up, each weight is more than the largest
    sum the later ones reach (by a relative margin too: past 2**53 a float
    cannot hold one more)."""
    weights = dict.fromkeys(NAMES, 0.0)
    for position in reversed(range(len(HAND_ORDER))):
        name, _, sign = HAND_ORDER[position]
        weights[name] = sign * _outweighing(weights, HAND_ORDER[position + 1 :])
    return argued({**weights, **dict.fromkeys(ARGUED, 1.0)})


def _outweighing(weights: dict[str, float], criteria: Sequence[tuple[str, int, int]]) -> float:
    """A weight more than the largest sum ``criteria`` reach within their
    ranges at ``weights`` (by a relative margin too)."""
    reach = 0.0
    for name, span, _ in reversed(criteria):  # (the least important first, as ever)
        # a two-sided feature (style) spans its range on both sides of 0
        reach += abs(weights[name]) * span * (2 if name == "style" else 1)
    return reach * (1 + 2**-30) + 1


def argued(weights: dict[str, float]) -> dict[str, float]:
    """``weights`` with each of :data:`ARGUED` set to outweigh the criterion
    it goes before and every later one (one held at 0, to ablate it, stays 0)."""
    result = dict(weights)
    criteria = [name for name, _, _ in HAND_ORDER]
    for name, before in ARGUED.items():
        if result[name]:
            result[name] = _outweighing(result, HAND_ORDER[criteria.index(before) :])
    return result


@dataclass(frozen=True)
class Case:
    """One damaged document: its cell and its candidates' features."""

    id: str
    format: str
    family: str
    side: str
    features: tuple[tuple[float, ...], ...]  # per candidate, NAMES order
    edits: tuple[int, ...]
    carries: tuple[bool, ...]

    @property
    def useful(self) -> bool:
        """Can a ranking get it right or wrong?"""
        return any(self.carries) and not all(self.carries)


def read_dump(paths: Iterable[Path]) -> list[Case]:
    """The cases of ``--dump`` files (candidates without features are left out)."""
    cases: list[Case] = []
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                try:
                    record = json.loads(line)
                    candidates = [c for c in record["candidates"] if c.get("features")]
                    features = tuple(
                        tuple(float(c["features"][name]) for name in NAMES) for c in candidates
                    )
                    cases.append(
                        Case(
                            str(record["id"]),
                            str(record["format"]),
                            str(record["family"]),
                            str(record["side"]),
                            features,
                            tuple(len(c["edits"]) for c in candidates),
                            tuple(bool(c["carries"]) for c in candidates),
                        )
                    )
                except (KeyError, TypeError, ValueError) as error:
                    raise SystemExit(f"{path}:{number}: not a dump record ({error})") from None
    return cases


def _objective(cases: Sequence[Case], weights: Sequence[float]) -> tuple[int, int]:
    """(cases whose first candidate carries, pairs ordered right) under ``weights``."""
    top1 = 0
    pairs = 0
    for case in cases:
        scores = [Weights(tuple(weights)).weigh(f) for f in case.features]
        first = min(range(len(scores)), key=lambda i: order_key(scores[i], case.edits[i], i))
        top1 += case.carries[first]
        for i, good in enumerate(case.carries):
            if good:
                pairs += sum(
                    1
                    for j, bad in enumerate(case.carries)
                    if not bad
                    and order_key(scores[i], case.edits[i], i)
                    < order_key(scores[j], case.edits[j], j)
                )
    return top1, pairs


def fit(
    cases: Sequence[Case],
    start: dict[str, float],
    *,
    rounds: int,
    min_gain: int = MIN_GAIN,
    only: frozenset[str] | None = None,
) -> dict[str, float]:
    """Coordinate ascent from ``start`` on the top-1 (then pairs) of ``cases``:
    per feature (of ``only``, when given), the best of its weight scaled by
    each of :data:`STEPS` or set to 0 (of equal ones, the smallest change),
    kept when it ranks a carrying candidate first in at least ``min_gain``
    more cases; the weights of :data:`FIXED` stay, and no other weight
    reaches theirs; those of :data:`ARGUED` are not fitted but follow the
    others (:func:`argued`)."""
    weights = [start[name] for name in NAMES]
    # the rules stay first: no other weight reaches theirs
    ceiling = min((abs(start[name]) for name in FIXED if start[name]), default=math.inf)
    useful = [case for case in cases if case.useful]
    best = _objective(useful, weights)
    for _ in range(rounds):
        improved = False
        for index in range(len(NAMES)):
            current = weights[index]
            if current == 0.0 or NAMES[index] in FIXED or NAMES[index] in ARGUED:
                continue
            if only is not None and NAMES[index] not in only:
                continue
            trials = []
            for factor in STEPS:
                if abs(current * factor) >= ceiling:
                    continue
                trial = [*weights]
                trial[index] = current * factor
                trials.append((_objective(useful, trial), -abs(math.log(factor or 1e-300)), trial))
            found, _, trial = max(trials, key=lambda t: (t[0], t[1]))
            if found[0] >= best[0] + max(1, min_gain):
                best, weights, improved = found, trial, True
        if not improved:
            break
    return argued(dict(zip(NAMES, weights, strict=True)))


def top1(cases: Sequence[Case], weights: dict[str, float]) -> tuple[int, int]:
    """(cases whose first candidate carries the data, cases with one that does)."""
    values = [weights[name] for name in NAMES]
    chosen = [case for case in cases if any(case.carries)]
    right = 0
    for case in chosen:
        scores = [Weights(tuple(values)).weigh(f) for f in case.features]
        first = min(range(len(scores)), key=lambda i: order_key(scores[i], case.edits[i], i))
        right += case.carries[first]
    return right, len(chosen)


def write_weights(path: Path, weights: dict[str, float], comment: Sequence[str]) -> None:
    """The weights file (see :func:`inputmend.algorithms.features.parse_weights`)."""
    lines = [f"# {line}".rstrip() for line in comment]
    lines += ["", "[weights]"]
    lines += [f"{name} = {weights[name]!r}" for name in NAMES]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _rate(counts: tuple[int, int]) -> str:
    right, total = counts
    return f"{right}/{total} ({100 * right / total:.0f}%)" if total else "–"


def report(cases: Sequence[Case], splits: Splits, named: dict[str, dict[str, float]]) -> list[str]:
    """Top-1 per family, FIT and HELD-OUT sources side by side, per weight set."""
    families = sorted({case.family for case in cases})
    header = "| family | " + " | ".join(
        f"{name}: {side}" for name in named for side in ("fit", "held-out")
    )
    lines = [header + " |", "|---|" + "---:|" * (2 * len(named))]
    for family in [*families, "(all fit families)"]:
        label = (
            family
            if family.startswith("(") or splits.is_fit_family(family)
            else f"{family} (held out)"
        )
        cells = []
        for weights in named.values():
            for side in ("fit", "held-out"):
                chosen = [
                    case
                    for case in cases
                    if case.side == side
                    and (
                        case.family == family
                        or (family.startswith("(") and splits.is_fit_family(case.family))
                    )
                ]
                cells.append(_rate(top1(chosen, weights)))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dumps", type=Path, nargs="+", help="evaluate.py --dump files")
    parser.add_argument("--out", type=Path, default=None, help="write the weights file here")
    parser.add_argument("--rounds", type=int, default=8, help="coordinate ascent rounds (0: hand)")
    parser.add_argument("--each-family", action="store_true", help="leave each family out in turn")
    parser.add_argument("--ablate", action="store_true", help="refit without each feature in turn")
    parser.add_argument(
        "--min-gain", type=int, default=MIN_GAIN, help="cases a change must win (at least 1)"
    )
    parser.add_argument(
        "--start", type=Path, default=None, help="start from this weights file, not the hand order"
    )
    parser.add_argument(
        "--only", default=None, help="fit only these features (comma-separated names)"
    )
    options = parser.parse_args(argv)
    only: frozenset[str] | None = None
    if options.only is not None:
        only = frozenset(name.strip() for name in options.only.split(",") if name.strip())
        unknown = sorted(only - set(NAMES))
        if unknown:
            parser.error(f"--only: unknown feature(s) {', '.join(unknown)}")
    splits = load_splits()
    cases = read_dump(options.dumps)
    training = [c for c in cases if c.side == "fit" and splits.is_fit_family(c.family)]
    hand = hand_weights()
    if options.start is not None:
        try:
            hand = load_weights(options.start).default.as_dict()
        except WeightsError as error:
            parser.error(str(error))
    fitted = fit(training, hand, rounds=options.rounds, min_gain=options.min_gain, only=only)
    print(
        f"{len(cases)} cases, {len(training)} for fitting, "
        f"{sum(c.useful for c in training)} of them with a right and a wrong candidate"
    )
    print()
    start = "start" if options.start is not None else "hand"
    print("\n".join(report(cases, splits, {start: hand, "fitted": fitted})))
    if options.each_family:
        print()
        print("| left-out family | fitted without it: fit sources | held-out sources |")
        print("|---|---:|---:|")
        sources = [c for c in cases if c.side == "fit"]
        for family in sorted({c.family for c in cases}):
            without = fit(
                [c for c in sources if c.family != family],
                hand,
                rounds=options.rounds,
                min_gain=options.min_gain,
                only=only,
            )
            left = [c for c in cases if c.family == family]
            sides = [
                _rate(top1([c for c in left if c.side == s], without)) for s in ("fit", "held-out")
            ]
            print(f"| {family} | {sides[0]} | {sides[1]} |")
    if options.ablate:
        print()
        print("| feature left out (weight 0, refitted) | fit sources | held-out sources |")
        print("|---|---:|---:|")
        chosen = [c for c in cases if splits.is_fit_family(c.family)]
        for name in NAMES:
            without = fit(
                training,
                {**hand, name: 0.0},
                rounds=options.rounds,
                min_gain=options.min_gain,
                only=only,
            )
            sides = [
                _rate(top1([c for c in chosen if c.side == s], without))
                for s in ("fit", "held-out")
            ]
            print(f"| {name} | {sides[0]} | {sides[1]} |")
    print()
    changed = [f"{n}: {hand[n]:g} -> {fitted[n]:g}" for n in NAMES if hand[n] != fitted[n]]
    origin = "the hand order" if options.start is None else str(options.start)
    print(f"weights changed from {origin}: " + ("; ".join(changed) or "none"))
    if options.out is not None:
        comment = [
            "The ranking's weights: a repair's score is the sum of each feature",
            "(inputmend.algorithms.features.Features) times its weight, lower first.",
            "Written by bench/realcorpus/fit.py (see docs/ranking.md for how to refit);",
            "[formats.NAME] tables may override some weights for one bundled grammar.",
            f"Fitted on {len(training)} cases of FIT sources and families"
            + (
                f" ({options.rounds} rounds of coordinate ascent)."
                if options.rounds
                else "; unfitted: the hand order."
            ),
        ]
        if options.start is not None:
            # what the start file says of its own fit, then what was fitted here
            comment[4:] = [
                line[1:].strip()
                for line in options.start.read_text(encoding="utf-8").splitlines()
                if line.startswith("# Fitted on") or line.startswith("# Then")
            ]
            comment.append(
                f"Then {', '.join(sorted(only)) if only is not None else 'all'} fitted on "
                f"{len(training)} cases of FIT sources and families from those weights "
                f"({options.rounds} rounds)."
            )
        write_weights(options.out, fitted, comment)
        print(f"wrote {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

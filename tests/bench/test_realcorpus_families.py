"""The real-document damage families: what each operator breaks and what it intends."""

from __future__ import annotations

import json
import random

import pytest
from bench.damage.judges import data_reader, same_data
from bench.damage.lexing import is_valid
from bench.realcorpus import families as fam
from bench.realcorpus.fetch import accepts

# small documents in the style of the fetched ones (the corpus itself is not in the repository)
SEEDS = {
    "json": [
        '{\n  "name": "demo",\n  "version": "1.2.0",\n  "homepage": "https://example.org/demo",\n'
        '  "keywords": ["cli", "parser"],\n  "pattern": "^v[0-9]+$",\n  "private": false,\n'
        '  "count": 12,\n  "note": "say \\"hi\\" twice"\n}\n',
        '[{"id": 1, "tags": ["a b", "c"]}, {"id": 2, "ratio": 0.5, "owner": null}]\n',
    ],
    "jsonc": [
        '{\n  // compiler options\n  "compilerOptions": {\n    "target": "es2020",\n'
        '    "strict": true,\n    "outDir": "dist build",\n'
        '    "banner": "say \\"hi\\""\n  },\n  "include": ["src"]\n}\n',
    ],
    "yaml": [
        'name: CI\non:\n  push:\n    branches: ["main"]\njobs:\n  test:\n'
        '    runs-on: "ubuntu-latest"\n    steps:\n      - uses: actions/checkout@v4\n'
        '      - run: "make test"\n',
    ],
    "toml": [
        '[project]\nname = "demo"\nversion = "1.0"\ndependencies = ["click>=8", "rich"]\n\n'
        "[tool.ruff]\nline-length = 100\nfix = true\n",
    ],
    "xml": [
        '<?xml version="1.0"?>\n<project>\n  <name>demo</name>\n  <dependencies>\n'
        '    <dependency scope="test">junit</dependency>\n  </dependencies>\n</project>\n',
    ],
    "ini": [
        "[metadata]\nname = demo\nversion = 1.0\n\n[options]\npackages = find:\n"
        "install_requires =\n    click\n    rich\n\n[flake8]\nmax-line-length = 100\n",
    ],
    "csv": [
        'name,size,city\nsmall box,1,Oslo\nbig box,2,New York\n"bag, red",3,Lima\n',
    ],
}

CELLS = [(family, fmt) for family, table in fam.FAMILIES.items() for fmt in table]


@pytest.mark.parametrize(("family", "fmt"), CELLS)
def test_operators_break_the_document_and_intend_valid_data(family: str, fmt: str) -> None:
    """Every damage differs from what it intends, what it intends is valid
    data of the format, and most damaged texts are rejected (the evaluator
    keeps only those; an operator that never breaks a format is useless)."""
    seeds = SEEDS[fmt]
    assert all(is_valid(fmt, seed) for seed in seeds)
    rng = random.Random(f"test/{family}/{fmt}")
    damages = []
    for index in range(30):
        text = seeds[index % len(seeds)]
        damage = rng.choice(fam.FAMILIES[family][fmt])(text, rng)
        if damage is None:
            continue
        if not damage.prefix:  # a truncation intends what is left of the document
            assert all(damage.text != intended for intended in damage.intended)
            for intended in damage.intended:
                assert data_reader(fmt)(intended) is not None, intended
        damages.append(damage)
    assert damages, f"{family} never applies to {fmt}"
    rejected = sum(not accepts(fmt, damage.text) for damage in damages)
    assert rejected >= 3, f"{rejected} of {len(damages)} rejected"


def test_truncation_intends_the_kept_prefix() -> None:
    damage = fam.truncated('{"a": [1, 2]}', random.Random(3))
    assert damage is not None and damage.prefix
    assert damage.intended == (damage.text,) and '{"a": [1, 2]}'.startswith(damage.text)


def test_needs_quoting_intends_the_new_value_quoted() -> None:
    operator = fam.value_needs_quotes("toml", ("BASIC_STRING",))
    damage = operator('name = "demo"\n', random.Random(0))
    assert damage is not None
    intended = damage.intended[0]
    assert is_valid("toml", intended) and not is_valid("toml", damage.text)
    # the damaged text is the intended one without the quotes of the changed value
    assert damage.text.count('"') == intended.count('"') - 2


def test_needs_quoting_with_a_comment_mark_also_intends_the_comment() -> None:
    operator = fam.value_needs_quotes("toml", ("BASIC_STRING",))
    damages = [operator('v = "0.3.3"\n', random.Random(seed)) for seed in range(40)]
    commented = [d for d in damages if d is not None and d.text == "v = 0.3.3 #1\n"]
    assert commented and commented[0].intended == ('v = "0.3.3 #1"\n', 'v = "0.3.3" #1\n')


def test_merge_conflict_accepts_either_side() -> None:
    text = '{\n  "version": 3,\n  "name": "demo"\n}\n'
    damage = fam.merge_conflict("json")(text, random.Random(1))
    assert damage is not None and "<<<<<<< HEAD" in damage.text
    ours, theirs = damage.intended
    assert ours == text and theirs != text and is_valid("json", theirs)


def test_escaped_document_is_the_document_as_a_string_body() -> None:
    damage = fam.escaped_document('{"a": 1}\n', random.Random(0))
    assert damage is not None
    assert damage.text == '{\\"a\\": 1}' and json.loads(f'"{damage.text}"') == '{"a": 1}'


def test_mongo_values_intend_the_plain_value() -> None:
    operator = fam.token_rewrite("json", fam._numbers("json"), fam._mongo)
    damage = operator('{"id": "5f1", "n": 7}', random.Random(2))
    assert damage is not None
    assert "(" in damage.text and same_data("json", damage.intended[0], '{"id": "5f1", "n": 7}')


def test_csv_column_damage_changes_one_record_only() -> None:
    text = "name,size\nsmall box,1\nbig box,2\n"
    for seed in range(10):
        damage = fam.csv_columns(text, random.Random(seed))
        assert damage is not None
        changed = [a != b for a, b in zip(damage.text.splitlines(), text.splitlines(), strict=True)]
        assert sum(changed) == 1 and not changed[0]


def test_csv_fewer_fields_or_a_comma_also_intend_what_a_repair_can_give() -> None:
    text = "name,size,kind\nsmall box,1,a\nbig box,2,b\n"
    kinds = set()
    for seed in range(30):
        damage = fam.csv_columns(text, random.Random(seed))
        assert damage is not None and damage.intended[0] == text
        lines = zip(damage.text.splitlines(), text.splitlines(), strict=True)
        record = next(damaged for damaged, original in lines if damaged != original)
        also = damage.intended[1:]
        if record.count(",") == 1:  # a field lost: also intended empty in its place
            (emptied,) = also
            assert is_valid("csv", emptied) and emptied.count(",") == text.count(",")
            kinds.add("fewer")
        elif ", " in record:  # a comma put in a field: also intended quoted with it
            (quoted,) = also
            assert quoted.replace('"', "") == damage.text and quoted.count('"') == 2
            assert is_valid("csv", quoted)
            kinds.add("comma")
        else:  # a field too many: the original alone
            assert also == ()
            kinds.add("more")
    assert kinds == {"fewer", "comma", "more"}


def test_csv_a_value_lost_from_a_run_of_equal_ones_intends_an_empty_field_at_each() -> None:
    text = "a,b,c,d\n1,0,0,2\n3,0,0,4\n"
    found = set()
    for seed in range(60):
        damage = fam.csv_columns(text, random.Random(seed))  # None: no blank for a comma
        if damage is not None and damage.text == text.replace("1,0,0,2", "1,0,2"):
            found.add(damage.intended)
    assert found == {(text, text.replace("1,0,0,2", "1,,0,2"), text.replace("1,0,0,2", "1,0,,2"))}


def test_ini_continuation_unindents_a_continuation_line_the_document_has() -> None:
    text = "[options]\ninstall_requires =\n    foo\n    bar>=1\nzip_safe = False\n"
    damage = fam.ini_unindented_continuation(text, random.Random(0))
    assert damage is not None and damage.intended == (text,)
    assert damage.text in (text.replace("    foo", "foo"), text.replace("    bar", "bar"))
    # a document that continues no value: a line of words under it would be
    # prose that lost its comment marker as much as a continuation
    assert fam.ini_unindented_continuation("[s]\nkey = value\n", random.Random(0)) is None


def test_lost_end_tag_intends_the_original() -> None:
    text = "<a><b>x</b><c/></a>"
    damage = fam.lost_end_tag(text, random.Random(0))
    assert damage is not None and damage.intended == (text,)
    assert damage.text in ("<a><b>x<c/></a>", "<a><b>x</b><c/>")


def test_lost_end_tag_in_mixed_content_intends_it_after_any_word_of_the_run() -> None:
    text = "<p>see <a>the link</a> for more</p>"
    rng = random.Random(0)
    damage = next(
        d
        for d in (fam.lost_end_tag(text, rng) for _ in range(20))
        if d is not None and "</a>" not in d.text
    )
    assert damage.text == "<p>see <a>the link for more</p>"
    assert set(damage.intended) == {
        text,
        "<p>see <a>the</a> link for more</p>",
        "<p>see <a>the link for</a> more</p>",
        "<p>see <a>the link for more</a></p>",
    }


def test_a_wrapper_that_rewrites_the_final_line_break_intends_either_ending() -> None:
    # a block scalar at the end holds the final line break in its value; a
    # fence writes one of its own, so no repair can know the document had none
    document = "name: demo\nscript: |\n  make test"
    fence = fam.wrapped("yaml", lambda text, rng: f"```yaml\n{text}\n```\n")
    damage = fence(document, random.Random(0))
    assert damage is not None
    assert damage.intended == (document, document + "\n")
    assert not same_data("yaml", document, document + "\n")
    # text put before the document keeps its ending: only the document is intended
    before = fam.wrapped("yaml", lambda text, rng: f"Here it is:\n\n{text}")
    kept = before(document, random.Random(0))
    assert kept is not None and kept.intended == (document,)

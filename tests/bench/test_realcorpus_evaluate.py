"""The real-document evaluator's judgements, and the fetch script's document choice."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from bench.realcorpus.evaluate import Case, carries, title_in_whole_words, touches_untouched_line
from bench.realcorpus.families import Damage
from bench.realcorpus.fetch import (
    Document,
    Package,
    accepts,
    classify,
    extract,
    is_corpus_document,
    merge,
)


def _case(fmt: str, damage: Damage) -> Case:
    return Case(f"{fmt}/test/fit/000", fmt, "test", "fit", "demo", "demo.json", damage)


def test_a_repair_carries_the_intended_data_whatever_its_layout() -> None:
    case = _case("json", Damage('{"a": 1,, "b": 2}', ('{"a": 1, "b": 2}',)))
    assert carries(case, '{"a":1,"b":2}')
    assert not carries(case, '{"a": 1}')


def test_either_intended_text_counts() -> None:
    case = _case("json", Damage("<<<", ('{"v": 1}', '{"v": 2}')))
    assert carries(case, '{"v": 2}') and not carries(case, '{"v": 3}')


def test_a_truncation_is_judged_by_the_kept_prefix() -> None:
    case = _case("json", Damage('{"a": [1, 2', ('{"a": [1, 2',), prefix=True))
    assert carries(case, '{"a": [1, 2]}') and not carries(case, '{"a": [1]}')


def test_a_repair_that_rewrites_a_line_the_damage_left_alone_is_counted() -> None:
    intended = '{\n  "a": 1,\n  "b": 2\n}\n'
    case = _case("json", Damage('{\n  "a": 1\n  "b": 2\n}\n', (intended,)))
    assert not touches_untouched_line(case, intended)
    assert touches_untouched_line(case, '{\n  "a": 1,\n  "b": 2}\n')


def test_a_truncation_touches_its_last_line_that_holds_more_than_blanks() -> None:
    cut = '{\n  "a": {\n    "b": 1,\n    '
    case = _case("json", Damage(cut, (cut,), prefix=True))
    # the dangling separator of the last written line goes, the cut's blanks with it
    assert not touches_untouched_line(case, '{\n  "a": {\n    "b": 1\n  }\n}')
    assert not touches_untouched_line(case, '{\n  "a": {\n    "b": 1}}')
    # a line before it is not the cut's
    assert touches_untouched_line(case, '{\n  "a": {"b": 1}}')


def test_files_are_classified_by_name() -> None:
    assert classify("pkg/tsconfig.build.json", "{}") == "jsonc"
    assert classify("pkg/package.json", "{}") == "json"
    assert classify(".github/workflows/ci.yml", "") == "yaml"
    assert classify("setup.cfg", "") == "ini"
    assert classify("/etc/fonts/conf.d/10-hinting.conf", "<?xml version='1.0'?>") == "xml"
    assert classify("/etc/ld.so.conf", "include x") is None


def test_documents_need_the_grammar_and_the_loader() -> None:
    assert accepts("csv", "a,b\n1,2\n")
    assert not accepts("csv", "a,b\n1,2,3\n")  # the grammar reads it; the column count does not
    assert accepts("csv", "a,b")  # a header cut off: a table of no records, no damage to see
    assert not is_corpus_document("csv", "a,b")  # but no table to damage
    assert is_corpus_document("csv", "a,b\n1,2\n")
    assert accepts("toml", "a = 1\n")
    assert not accepts("toml", "a = 1\na = 2\n")  # tomllib refuses a key defined twice
    assert not accepts("ini", "[s]\na = 1\na = 2\n")  # configparser refuses it too


def test_merge_keeps_each_text_once_for_its_first_package() -> None:
    first = Document("json", '{"a": 1}', "npm", "one", "1.0", "a.json")
    again = Document("json", '{"a": 1}', "npm", "two", "1.0", "b.json")
    other = Document("json", '{"a": 2}', "npm", "two", "1.0", "c.json")
    assert merge([[first], [again, other]]) == [first, other]


def test_extract_keeps_accepted_documents_of_an_sdist(tmp_path: Path) -> None:
    files = {
        "demo-1.0/pyproject.toml": '[project]\nname = "demo"\nversion = "1.0"\n' + "#" * 200,
        "demo-1.0/broken.json": '{"a": 1,,}' + " " * 200,
        "demo-1.0/data/table.csv": "a,b\n" + "1,2\n" * 60,
        "demo-1.0/tiny.json": "{}",  # below the size limit
    }
    archive = tmp_path / "demo-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    documents = extract(Package("pypi", "demo", "1.0"), archive)
    assert sorted((d.format, d.path) for d in documents) == [
        ("csv", "data/table.csv"),
        ("toml", "pyproject.toml"),
    ]


def test_a_title_quoting_pieces_of_words_or_line_breaks_is_not_in_whole_words() -> None:
    damaged = "<list>\n  <item>\n    <id/>\n</list>\n"
    own_line = damaged.replace("</list>", "  </item>\n</list>")
    title = "Insert `</item>` on a line of its own before `</list>`"
    assert title_in_whole_words(title, damaged, own_line)
    glued = damaged.replace("\n</list>", "</item></list>")
    assert not title_in_whole_words("Insert `m></ite` after `</ite`", damaged, glued)
    assert not title_in_whole_words("Remove `\\n` before `</list>`", damaged, glued)
    # a fragment that holds backticks, in a longer run
    assert title_in_whole_words("Remove ```` ```yaml ```` before `a`", "```yaml\na: 1", "a: 1")
    # a fragment cut short, its line breaks and indentation shown as one blank
    cut = "<a>\n  <b>x"
    closed = cut + "</b>\n</a>"
    assert title_in_whole_words("Append `</b> </a…`", cut, closed)
    assert not title_in_whole_words("Append `</b> </c…`", cut, closed)

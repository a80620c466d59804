"""What people get wrong in TOML files, and the repair a person would choose.

The top repair of the whole engine (``services.repair``: the hints in
``grammars/toml.hints.toml``, completion, the searches and the ranking) on
everyday damage: another language's literals and comments, values without
quotes, a lost quote, a cut-off file, a doubled bracket, prose around the
data.  Each expected text is what a person fixing the file by hand writes.
"""

from __future__ import annotations

import tomllib

import pytest

from inputmend import services
from inputmend.oracles.incremental import IncrementalGrammarOracle


@pytest.fixture(scope="module")
def oracle() -> IncrementalGrammarOracle:
    return IncrementalGrammarOracle("toml")


def top(oracle: IncrementalGrammarOracle, damaged: str) -> str:
    repairs = services.repair(damaged, oracle, top=3).repairs
    assert repairs, damaged
    return repairs[0].text


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        # YAML's and INI's booleans are booleans, also inside an inline table
        # and after a quoted key (not the string "yes", not a made-up value)
        ("[ci]\ncache = yes\n", "[ci]\ncache = true\n"),
        ('dep = { path = "x", optional = no }\n', 'dep = { path = "x", optional = false }\n'),
        ('site."example.org" = On\nn = 1\n', 'site."example.org" = true\nn = 1\n'),
        # a command-line option is text, not a number that lost its digits
        ('[pytest]\naddopts = -q\n', '[pytest]\naddopts = "-q"\n'),
        ("[build]\nflags = --release\n", '[build]\nflags = "--release"\n'),
        # a version has two points: no number, a string
        ('[tool]\nversion = 2.10.3\nname = "x"\n', '[tool]\nversion = "2.10.3"\nname = "x"\n'),
        ('hosts = [10.0.0.7, "b"]\n', 'hosts = ["10.0.0.7", "b"]\n'),
        # also in an array written one item a line (not `1, 0.0`)
        ('v = [\n  "a",\n  1.0.0,\n]\n', 'v = [\n  "a",\n  "1.0.0",\n]\n'),
        ('v = [\n  1.2.3,\n  "b",\n]\n', 'v = [\n  "1.2.3",\n  "b",\n]\n'),
        # an unquoted word in an inline table
        ("opt = { level = high, n = 2 }\n", 'opt = { level = "high", n = 2 }\n'),
    ],
)
def test_foreign_values_are_rewritten_not_made_up(
    oracle: IncrementalGrammarOracle, damaged: str, repaired: str
) -> None:
    assert top(oracle, damaged) == repaired


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        # an apostrophe in a literal string: a basic string holds it (not
        # the rest of the value commented out, not the apostrophe deleted)
        ("[pub]\nowner = 'Dana's Books'\n", '[pub]\nowner = "Dana\'s Books"\n'),
        ("who = ['O'Hara', 'x'] # team\n", "who = [\"O'Hara\", 'x'] # team\n"),
        # a date with a one-digit month or day: padded (not its tail commented out)
        ("[trip]\nstart = 2023-7-14\n", "[trip]\nstart = 2023-07-14\n"),
        ("due = 2025-12-3T09:30:00\n", "due = 2025-12-03T09:30:00\n"),
        ("on = [2021-2-8, 2021-02-09]\n", "on = [2021-02-08, 2021-02-09]\n"),
        # a time without seconds; a decimal comma; a date with slashes as text
        ("[shop]\nopens = 8:15\n", "[shop]\nopens = 08:15:00\n"),
        ("at = 2022-06-30 17:45 # local\n", "at = 2022-06-30 17:45:00 # local\n"),
        ("ratio = 0,75\n", "ratio = 0.75\n"),
        ("born = 12/03/1990\n", 'born = "12/03/1990"\n'),
        # quotes inside a string without their backslash, Python's \' in a literal
        ('msg = "Press "OK" to go on"\n', 'msg = "Press \\"OK\\" to go on"\n'),
        ("who = 'Dan\\'s'\n", 'who = "Dan\'s"\n'),
        # a list without its brackets; a number with a unit
        ('[web]\nhosts = "a.io", "b.io" # both\n', '[web]\nhosts = ["a.io", "b.io"] # both\n'),
        ("retries = 3, 5, 8\n", "retries = [3, 5, 8]\n"),
        ("[cache]\nmax = 512MB\nttl = 90s\n", '[cache]\nmax = "512MB"\nttl = "90s"\n'),
    ],
)
def test_another_languages_literal_becomes_the_toml_one(
    oracle: IncrementalGrammarOracle, damaged: str, repaired: str
) -> None:
    assert top(oracle, damaged) == repaired
    tomllib.loads(repaired)


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        # the opening quote lost: the value was a string, not the number 4.2
        ('[deps]\nlib = 4.2"\nother = "1"\n', '[deps]\nlib = "4.2"\nother = "1"\n'),
        (
            '[site]\nname = Harbour Office"\nfloor = 3\n',
            '[site]\nname = "Harbour Office"\nfloor = 3\n',
        ),
        # the closing quote lost: closed at the end of the line, not the line deleted
        (
            '[[talk]]\ntitle = "Tide tables\nroom = 4\n',
            '[[talk]]\ntitle = "Tide tables"\nroom = 4\n',
        ),
        # ... or before the comma that starts the next key of an inline table
        ('x = { mode = "fast, retries = 3 }\n', 'x = { mode = "fast", retries = 3 }\n'),
    ],
)
def test_a_lost_quote_is_put_back_where_the_value_is(
    oracle: IncrementalGrammarOracle, damaged: str, repaired: str
) -> None:
    assert top(oracle, damaged) == repaired


def test_foreign_comments_become_toml_comments(oracle: IncrementalGrammarOracle) -> None:
    damaged = 'a = "x" ; from the old ini\nb = 1990-01-02 /* check */\nc = 3\n'
    assert top(oracle, damaged) == 'a = "x" # from the old ini\nb = 1990-01-02 # check\nc = 3\n'
    spanning = 'a = 1 /* one\n  two */\nb = 2\n'
    assert tomllib.loads(top(oracle, spanning)) == {"a": 1, "b": 2}


def test_prose_around_the_data_is_removed(oracle: IncrementalGrammarOracle) -> None:
    damaged = 'Sure, here it is:\n\n[pool]\nsize = 8\n\nHope this helps you out.\n'
    assert top(oracle, damaged) == "[pool]\nsize = 8\n"


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        # a keyword cut off is completed, not quoted ("tr") nor overwritten (0)
        ("[x]\nlock = tr", "[x]\nlock = true"),
        ("[x]\nlock = fal", "[x]\nlock = false"),
        # a string cut off is closed after its last character, not over it
        ('[x]\nnames = ["ab", "cd', '[x]\nnames = ["ab", "cd"]'),
        # a multi-line string cut off is closed, not emptied
        ('[x]\nbanner = """\nWelcome to', '[x]\nbanner = """\nWelcome to"""'),
        # a key cut off is kept (with a value), not taken for prose and removed
        # (spaced as the file writes its `=`)
        ("[x]\nn = 1\nretr", "[x]\nn = 1\nretr = 0"),
    ],
)
def test_a_cut_off_file_is_completed(
    oracle: IncrementalGrammarOracle, damaged: str, repaired: str
) -> None:
    assert top(oracle, damaged) == repaired


def test_an_array_that_lost_its_opening_bracket_gets_it_back(
    oracle: IncrementalGrammarOracle,
) -> None:
    damaged = 'hosts = "a.example", "b.example"]\nport = 1\n'
    assert top(oracle, damaged) == 'hosts = ["a.example", "b.example"]\nport = 1\n'


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [
        ("steps = [[4, 8, 15]\nname = 'a'\n", "steps = [4, 8, 15]\nname = 'a'\n"),
        ('paths = [\n  "a",\n  "b",\n]]\n', 'paths = [\n  "a",\n  "b",\n]\n'),
    ],
)
def test_a_doubled_bracket_is_removed_not_matched(
    oracle: IncrementalGrammarOracle, damaged: str, repaired: str
) -> None:
    assert top(oracle, damaged) == repaired


def test_a_repair_tomllib_rejects_comes_after_those_it_accepts(
    oracle: IncrementalGrammarOracle,
) -> None:
    # `[servers]` after `[[servers]]` is well formed, but declares servers twice
    damaged = '[[servers]]\nname = "a"\n[[servers]\nname = "b"\n'
    assert top(oracle, damaged) == '[[servers]]\nname = "a"\n[[servers]]\nname = "b"\n'


def test_a_line_that_lost_its_comment_marker_is_commented_not_joined(
    oracle: IncrementalGrammarOracle,
) -> None:
    # `FIXME.connection_max` (the line break replaced by a dot) is as short,
    # but it rewrites the next line too
    intended = (
        '[server]\nhost = "example.org"\nport = 8080\ntimeout = 30\n\n[database]\n'
        'server = "192.168.1.1"\nports = [ 8001, 8002 ]\nconnection_max = 5000\n'
    )
    for key in ("timeout", "connection_max"):
        damaged = intended.replace(f"\n{key} ", f"\nFIXME\n{key} ")
        assert tomllib.loads(top(oracle, damaged)) == tomllib.loads(intended), key

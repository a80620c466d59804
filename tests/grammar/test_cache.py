"""The on-disk cache of what is built per grammar: the same results with it
as without, written atomically and privately, never read from a folder or
file another user could have written, from another version, or when cut
short or corrupt."""

from __future__ import annotations

import marshal
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

import inputmend
from inputmend.grammar import (
    cache,
    compiled,
    hints,
    lark_internals,
    lexer,
    native,
    regex,
    registry,
    syntax,
    tolerant,
)
from inputmend.grammar import patterns as compiling
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.lark_internals import Analysis
from inputmend.oracles.incremental import IncrementalGrammarOracle

NAMES = sorted(registry.bundled())


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh cache folder for the test (the user's is left alone)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(cache.DISABLE, raising=False)
    monkeypatch.setattr(cache, "_TRUSTED", set())
    monkeypatch.setattr(cache, "_NOTED", set())
    monkeypatch.setattr(compiled, "_LOADED", {})  # as a new process loads grammars
    yield tmp_path / "xdg" / "inputmend" / "grammars"


class Builds:
    """A grammar's analysis built with lark, counting the builds."""

    def __init__(self, name: str) -> None:
        self.info = registry.resolve(name)
        self.count = 0

    def __call__(self) -> Analysis:
        self.count += 1
        return lark_internals.analyse(registry.build_parser(self.info), self.info.start)

    def load(self) -> Analysis:
        return cache.load_analysis(self.info, self)


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.iterdir())


@pytest.mark.parametrize("name", NAMES)
def test_a_cached_analysis_equals_the_built_one(folder: Path, name: str) -> None:
    builds = Builds(name)
    built = builds.load()
    again = builds.load()
    assert builds.count == 1
    assert again == built
    # states served by one lark scanner share one lexer, in the cache too
    assert len({id(lexer) for lexer in again.lexers.values()}) == len(
        {id(lexer) for lexer in built.lexers.values()}
    )


@pytest.mark.parametrize("name", ["json", "yaml", "xml", "toml"])
def test_a_grammar_from_the_cache_checks_as_one_built_without_it(
    folder: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    texts = ["", "{", '{"a": [1, 2]}', "a: 1\n  b: 2\n", "<a><b></a>", "x = 1\n[t]\n", "\x00"]
    CompiledGrammar.load(name)  # fills the cache
    cached = CompiledGrammar.load(name)
    monkeypatch.setenv(cache.DISABLE, "0")
    fresh = CompiledGrammar.load(name)
    assert cached.tables.actions == fresh.tables.actions
    assert cached.tables.gotos == fresh.tables.gotos
    assert {s: (v.sources, v.terminals) for s, v in cached.scanners.items()} == {
        s: (v.sources, v.terminals) for s, v in fresh.scanners.items()
    }
    with_cache, without = IncrementalGrammarOracle(cached), IncrementalGrammarOracle(fresh)
    for text in texts:
        assert with_cache.check(text) == without.check(text)


def test_entries_are_private_and_written_whole(folder: Path) -> None:
    Builds("json").load()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(folder.parent.stat().st_mode) == 0o700
    (entry,) = _entries(folder)  # no temporary file left
    assert entry.name.endswith(cache.SUFFIX)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert entry.read_bytes().startswith(cache.MAGIC)


def test_an_entry_is_replaced_by_a_rename(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader sees the old entry or the new one, never a part: the new one
    is written beside it and renamed over it."""
    renames: list[tuple[str, str]] = []
    real = os.replace

    def replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        renames.append((os.fspath(source), os.fspath(target)))
        assert Path(source).parent == Path(target).parent
        assert Path(source).read_bytes().startswith(cache.MAGIC)  # whole before it is renamed
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)
    Builds("json").load()
    assert len(renames) == 1 and renames[0][1].endswith(cache.SUFFIX)


@pytest.mark.parametrize(
    "damage",
    ["truncated", "a byte changed", "empty", "another key", "not marshal", "wrong shape"],
)
def test_a_damaged_entry_is_built_again_and_replaced(folder: Path, damage: str) -> None:
    builds = Builds("json")
    good = builds.load()
    (entry,) = _entries(folder)
    data = entry.read_bytes()
    header, _, payload = data.partition(b"\n")[2].partition(b"\n")
    key = header.split(b" ")[0]

    def framed(content: bytes, name: bytes = key) -> bytes:
        digest = cache.blake2b(content, digest_size=32).hexdigest().encode()
        return cache.MAGIC + name + b" %d " % len(content) + digest + b"\n" + content

    damaged = {
        "truncated": data[: len(data) - 100],
        "a byte changed": data[:-50] + bytes([data[-50] ^ 1]) + data[-49:],
        "empty": b"",
        "another key": framed(payload, b"0" * len(key)),
        "not marshal": framed(b"\xff\x00garbage"),
        "wrong shape": framed(marshal.dumps(("not", "an", "analysis"))),
    }[damage]
    entry.write_bytes(damaged)
    assert builds.load() == good
    assert builds.count == 2
    assert entry.read_bytes() == data  # replaced by a sound entry
    assert builds.load() == good and builds.count == 2


def test_an_entry_of_another_version_is_not_read(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds = Builds("json")
    builds.load()
    monkeypatch.setattr(inputmend, "__version__", inputmend.__version__ + ".1")
    builds.load()
    assert builds.count == 2
    assert len(_entries(folder)) == 2


def test_an_edited_grammar_gets_a_new_entry(folder: Path, tmp_path: Path) -> None:
    grammar = tmp_path / "g.lark"
    grammar.write_text('start: "a"+\n', encoding="utf-8")
    first = CompiledGrammar.load(str(grammar))
    grammar.write_text('start: "b"+\n', encoding="utf-8")
    second = CompiledGrammar.load(str(grammar))
    assert set(first.literals.values()) == {"a"} and set(second.literals.values()) == {"b"}
    assert len(_entries(folder)) == 4  # each: its analysis and its terminals' first characters


@pytest.mark.parametrize("hostile", ["open to all", "group-writable", "another owner"])
def test_a_folder_others_could_write_is_not_used(
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    hostile: str,
) -> None:
    builds = Builds("json")
    builds.load()
    (entry,) = _entries(folder)
    entry.unlink()
    monkeypatch.setattr(cache, "_TRUSTED", set())
    if hostile == "another owner":
        real_uid = os.geteuid()
        monkeypatch.setattr(os, "geteuid", lambda: real_uid + 1)
        reason = "owned by another user"
    else:
        folder.chmod(0o777 if hostile == "open to all" else 0o770)
        reason = "writable by other users"
    builds.load()
    builds.load()
    assert builds.count == 3  # built each time, never read
    assert _entries(folder) == []  # nor written
    notes = capsys.readouterr().err.splitlines()
    assert len(notes) == 1  # once per process
    assert "grammar cache not used" in notes[0] and reason in notes[0]


def test_an_entry_others_could_write_or_a_link_is_not_read(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    builds = Builds("json")
    builds.load()
    (entry,) = _entries(folder)
    entry.chmod(0o666)
    builds.load()
    assert builds.count == 2
    assert "writable by other users" in capsys.readouterr().err
    # a link is never followed: the entry it stands for is written in its place
    elsewhere = tmp_path / "elsewhere"
    os.replace(entry, elsewhere)
    elsewhere.chmod(0o600)
    entry.symlink_to(elsewhere)
    builds.load()
    assert builds.count == 3
    assert not entry.is_symlink()


def test_the_cache_can_be_turned_off(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.DISABLE, "0")
    builds = Builds("json")
    builds.load()
    builds.load()
    assert builds.count == 2
    assert not folder.parent.exists()


def test_a_scanner_dfa_from_the_cache_equals_the_built_one(folder: Path) -> None:
    grammar = CompiledGrammar.load("json")
    sources = {scanner.sources for scanner in grammar.scanners.values()}
    loaded = len(_entries(folder))
    for patterns in sources:
        native.scanner_dfa.cache_clear()
        stored = native.scanner_dfa(patterns)
        native.scanner_dfa.cache_clear()
        assert native.scanner_dfa(patterns) == stored == native.build_dfa(patterns)
    assert len(_entries(folder)) == loaded + len(sources)


def test_reach_automata_from_the_cache_equal_the_built_ones(folder: Path) -> None:
    tokens = hints.hints_beside(registry.bundled()["json"].path).tokens
    sources = tuple((rewrite.pattern.pattern, rewrite.pattern.flags) for rewrite in tokens)
    built = tuple(tolerant.reach_dfa(source, flags) for source, flags in sources)
    loaded = len(_entries(folder)) if folder.is_dir() else 0
    assert tolerant.reach_dfas(sources) == built  # built, and stored
    assert len(_entries(folder)) == loaded + 1
    assert tolerant.reach_dfas(sources) == built  # read back
    assert any(dfa is not None for dfa in built)


def test_a_stored_dfa_of_the_wrong_shape_is_refused() -> None:
    dfa = native.build_dfa((("(?P<A>a+)|(?P<B>b)", 0),))
    assert dfa is not None
    assert native._dfa_from_plain((dfa,)) == dfa
    assert native._dfa_from_plain((None,)) is None
    states, width, start, ascii_classes, high, table, match = dfa
    for bad in [
        (states + 1, width, start, ascii_classes, high, table, match),
        (states, width, start, ascii_classes[:-1], high, table, match),
        (states, width, start, ascii_classes, high, (states, *table[1:]), match),
        (states, width, start, ascii_classes, high, table, list(match)),
        (states, width, states, ascii_classes, high, table, match),
    ]:
        with pytest.raises(ValueError):
            native._dfa_from_plain((bad,))


@pytest.mark.parametrize("name", NAMES)
def test_scanner_regexes_from_the_cache_are_the_compiled_ones(folder: Path, name: str) -> None:
    """A pattern made from the code kept on disk equals (same flags, groups
    and engine code) the one ``re.compile`` makes."""
    grammar = CompiledGrammar.load(name)
    sources = sorted({scanner.sources for scanner in grammar.scanners.values()})
    loaded = len(_entries(folder))
    for patterns in sources:
        expected = tuple(re.compile(source, flags) for source, flags in patterns)
        assert lexer.compile_sources(patterns) == expected  # built, then stored
        assert lexer.compile_sources(patterns) == expected  # from the cache
    assert len(_entries(folder)) == loaded + len(sources)


def test_code_the_engine_refuses_is_built_again(folder: Path) -> None:
    sources = (("(?P<A>a+)|(?P<B>[^\\x00-\\x1f\\u0100-\\uffff]+)", 0),)
    lexer.compile_sources(sources)
    (entry,) = _entries(folder)
    key = entry.name.removesuffix(cache.SUFFIX)
    flags, code, groups, groupindex, indexgroup = regex.compiled_code(*sources[0])
    broken = ((flags, (*code[:-3], 9999, *code[-2:]), groups, groupindex, indexgroup),)
    with pytest.raises(ValueError):
        regex.from_code(sources[0][0], broken[0])
    assert cache.write_entry(entry, key, broken)
    assert lexer.compile_sources(sources) == (re.compile(*sources[0]),)
    assert cache.read_entry(entry, key) == (regex.compiled_code(*sources[0]),)  # replaced


def test_without_a_home_folder_the_cache_is_not_used(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(Path, "home", no_home)
    builds = Builds("json")
    assert builds.load() == builds.load()
    assert builds.count == 2
    assert "no home folder" in capsys.readouterr().err


@pytest.mark.parametrize("name", NAMES)
def test_bracket_patterns_from_the_cache_are_the_compiled_ones(folder: Path, name: str) -> None:
    for _ in range(2):  # built and stored, then from the cache
        brackets = syntax.brackets_of(CompiledGrammar.load(name))
        if brackets is None:
            return
        for pattern in (brackets.pattern, brackets.inside):
            if pattern is not None:
                assert pattern == re.compile(pattern.pattern, pattern.flags & ~re.UNICODE)


HINTED = [name for name in NAMES if hints.hints_path(registry.resolve(name).path).is_file()]


def _load_hints(name: str) -> hints.Hints:
    """The hints of a bundled grammar, read again as a new process reads them."""
    hints._load.cache_clear()
    return hints.hints_beside(registry.resolve(name).path)


def _described(loaded: hints.Hints) -> list[tuple[object, ...]]:
    return [
        (r.name, r.pattern.pattern, r.pattern.flags, r.replace, r.escape, r.kind, r.origin)
        for r in loaded.rewrites
    ] + [
        (w.name, *(None if p is None else (p.pattern, p.flags) for p in (w.before, w.after)))
        for w in loaded.wrappers
    ]


@pytest.mark.parametrize("name", HINTED)
def test_hints_from_the_cache_are_the_compiled_ones(
    folder: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    if not compiling.keepable():
        pytest.skip("the regex module is not installed")
    monkeypatch.setenv(cache.DISABLE, "0")
    fresh = _load_hints(name)
    monkeypatch.delenv(cache.DISABLE)
    _load_hints(name)  # built, then stored

    def no_compiling(source: str, flags: int = 0) -> object:
        raise AssertionError(f"compiled {source!r} again")

    monkeypatch.setattr(compiling, "compile", no_compiling)
    cached = _load_hints(name)
    assert _described(cached) == _described(fresh)
    sample = hints.hints_path(registry.resolve(name).path).read_text(encoding="utf-8")
    sample += " True 'a' // b /* c */ # d <!-- e --> ,] ,} NaN None"
    for mine, theirs in zip(cached.rewrites, fresh.rewrites, strict=True):
        for fact in ("first_chars", "required_chars", "last_char"):
            assert fact in vars(mine)  # read from the cache, not from the pattern
            assert getattr(mine, fact) == getattr(theirs, fact)
        found = [m.span() for m in mine.pattern.finditer(sample, overlapped=True)]
        assert found == [m.span() for m in theirs.pattern.finditer(sample, overlapped=True)]
    assert cached.wrapper_regions(sample) == fresh.wrapper_regions(sample)


@pytest.mark.parametrize("damage", ["other pattern", "wrong shape", "wrong facts"])
def test_damaged_hints_patterns_are_built_again(folder: Path, damage: str) -> None:
    if not compiling.keepable():
        pytest.skip("the regex module is not installed")
    expected = _described(_load_hints("json"))
    (entry,) = _entries(folder)  # the hints' patterns
    key = entry.name.removesuffix(cache.SUFFIX)
    compiled, facts = cache.read_entry(entry, key)
    if damage == "other pattern":  # each pattern with the code of the next one
        codes = [code for _, _, code in compiled]
        compiled = tuple(
            (source, flags, codes[(index + 1) % len(codes)])
            for index, (source, flags, _) in enumerate(compiled)
        )
    elif damage == "wrong shape":
        compiled = compiled[0]
    else:
        facts = tuple((key, ("a", "b"), (), None) for key, *_ in facts)
    assert cache.write_entry(entry, key, (compiled, facts))
    assert _described(_load_hints("json")) == expected
    assert cache.read_entry(entry, key) != (compiled, facts)  # replaced


@pytest.mark.parametrize("name", ["json", "yaml", "toml"])
def test_terminal_patterns_from_the_cache_are_the_compiled_ones(folder: Path, name: str) -> None:
    if not compiling.keepable():
        pytest.skip("the regex module is not installed")
    texts = ['"a', '"ab"', "12.5e", "tru", "# c", "'x", " \t", "[", "a: b"]
    found = []
    for _ in range(2):  # built and stored, then from the cache
        grammar = CompiledGrammar.load(name)
        found.append(
            {
                terminal: [
                    (p.pattern, p.flags, None if m is None else (m.span(), m.partial))
                    for m in [p.fullmatch(text, partial=True) for text in texts]
                ]
                for terminal, p in grammar.patterns.items()
            }
        )
        compiled._LOADED.clear()
    assert found[0] == found[1]
    assert {t: p.pattern for t, p in grammar.patterns.items()} == {
        t: terminal.source for t, terminal in grammar.terminals.items()
    }


@pytest.mark.parametrize("name", NAMES)
def test_first_characters_from_the_cache_are_the_read_ones(
    folder: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    grammar = CompiledGrammar.load(name)  # read, then stored
    expected = {
        t.name: (regex.first_chars(t.source), regex.first_ranges(t.source))
        for t in grammar.terminals.values()
    }
    assert {t.name: (t.first_chars, t.first_ranges) for t in grammar.terminals.values()} == expected
    compiled._LOADED.clear()

    def no_reading(source: str) -> None:
        raise AssertionError(f"read {source!r} again")

    monkeypatch.setattr(compiled, "first_chars", no_reading)
    monkeypatch.setattr(compiled, "first_ranges", no_reading)
    again = CompiledGrammar.load(name)  # from the cache
    assert {t.name: (t.first_chars, t.first_ranges) for t in again.terminals.values()} == expected

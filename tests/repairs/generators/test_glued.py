"""A separator lost between a name and the value glued to it."""

from __future__ import annotations

from inputmend.repairs.generators.glued import (
    GLUED,
    Pairs,
    boundary,
    divisions,
    known_name,
    known_value,
)
from tests.repairs.generators.run import proposed, texts

PAIRS = Pairs(
    frozenset({"Name", "Name[de]", "Comment[de]", "Exec"}), frozenset({"Farben", "app"}), "="
)


def test_a_name_of_the_same_family_is_a_name() -> None:
    assert known_name("Name[it]", PAIRS)  # beside Name[de]
    assert known_name("Comment", PAIRS)  # the stem of Comment[de]
    assert not known_name("Comment[de", PAIRS)  # not written as the family writes it
    assert not known_name("Icon", PAIRS)


def test_a_family_is_written_alike_with_one_word_different() -> None:
    pairs = Pairs(
        frozenset({"Comment[fr]", "GenericName", "X-KDE-PluginInfo-Email"}), frozenset(), "="
    )
    assert known_name("GenericName[fr]", pairs)  # beside Comment[fr]
    assert known_name("Comment[pt_BR]", pairs)  # a word may hold '_'
    assert known_name("X-KDE-PluginInfo-Author", pairs)
    assert not known_name("X-KDE-PluginInfo", pairs)  # not written alike
    assert not known_name("Icon", pairs)  # one word is no family
    assert not known_name("GenericName[fr]x", pairs)


def test_an_index_in_brackets_is_part_of_the_name() -> None:
    assert known_name("Comment[pt_BR]", PAIRS)  # Comment is the stem of Comment[de]
    assert known_name("Exec[0]", PAIRS)
    assert not known_name("Icon[0]", PAIRS)
    assert not known_name("Exec[]", PAIRS)
    assert divisions("Comment[pt_BR]Interface", PAIRS, " para") == [len("Comment[pt_BR]")]


def test_a_new_word_begins_after_punctuation_at_a_capital_or_a_digit() -> None:
    assert boundary("TypeApplication", len("Type"))
    assert not boundary("TypeApplication", len("TypeApplicati"))
    assert boundary("Comment[fr]Texte", len("Comment[fr]"))
    assert boundary("EncodingUTF-8", len("Encoding"))
    assert not boundary("EncodingUTF-8", len("EncodingU"))
    assert boundary("XMLParser", len("XML"))
    assert boundary("Weight60", len("Weight"))


def test_a_name_or_value_the_document_only_resembles_is_not_inside_a_word() -> None:
    truths = Pairs(frozenset({"Terminal"}), frozenset({"false"}), "=")
    assert divisions("TypeApplication", truths) == [len("Type")]
    assert divisions("EncodingUTF-8", truths) == [len("Encoding")]
    family = Pairs(frozenset({"X-KDE-Library", "X-KDE-PluginInfo-Email"}), frozenset(), "=")
    word = "X-KDE-PluginInfo-AuthorDaniel"
    assert divisions(word, family, " Faust") == [len("X-KDE-PluginInfo-Author")]
    assert divisions("X-KDE-PluginInfo-LicenseGPL", family) == [len("X-KDE-PluginInfo-License")]


def test_a_value_of_the_document_or_of_a_shape_of_its_own() -> None:
    assert known_value("Farben", "Name", PAIRS)
    assert known_value("false", "Terminal", PAIRS)
    assert known_value("60", "Weight", PAIRS)
    assert not known_value("60", "py3", PAIRS)  # a number after a digit is not divided
    assert not known_value("Colori", "Name[it]", PAIRS)
    assert not known_value("on", "secti", PAIRS)  # the document writes no truth value
    truths = Pairs(PAIRS.names, PAIRS.values | {"yes"}, "=")
    assert known_value("on", "Debug", truths)
    assert not known_value("on", "Applicati", truths, apart=False)  # inside a word
    assert not known_value("-8", "EncodingUTF", PAIRS)  # a hyphen, not a sign


def test_the_value_is_all_that_follows_the_name_on_its_line() -> None:
    assert divisions("Terminalfalse", PAIRS, "") == [len("Terminal")]
    assert divisions("Terminalfalse", PAIRS, " or true") == []


def test_the_longest_name_comes_first_and_its_stem_is_not_proposed() -> None:
    assert divisions("Name[it]Colori", PAIRS) == [len("Name[it]")]
    assert divisions("Terminalfalse", PAIRS) == [len("Terminal")]


def test_without_support_a_word_is_divided_where_a_new_word_begins_once() -> None:
    assert divisions("CategoriesSettings;", PAIRS) == [len("Categories")]
    assert divisions("lowercase", PAIRS) == []


def test_without_a_capital_a_word_is_divided_before_a_word_written_elsewhere() -> None:
    words = frozenset({"mp3splt", "gtk", "audio", "exec"})
    assert divisions("Execmp3splt-gtk", PAIRS, words=words) == [len("Exec")]
    assert divisions("Keywordsaudio;midi;", PAIRS, words=words) == [len("Keywords")]
    assert divisions("Keywordsaudio;midi;", PAIRS) == []
    assert divisions("Iconmp", PAIRS, words=frozenset({"mp"})) == []  # too short to tell


def test_the_words_written_elsewhere_are_those_outside_the_line() -> None:
    text = "[s]\nName=mp3splt-gtk\nExecmp3splt-gtk\nIcon=x\n"
    found = texts(proposed(GLUED, text, "ini"))
    assert found == [text.replace("Execmp3splt", "Exec=mp3splt")]
    alone = "[s]\nName=x\nExecmp3splt-gtk\nIcon=y\n"
    assert texts(proposed(GLUED, alone, "ini")) == []


def test_the_document_separator_is_put_where_the_names_end() -> None:
    text = "[Desktop Entry]\nName=Colors\nName[de]=Farben\nName[it]Colori\nExec=x\n"
    found = texts(proposed(GLUED, text, "ini"))
    assert found[0] == text.replace("Name[it]Colori", "Name[it]=Colori")


def test_the_separator_is_written_as_the_document_writes_it() -> None:
    text = "[s]\nport = 80\ndebug = true\nverbosefalse\n"
    found = texts(proposed(GLUED, text, "ini"))
    assert found == ["[s]\nport = 80\ndebug = true\nverbose = false\n"]


def test_a_document_without_pairs_gets_nothing() -> None:
    found = proposed(GLUED, "[s]\nTerminalfalse\n", "ini")
    assert found.repairs == () and found.cost.tests == 0

"""The loss rule: the limit on what a repair may lose, and what counts."""

from __future__ import annotations

import pytest

from inputmend.core.loss import LossLimit, plain_words, prose, significant


def test_significant_characters_leave_out_every_kind_of_whitespace() -> None:
    assert significant(' {"a" :\t1,\r\n "b":\u00a02 }\u2028') == 13
    assert significant("") == 0


def test_the_limit_is_a_share_and_a_count() -> None:
    limit = LossLimit()
    assert limit.allows(10, 100) and not limit.allows(11, 100)
    assert limit.allows(64, 10_000) and not limit.allows(65, 10_000)
    assert limit.allows(0, 0) and not limit.allows(1, 0)
    assert LossLimit(0.5, 100).allows(65, 10_000)


@pytest.mark.parametrize(
    ("spec", "limit"),
    [
        ("10%", LossLimit(0.10, 64)),
        ("25%,200", LossLimit(0.25, 200)),
        (" 5% , 200 ", LossLimit(0.05, 200)),
        ("0", LossLimit(0.10, 0)),
        (" 2.5% ", LossLimit(0.025, 64)),
        ("7,100%", LossLimit(1.0, 7)),
    ],
)
def test_limits_are_read_from_the_command_line_form(spec: str, limit: LossLimit) -> None:
    assert LossLimit.parse(spec) == limit


@pytest.mark.parametrize("spec", ["", "ten", "10%,20%,30", "-5", "5%%", "1e3"])
def test_bad_limits_are_refused_with_the_form_to_use(spec: str) -> None:
    with pytest.raises(ValueError, match="PERCENT%, CHARS or PERCENT%,CHARS"):
        LossLimit.parse(spec)


def test_the_limit_describes_itself() -> None:
    assert LossLimit().describe() == "10% or 64 characters"


@pytest.mark.parametrize(
    "line",
    ["this is a comment", "  see issue 42", "keep in sync with production.", "Don't edit this!"],
)
def test_a_line_of_words_is_prose(line: str) -> None:
    assert prose(line)


@pytest.mark.parametrize(
    "line",
    [
        "port 8080",  # a key and its value: two words
        "default",
        "deps  requests-oauthlib, py-yaml",
        "name my_package version one",
        "see https://example.org for more",
        'title "a b c"',
        "",
    ],
)
def test_names_values_and_short_lines_are_not_prose(line: str) -> None:
    assert not prose(line)


def test_words_of_prose_are_plain_however_few() -> None:
    assert plain_words("FIXME") and plain_words("see issue 42") and plain_words("E126,")
    for text in ("suppressed-message", "-r requirements.txt", "src/", "a_b", ""):
        assert not plain_words(text), text

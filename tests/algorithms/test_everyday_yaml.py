"""Everyday YAML damage: the top repair carries the data the file held.

Comments in another language's style, chat prose around the file, lost and
doubled quotes, colons, dashes and brackets.  The top repair of each damaged
text must read (PyYAML's ``safe_load``) as the undamaged one: not a comment
line turned into a key by an invented ``:``, not a lost quote put back where
it swallows lines, not a doubled bracket closed into a nested collection.
"""

from __future__ import annotations

import pytest
import yaml

from inputmend import services
from inputmend.config.defaults import RUN_MAX_TESTS
from inputmend.core.budget import Budget
from inputmend.oracles.incremental import IncrementalGrammarOracle

BUDGET = Budget(max_tests=RUN_MAX_TESTS)
"""Bounded by work as the CLI is, with no wall-time cap: the same answer under any load."""


def _top(damaged: str) -> str:
    result = services.repair(damaged, IncrementalGrammarOracle("yaml"), budget=BUDGET)
    assert result.repairs, damaged
    return result.repairs[0].text


@pytest.mark.parametrize(
    ("damaged", "meant"),
    [
        # comments in C and JavaScript style on a line of their own
        (
            "server:\n  host: example.org\n  // the proxy's port\n  port: 8080\n",
            "server:\n  host: example.org\n  port: 8080\n",
        ),
        (
            "server:\n  host: example.org\n  /* retries before giving up */\n  retries: 3\n",
            "server:\n  host: example.org\n  retries: 3\n",
        ),
        # a chat assistant's sentence before or after the file
        ("Sure! Here is the file\n\nname: demo\nreplicas: 2\n", "name: demo\nreplicas: 2\n"),
        ("name: demo\nreplicas: 2\n\nLet me know if it works.\n", "name: demo\nreplicas: 2\n"),
        # the data's last line break stays (a block scalar keeps its value)
        ("```yaml\nrun: |\n  make test\n```\n", "run: |\n  make test\n"),
        # a lost colon: after the key's word, not at the end of the line; before a
        # block scalar's indicator; after a key of several words above its block
        ("db:\n  host localhost\n  port: 5432\n", "db:\n  host: localhost\n  port: 5432\n"),
        ("kind Service\nmetadata:\n  name: web\n", "kind: Service\nmetadata:\n  name: web\n"),
        ("apiVersion 1\n\nkind: Pod\n", "apiVersion: 1\n\nkind: Pod\n"),  # no prose
        ("welcome text >\n  Hello there\nport: 22\n", "welcome text: >\n  Hello there\nport: 22\n"),
        (
            "nav:\n  - Getting started\n      - Install: a.md\n",
            "nav:\n  - Getting started:\n      - Install: a.md\n",
        ),
        # a lost closing quote: closed where the line ends, not lines later
        (
            'motd: "Welcome home\nport: 22\nbanner: "x"\n',
            'motd: "Welcome home"\nport: 22\nbanner: "x"\n',
        ),
        ("routes:\n  '/api/*:\n    - auth\n", "routes:\n  '/api/*':\n    - auth\n"),
        ('cron: "17 4 * * 1   # every "Monday"\nuser: x\n', 'cron: "17 4 * * 1"\nuser: x\n'),
        ('tags: ["alpha, "beta"]\nsize: 2\n', 'tags: ["alpha", "beta"]\nsize: 2\n'),
        # a lost opening quote: opened where the value begins, not commented out
        (
            'deploy:\n  token: {{ secret_token }}"\n  region: eu\n',
            'deploy:\n  token: "{{ secret_token }}"\n  region: eu\n',
        ),
        # ... also where the value holds the other quote, a comment follows it,
        # or a list item begins with a template
        ("check: 'web' in groups\"\nn: 1\n", "check: \"'web' in groups\"\nn: 1\n"),
        ('paths:\n  - {{ root }}/tasks"\n  - b\n', 'paths:\n  - "{{ root }}/tasks"\n  - b\n'),
        # doubled indicators: the copy removed, not closed into a nested collection
        ("steps:\n  -- uses: git\n  - run: make\n", "steps:\n  - uses: git\n  - run: make\n"),
        (
            "jobs:\n  build:\n    caches: [[npm, node]\n    script: make\n",
            "jobs:\n  build:\n    caches: [npm, node]\n    script: make\n",
        ),
        ("set: !!set {a, b}}\nhost: x\n", "set: !!set {a, b}\nhost: x\n"),
        ("on: [push]]\nname: ci\n", "on: [push]\nname: ci\n"),
        # a value that needs quotes is quoted whole, not edited: one that
        # begins with ': ', or with `*` that no alias name follows, one with a
        # template before its ': ', one in a flow mapping, a key with ' #'
        ("summary: : see below\nname: x\n", 'summary: ": see below"\nname: x\n'),
        ("patterns:\n  - *: all\n  - docs\n", 'patterns:\n  - "*: all"\n  - docs\n'),
        ("dest: {{ home }}: backup\nmode: 1\n", 'dest: "{{ home }}: backup"\nmode: 1\n'),
        (
            "meta: {name: web, note: v2: beta}\nport: 1\n",
            'meta: {name: web, note: "v2: beta"}\nport: 1\n',
        ),
        ("codes:\n  404 #2:\n    text: missing\n", 'codes:\n  "404 #2":\n    text: missing\n'),
        (
            "codes:\n  200: done:\n    text: 'ok'\n  404:\n    text: 'missing'\n",
            "codes:\n  '200: done':\n    text: 'ok'\n  404:\n    text: 'missing'\n",
        ),
        # a value that goes on after the brackets it begins with: a template, a
        # format string, a shell test; a comment after it stays one
        ("src: {{ root }}/lib/app.py\nmode: 1\n", 'src: "{{ root }}/lib/app.py"\nmode: 1\n'),
        ("url: {host}:8080/api # local\nmode: 1\n", 'url: "{host}:8080/api" # local\nmode: 1\n'),
        ("log: [%(levelname)s] %(msg)s\nn: 1\n", 'log: "[%(levelname)s] %(msg)s"\nn: 1\n'),
        (
            "script:\n  - [ -d out ] || mkdir out\n  - make\n",
            'script:\n  - "[ -d out ] || mkdir out"\n  - make\n',
        ),
        # in a flow collection: an item that begins with `*` and no alias name,
        # a value that holds ': ' in a pair of a flow sequence; a key that holds
        # ': ' before a flow mapping
        ("globs: [x, *.md: docs]\nn: 1\n", 'globs: [x, "*.md: docs"]\nn: 1\n'),
        ("globs: [*']\nn: 1\n", "globs: ['*']\nn: 1\n"),  # a lost opening quote
        ("note: *it'\nn: 1\n", "note: '*it'\nn: 1\n"),
        ('globs:\n  - *"  # all\n  - a\n', 'globs:\n  - "*"  # all\n  - a\n'),
        ("jobs: [cron: 0 * * *: nightly]\nn: 1\n", 'jobs: [cron: "0 * * *: nightly"]\nn: 1\n'),
        ("codes:\n  404: gone: {text: no}\n", 'codes:\n  "404: gone": {text: no}\n'),
        # an alias or anchor with more on its line than an alias or an anchored
        # node can be: words after an alias, punctuation glued to a name, an
        # anchor before a text that holds ': '
        ("note: *Read the guide first\nn: 1\n", 'note: "*Read the guide first"\nn: 1\n'),
        ("tags:\n  - &beta+rc\n  - stable\n", 'tags:\n  - "&beta+rc"\n  - stable\n'),
        ("help: &Usage: tool [options]\nn: 1\n", 'help: "&Usage: tool [options]"\nn: 1\n'),
        # a lost colon after a quoted key; after a list item's first word where
        # the next line is the item's next key, not a block under it
        ("codes:\n  '404'\n    text: missing\n", "codes:\n  '404':\n    text: missing\n"),
        (
            'files:\n  - "src" "lib/*.py"\n  - "docs": "*.md"\n',
            'files:\n  - "src": "lib/*.py"\n  - "docs": "*.md"\n',
        ),
        (
            "steps:\n  - name Build it\n    run: make\n  - name: Test\n    run: make test\n",
            "steps:\n  - name: Build it\n    run: make\n  - name: Test\n    run: make test\n",
        ),
    ],
)
def test_the_top_repair_keeps_the_data(damaged: str, meant: str) -> None:
    assert yaml.safe_load(_top(damaged)) == yaml.safe_load(meant)


@pytest.mark.parametrize(
    ("damaged", "meant"),
    [
        # a key one space too deep under its sibling; what it nests stays
        (
            "metadata:\n  name: demo\n   labels:\n    app: demo\nspec:\n  replicas: 2\n",
            "metadata:\n  name: demo\n  labels:\n    app: demo\nspec:\n  replicas: 2\n",
        ),
        # a list item one space too deep: two items, not one mapping
        (
            "steps:\n  - name: build\n    run: make\n   - name: test\n    run: make test\n",
            "steps:\n  - name: build\n    run: make\n  - name: test\n    run: make test\n",
        ),
        # a key two spaces too deep under a scalar
        ("a:\n  b: 1\n    c: 2\n", "a:\n  b: 1\n  c: 2\n"),
        # a value holding ': ' is quoted, not merged with its key
        ("title: Note: read this\nother: 1\n", 'title: "Note: read this"\nother: 1\n'),
    ],
)
def test_a_line_indented_wrong_is_moved_not_given_punctuation(damaged: str, meant: str) -> None:
    assert yaml.safe_load(_top(damaged)) == yaml.safe_load(meant)

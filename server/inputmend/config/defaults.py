"""Every default value, named once.

The command line and ``.inputmend.toml`` share the first group; the language
server runs in the background while the user types, so its time caps are
shorter (second group).  Searches are bounded by work (oracle runs), the same
in the editor as on the command line, so that an input gets the same answer
on any machine under any load; the times are safety caps, reported when
reached (:mod:`inputmend.core.budget`).  The tables of docs/ state the same
numbers.
"""

CONFIG_NAME = ".inputmend.toml"

RUN_MAX_TESTS = 50_000
"""Oracle runs for one repair or explanation run: its work bound."""
RUN_TIMEOUT_S = 30.0
"""Seconds for one repair or explanation run at most: a safety cap."""
TEST_TIMEOUT_S = 10.0
"""Seconds for one run of an external program or Python validator."""
INCOMPLETE_EXIT = 255
"""Exit code meaning "a valid prefix, just incomplete" (the FSynth study's convention)."""
TOP_REPAIRS = 5
"""Repairs offered."""
CANDIDATES_PER_REPAIR = 2
"""Repairs asked of the search per repair offered: equivalent ones are merged."""

SERVER_RUN_TIMEOUT_S = 10.0
"""Seconds for each background run of the language server at most (its work
bound is :data:`RUN_MAX_TESTS`)."""
SERVER_TEST_TIMEOUT_S = 5.0
"""Seconds for one validator run in the language server (an upper bound)."""
SERVER_DEBOUNCE_MS = 300
"""Quiet time after the last change before background work starts."""
SERVER_MAX_BACKGROUND_CHARS = 2_000_000
"""Larger documents get only the fast grammar check."""
SERVER_DIAGNOSIS_TIMEOUT_S = 5.0
"""Failure-inducing spans complement the repairs: at most this long."""
SERVER_QUICK_REPAIR_TESTS = 2_000
"""Oracle runs for the quick repairs offered before the final ranked list."""
SERVER_QUICK_REPAIR_S = 0.5
"""The quick repairs offered before the final ranked list: at most this long
(a safety cap, logged when reached)."""

RECORD_MAX_TESTS = 10_000
"""Oracle runs for repairing one record in record mode (``--records``): the
budget, counted in work so that a record gets the same repair on any
machine under any load and with any engine (the everyday damage of small
records takes a few hundred at most; the worst seen, about 7,000)."""
RECORD_TIMEOUT_S = 10.0
"""Seconds for repairing one record at most: a safety cap behind
:data:`RECORD_MAX_TESTS`, reported when reached."""
MAX_RECORD_BYTES = 1 << 20
"""Larger records are not judged in record mode: passed through, listed as rejected."""
PARTITION_BYTES = 1 << 20
"""Record mode hands the input to its workers in partitions of about this size."""

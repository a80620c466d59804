"""``python -m inputmend``: kept tiny because spawned worker processes re-import it."""

import sys

if __name__ == "__main__":
    from inputmend.cli import run

    sys.exit(run())

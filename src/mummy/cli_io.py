"""Reading the files the ``mummy`` commands are given, with errors said in the command's
words (``cli`` and ``cli_review`` both read records)."""

from __future__ import annotations

import json
import sys

#: What :func:`read_json` returns for a file it could not read (after saying why).
UNREADABLE = object()


def read_json(command: str, path: str) -> object:
    """A JSON file's content, or UNREADABLE after saying why on stderr (shared by the
    commands that read a record: replay, verify, and cli_review's par and review)."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        print(f"mummy {command}: cannot read {path}: {exc.strerror}", file=sys.stderr)
    except UnicodeDecodeError:
        print(f"mummy {command}: {path} is not UTF-8 text", file=sys.stderr)
    except json.JSONDecodeError as exc:
        print(f"mummy {command}: {path} is not JSON: line {exc.lineno}: {exc.msg}", file=sys.stderr)
    return UNREADABLE

"""``python -m sushigo.i18n extract|update|check``: the catalogue commands (docs/i18n.md)."""

from __future__ import annotations

import argparse
import sys

from .extract import ROOT, check_all, extract_all, update_all


def main(argv: list[str] | None = None) -> int:
    """Runs one command; ``check`` exits 1 with one located line per problem."""
    parser = argparse.ArgumentParser(prog="python -m sushigo.i18n", description="Message catalogue tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    extract = sub.add_parser("extract", help="write each domain's POT from the code")
    update = sub.add_parser("update", help="merge the POTs into every language's .po")
    update.add_argument("--keep-obsolete", action="store_true", help="keep entries the code no longer uses")
    for command in (extract, update):
        command.add_argument(
            "--domain", action="append", metavar="NAME", help="only this domain (repeatable; default: all)"
        )
    check = sub.add_parser("check", help="fail on missing, fuzzy or inconsistent translations")
    check.add_argument("--no-code", action="store_true", help="skip comparing the POTs with the code")
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except (OSError, ValueError, SyntaxError) as exc:  # an unreadable file: one line, not a traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "extract":
        changed = extract_all(domains=args.domain)
    elif args.command == "update":
        changed = update_all(keep_obsolete=args.keep_obsolete, domains=args.domain)
    else:
        problems = check_all(code=not args.no_code)
        for problem in problems:
            print(problem)
        if problems:
            print(f"{len(problems)} problem(s)", file=sys.stderr)
            return 1
        print("catalogues ok")
        return 0
    for path in changed:
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    if not changed:
        print("nothing changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``kartentisch analyze``: the cost of every decision in a record."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from kartentisch.analysis import ANALYSERS, analyze
from kartentisch.errors import RulesError
from kartentisch.games import GameSpec, get_game
from kartentisch.i18n import LANGUAGES
from kartentisch.records import ReplayError, load_record
from kartentisch.rulesets import RuleSet

__all__ = ["add_analyze_parser", "replay_file"]


def replay_file(path: str, rules: RuleSet | None = None) -> tuple[GameSpec, Any]:
    """The game a record file is of, and the record replayed by its rules.

    With ``rules`` the record is replayed under that rule set instead of its own
    options (its ``players`` stay the record's unless the rule set sets them).
    Raises :class:`ReplayError` for an action the rules refuse.
    """
    record = load_record(path)
    spec = get_game(record["game"])
    if rules is not None:
        if rules.game != spec.name:
            raise RulesError(
                f"the rule set is for {rules.game}, but the record is of {spec.name}",
                "rules_game",
                game=rules.game,
                expected=spec.name,
            )
        options = rules.record_options()
        own = record.get("options")
        if "players" not in options and isinstance(own, dict) and "players" in own:
            options["players"] = own["players"]
        record = {**record, "options": options}
    return spec, spec.replay(record)


def add_analyze_parser(commands: Any) -> None:
    sub = commands.add_parser(
        "analyze",
        help="what each decision in a record cost, with full and with the seat's information",
    )
    sub.add_argument("record", help=f"a game record (JSON) of {' or '.join(sorted(ANALYSERS))}")
    sub.add_argument("--seat", type=int, default=None, help="analyse only this seat")
    sub.add_argument(
        "--samples",
        type=int,
        default=None,
        help="deals sampled per decision (Slobberhannes 40, Doppelkopf 20)",
    )
    sub.add_argument("--seed", type=int, default=0, help="seed of the sampling (0)")
    sub.add_argument(
        "--deal", type=int, default=None, help="analyse only this deal (numbered from 1)"
    )
    sub.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="language of the text (default en)"
    )
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.set_defaults(func=cmd_analyze)


def cmd_analyze(args: argparse.Namespace) -> int:
    try:
        spec, replayed = replay_file(args.record)
    except ReplayError as exc:
        print(f"kartentisch: error: illegal action in {args.record}: {exc}", file=sys.stderr)
        return 2
    analysis = analyze(
        spec.name, replayed, seat=args.seat, seed=args.seed, samples=args.samples, deal=args.deal
    )
    if args.json:
        print(json.dumps({"game": spec.name, **analysis.to_json()}, ensure_ascii=False))
    else:
        print("\n".join(analysis.text(args.lang)))
    return 0

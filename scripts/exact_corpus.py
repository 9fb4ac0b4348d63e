"""Write the exact tie and leads corpora the coach's tests use (tests/data/exact-corpus.json.gz).

    python3 scripts/exact_corpus.py                 # the checked-in corpus (about a minute)
    python3 scripts/exact_corpus.py --ties 40 --leads 40 --out corpus.json.gz

Matches of two greedy or kid players (seeded) are played under the presets standard,
kings-wild, kids, jokers and all-faces-wild. Every decision with a choice where both
boards have at most 3 slots and one has 2 or 3 is solved exactly
(:func:`trashcards.ai.compare.exact_comparison`: the round's optimal play, valued with
the match-odds table); it goes into

* the **tie corpus** when at least two actions share the best match-win chance exactly
  (within 10⁻⁹: moves such as two wild placements that are worth the same);
* the **leads corpus** when the best action is ahead of every other by at least 2
  percentage points of match-win chance.

Each position is stored as its match's record and the number of moves before it (a
record prefix, as ``trashcards hint FILE --upto N`` reads it), with every legal action's
exact round- and match-win chance for the player to act and the tie group. At most four
positions of each kind come from one match, and each preset gets an equal share.
``exact_corpus()`` in tests/support.py reads the file back into views.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from pathlib import Path
from typing import Any

from trashcards import Rules
from trashcards.ai.compare import EXACT_TOLERANCE, exact_comparison, greedy_choice
from trashcards.bots import make_bot
from trashcards.session import Match

PRESETS = ("standard", "kings-wild", "kids", "jokers", "all-faces-wild")
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "exact-corpus.json.gz"
FORMAT = "trash-exact-corpus/1"
LEAD = 0.02
PER_MATCH = 4


def corpus(ties: int, leads: int, seed: int = 0) -> dict[str, Any]:
    records: list[Any] = []
    found: dict[str, list[dict[str, Any]]] = {"ties": [], "leads": []}
    quota = {"ties": -(-ties // len(PRESETS)), "leads": -(-leads // len(PRESETS))}
    for preset in PRESETS:
        rules = Rules.preset_named(preset)
        have = {"ties": 0, "leads": 0}
        index = 0
        while have["ties"] < quota["ties"] or have["leads"] < quota["leads"]:
            kept = _match(rules, preset, seed, index, have, quota, len(records))
            index += 1
            if kept is not None:
                record, rows = kept
                records.append(record)
                for kind, row in rows:
                    found[kind].append(row)
                    have[kind] += 1
    return {"format": FORMAT, "made_by": "python3 scripts/exact_corpus.py", "lead": LEAD,
            "tolerance": EXACT_TOLERANCE, "records": records, **found}


def _match(rules: Rules, preset: str, seed: int, index: int, have: dict[str, int],
           quota: dict[str, int], number: int) -> tuple[Any, list[tuple[str, Any]]] | None:
    """Play one match; the record (cut after its last kept position) and the positions
    kept, or ``None`` if none was."""
    rng = random.Random(f"exact-corpus:{seed}:{preset}:{index}")
    kinds = [rng.choice(("greedy", "kid")) for _ in range(2)]
    bots = [make_bot(kind, random.Random(rng.random())) for kind in kinds]
    match = Match(rules, kinds, rng)
    match.advance()
    rows: list[tuple[str, Any]] = []
    taken = {"ties": 0, "leads": 0}
    last = 0
    while not match.over:
        state = match.state
        seat = state.to_act
        assert seat is not None
        v = match.view(seat)
        sizes = [p.board_size for p in v.players]
        if max(sizes) <= 3 and max(sizes) >= 2 and len(v.legal) >= 2:
            kind, row = _classify(v)
            if kind is not None and have[kind] + taken[kind] < quota[kind] \
                    and taken[kind] < PER_MATCH:
                upto = len(match.record.moves)
                rows.append((kind, {"record": number, "upto": upto, "preset": preset,
                                    "sizes": sizes, **row}))
                taken[kind] += 1
                last = upto
        match.play(bots[seat].choose(v), seat)
        match.advance()
    if not rows:
        return None
    record = match.record.to_json()
    record["moves"] = record["moves"][:last]
    return record, rows


def _classify(v: Any) -> tuple[str | None, dict[str, Any]]:
    found = exact_comparison(v, v.legal, greedy_choice(v))
    if found is None:
        return None, {}
    seat = v.to_act
    values = {str(a): {"round": found.values[a].round_win.value,
                       "match": found.values[a].match_win.value} for a in v.legal}
    ranked = sorted((x["match"] for x in values.values()), reverse=True)
    row = {"seat": seat, "values": values, "tied": [str(a) for a in found.tied],
           "best": str(found.best)}
    if len(found.tied) >= 2:
        return "ties", row
    if ranked[0] - ranked[1] >= LEAD:
        return "leads", row
    return None, {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ties", type=int, default=240)
    parser.add_argument("--leads", type=int, default=240)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    data = corpus(args.ties, args.leads, args.seed)
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    args.out.write_bytes(gzip.compress(text.encode(), mtime=0))
    print(f"{len(data['ties'])} ties, {len(data['leads'])} leads from "
          f"{len(data['records'])} matches: {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()

"""How many matches the arena needs to tell two agents 1 pp apart at 95 %: plain matches,
duplicate matches, and each with a control variate, measured in the same run.

For each agent, one duplicate run of ``--deals`` deals against ``--opponent`` (every deal
at every seat, 2 players, standard rules, seed 0) gives every estimator at once:

* **plain**: the matches of the plain mode (deal ``d`` at seat ``d · 2 // deals``): the
  per-match variance ``σ²`` of those scores;
* **duplicate**: the per-deal mean over both seats: ``2 · var(deal means)`` per match;
* **+ control variate** (``cv``): the reference agent ``--reference`` (a kernel bot)
  plays the same matches (same deals, same seats, same opponent); its score ``c`` has a
  mean ``μ`` measured on ``--reference-deals`` other deals, and the agent's score is
  replaced by ``y − β (c − μ)`` (``β`` by least squares). The variance counts the
  error of ``μ`` too.

Matches needed (per agent) so that two agents whose win rates against the opponent
differ by ``Δ`` = 1 pp have a 95 % interval of the difference that excludes 0, when the
two are rated on independent deals: ``n = 2 · v · (1.96 / Δ)²`` with ``v`` the
per-match variance above. When the two agents meet the same deals (the arena's default:
the same seed gives every agent the same deals), the difference's variance is that of
``y_A − y_B`` per deal: the ``shared deals`` column, measured on the first two agents.

    python benchmarks/duplicate.py --deals 20000

prints the table of docs/leaderboard.md ("How many matches").
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import numpy.typing as npt

from trashcards.arena import resolve_agent
from trashcards.arena.matches import play_deals
from trashcards.rules import Rules

Z = 1.959963984540054
Floats = npt.NDArray[np.float64]


def plain_part(scores: Floats) -> Floats:
    """The plain mode's matches inside a duplicate run: deal d at seat d·P // deals."""
    deals, players = scores.shape
    seats = np.arange(deals) * players // deals
    out: Floats = scores[np.arange(deals), seats]
    return out


def cv_variance(y: Floats, c: Floats, mu_var: float) -> tuple[float, float]:
    """The per-unit variance of ``y − β (c − μ)`` (β by least squares), with the error
    of ``μ`` (``mu_var``: its variance) counted as if per unit of ``len(y)``; and β."""
    cov = float(np.cov(y, c)[0, 1])
    var_c = float(c.var(ddof=1))
    beta = cov / var_c if var_c > 0 else 0.0
    resid = float((y - beta * c).var(ddof=1))
    return resid + beta ** 2 * mu_var * len(y), beta


def needed(per_match_variance: float, delta: float = 0.01) -> int:
    return int(np.ceil(2 * per_match_variance * (Z / delta) ** 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--agents", default="learned,greedy,kid,sometimes")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--reference", default="greedy")
    parser.add_argument("--reference-deals", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = Rules.preset_named("standard")
    print(f"load {os.getloadavg()[0]:.2f}; {args.deals:,} deals per agent against "
          f"{args.opponent}; reference {args.reference}")
    reference = resolve_agent(args.reference)
    began = time.perf_counter()
    ref = play_deals(reference, args.opponent, rules, 2, args.deals, args.seed, "duplicate")
    # μ of the reference on other deals (a seed no rating uses), both modes' unit
    mu_scores = play_deals(reference, args.opponent, rules, 2, args.reference_deals,
                           args.seed + 10_000_019, "duplicate")
    ref_seconds = time.perf_counter() - began
    mu_plain_var = float(plain_part(mu_scores).var(ddof=1)) / args.reference_deals
    mu_dup_var = float(mu_scores.mean(axis=1).var(ddof=1)) / args.reference_deals
    print(f"reference: {2 * (args.deals + args.reference_deals):,} kernel matches in "
          f"{ref_seconds:.1f} s")
    print("\n| agent | win rate v " + args.opponent + " | plain | duplicate | plain + cv | "
          "duplicate + cv | duplicate ÷ plain | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    rows: dict[str, Floats] = {}
    for name in args.agents.split(","):
        agent = resolve_agent(name)
        began = time.perf_counter()
        scores = play_deals(agent, args.opponent, rules, 2, args.deals, args.seed,
                            "duplicate")
        seconds = time.perf_counter() - began
        rows[name] = scores
        plain = plain_part(scores)
        v_plain = float(plain.var(ddof=1))
        v_dup = 2 * float(scores.mean(axis=1).var(ddof=1))
        v_plain_cv, _ = cv_variance(plain, plain_part(ref), mu_plain_var)
        v_dup_cv, beta = cv_variance(scores.mean(axis=1), ref.mean(axis=1), mu_dup_var)
        v_dup_cv *= 2
        n = [needed(v) for v in (v_plain, v_dup, v_plain_cv, v_dup_cv)]
        print(f"| `{name}` | {scores.mean():.1%} | {n[0]:,} | {n[1]:,} | {n[2]:,} | "
              f"{n[3]:,} (β {beta:.2f}) | {v_dup / v_plain:.2f} | {seconds:.0f} |",
              flush=True)
    names = list(rows)
    if len(names) >= 2:
        a, b = rows[names[0]], rows[names[1]]
        v_indep = float(plain_part(a).var(ddof=1)) + float(plain_part(b).var(ddof=1))
        v_shared_plain = float((plain_part(a) - plain_part(b)).var(ddof=1))
        v_shared_dup = 2 * float((a.mean(axis=1) - b.mean(axis=1)).var(ddof=1))
        print(f"\n{names[0]} against {names[1]} (difference of their win rates v "
              f"{args.opponent}), matches per agent to separate 1 pp at 95 %:")
        for label, v in (("plain, independent deals", v_indep),
                         ("plain, shared deals", v_shared_plain),
                         ("duplicate, shared deals", v_shared_dup)):
            print(f"  {label}: {int(np.ceil(v * (Z / 0.01) ** 2)):,}")
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

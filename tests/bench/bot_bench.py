"""How much the rule-of-thumb bots win against random play (issue 9's figure).

    python tests/bench/bot_bench.py            # 10,000 deals per line
    python tests/bench/bot_bench.py --quick    # 1,000 per line, under a minute
    python tests/bench/bot_bench.py --only stukolka --deals 3000
    python tests/bench/bot_bench.py --search --budget 0.1 --deals 500   # issue 19: search vs rules
    python tests/bench/bot_bench.py --search --iterations 4 --cap --budget 0.1 --deals 5000 --workers 2
    python tests/bench/bot_bench.py --search … --only kopilka --deals 5000 --results tests/bench/results/F.jsonl
    python tests/bench/bot_bench.py --search … --only kopilka --deals 5000 --resume tests/bench/results/F.jsonl

A run of one game can span sessions: ``--results FILE`` writes each finished chunk (its paired sums,
seed, code hash and options: tests/bench/bench_results.py) and ``--resume FILE`` goes on at the next
chunk of the same seed schedule, refusing other code or options; ``--chunks N`` stops after N chunks.

Each line seats one rule bot among random bots (``ukr_pairs``: a rule
partnership against a random one; ``ukr_pairs 1``: one rule bot with a random
partner), moving the rule seat one place on every session so no
seat or dealer position is favoured, and prints the rule seat's money:

* mean kopecks per deal, with a 95% confidence interval.  Deals of a session
  are not independent (Стуколка's pot and Копилка's kitty carry), so the
  interval is the ratio estimator's over whole sessions, not over deals;
* for the points games, money moves only when a game (french3) or a match
  (ukr_pairs) is settled (R24, R30): money per settled game/match is printed
  too, with its interval (u = 1: one kopeck per point);
* the same figure for a random bot in the same seat against the same random
  opponents (the control; the money games are zero-sum, so it hovers at 0);
* the rule bot's decision time, p50 / p99 / max over all its moves.

Sessions: Стуколка — one rotation of the deal, then on until a deal leaves the
pot empty (R44, ``rounds`` = 1), with the house limit ``remiz_cap`` = 90 (three
antes): without it random play makes a pot triple every deal and no mean
exists; Копилка — one partiya (4 deals); french3 — one game; ukr_pairs — one
match; Спекулянт — one deal (K♠ redeals included), on the game's live clock
driven by ``Arena`` in 5-second rounds (every seat may bid, sell, accept or
say ready once per round; a window closes when all are ready or at its
deadline, W = 15 s after the reveal, pushed by bids up to Wmax = 60 s).
Default options otherwise (Спекулянт: 4 players, s = 5, a pot of 20 a deal).

Figures (10,000 deals per line, the 2-core dev machine under a load of ~3;
379 s in all; kopecks, ± 95% CI):

    game         rule/deal        control/deal   rule per session       p50 µs  p99 µs
    stukolka a   +15.67 ± 1.09   +0.74 ± 0.93    +91.3 ± 6.9  /session      34     263
    stukolka b   +25.20 ± 1.20   +0.38 ± 0.70   +139.9 ± 7.6  /session      38    1849
    stukolka v   +36.04 ± 1.68   −1.00 ± 1.39   +403.2 ± 26.4 /session      34     422
    stukolka g   +17.26 ± 1.50   −0.78 ± 1.40    +92.6 ± 8.2  /session      32      55
    kopilka       +4.06 ± 0.51   +0.26 ± 0.47    +16.3 ± 2.0  /partiya       2      38
    french3       +9.23 ± 0.44   −0.23 ± 0.47    +90.3 ± 4.3  /game         17      91
    ukr_pairs     +1.09 ± 0.08   +0.02 ± 0.06    +13.3 ± 0.6  /match        16      65
    ukr_pairs 1   +0.49 ± 0.06   +0.02 ± 0.06     +7.3 ± 0.8  /match        15      51
    speculator  +144.55 ± 2.75   +0.67 ± 0.80   +144.5 ± 2.8  /deal         11      27

The slowest single move was 146 ms (stukolka b, a load spike: its costliest
decision, a declaration valued by sampled buys, takes about 0.4 ms when
timed alone); ``--quick`` takes about 35 s.
Спекулянт's large figure is mostly random bidders paying up to the whole pot
for a card worth a fraction of it, and random holders selling for a kopeck.

The search bot against the rule bot in its seat (``--search``, issue 19), rule bots around, the
paired difference per deal (kopecks, ± 95% CI; for the points games the money of settled games and
matches, as above); ``--iterations N --cap --budget S``: N imagined worlds a move or S seconds,
whichever ends first; ``--workers 2`` cuts the deals into chunks of 50, each chunk's two arms paired.
``worlds`` is the mean number of imagined deals per searched decision, ``rules%`` the decisions with
a choice it left to the rule bot (no world agreed in time, or too few effective ones).  Measured on
the shared 2-core machine at a load of 7–12 (other engineers' jobs; b's 5,020 deals at ≈ 3), 4 worlds
or 0.1 s a move:

    game         deals  difference/deal  p50 ms  p99 ms  max ms  worlds  rules%  verdict
    stukolka a    5138   +0.60 ± 0.78      63     136     276     3.7     4.8   no difference shown
    stukolka b    1096   +2.12 ± 1.91     110     142     172     2.3     6.6   beats (the first chunks of:)
    stukolka b    5020   +2.15 ± 1.52      50     108     151     3.9     0.3   beats (load 3)
    stukolka v    1059   −0.23 ± 1.93     108     142     182     2.5     3.3   no difference shown
    stukolka g    5149   +0.60 ± 0.75      89     145     173     3.5     8.8   no difference shown
    ukr_pairs     1092   +0.17 ± 0.11      97     127     192     3.3     0.5   beats (the first chunks of:)
    ukr_pairs     5396   +0.06 ± 0.05     102     143     313     3.0     1.9   beats
    french3        425   +0.12 ± 0.35     111     174     229     1.8    11.4   no difference shown
    kopilka        416   +1.29 ± 1.28     361    7494   30663     3.9    31.0   beats (4 worlds, no cap)
    speculator      30   +0.00 ± 0.00     242    2605    4666     2.0     0.0   no difference (2 worlds, cpu p99 181 ms)

Копилка (engine/bots/kopilka_worlds.py: decks built to the lay-outs' shapes) and Спекулянт
(engine/bots/speculator_search.py: searched inside its windows only) were measured at a load of 11–19
with ``--iterations N`` and no seconds cap, so the load does not change their strength; ``cpu p99``
(a newer column) is the CPU time of a move, what it would take on an idle machine.  Копилка's
interval excludes 0 over 416 deals only (not 5,000), at a wall p99 of 7.5 s under that load — over
the 1 s target: a decision whose imagined decks keep failing tries up to 64 fresh ones; 31 % of its
decisions found no world agreeing and were left to the rules.  A
shorter run with the CPU column (40 deals, load 9–12): wall p99 3,281 ms, cpu p99 570 ms — under 1 s
idle.  Спекулянт's line is no evidence of strength: at 2 worlds its rule (4 worlds at least before
leaving the rule bot's choice) keeps it to the rules by construction — the 4-world run (100 deals)
did not finish in time; in two deals at 4 worlds (137 searched decisions) it never left them either.
Why that is to be expected (the same money in both arms): nobody sees
a face-down card, every seat prices the best card alike (its hold chance × the pot), so the rule
bots never trade among themselves and every trade the search could offer them (a bid at or above the
card's worth, or a sale at their 0.8 of it) loses what it pays; a 2-standard-error margin keeps it
out of them.  Beating the rules there would need opponents that misprice.

At a load of 8–12 the 0.1 s cap binds before the 4th world in Стуколка b/v and the French game; p99
is 27–74 % over 0.1 s (the playout in progress finishes), far under 1 s.  The issue's target (≥ 5,000
deals a line, an interval excluding 0 in every game, at ≤ 1 s a move) is met by the pairs game and
Стуколка b only; Стуколка a and g lean +0.6 over 5,000 deals, an interval still including 0; v and
the French game show nothing (fewer deals); Копилка beats the rules over 416 deals (not 5,000);
Спекулянт shows nothing.

(The lines above were measured with the earlier margin, 1 standard error over 2+ worlds, and the
balance alone: ``--margin 1 --min-worlds 2 --no-pot-share`` repeats them.)

The decision margin (engine/bots/margin.py, issue 19 again): the paired difference is made only where
the search bot leaves the rule bot's choice, so it leaves it only for a candidate better by k standard
errors over the same worlds, n worlds at least (``--margin K --min-worlds N``; now k 1.5, n 4), and a
Стуколка playout counts 1/n of the carried pot with the balance (``--no-pot-share``: the balance alone).
Tuned on seed 7 only (the final lines below: seed 31).  Paired, 4 worlds a move, ~1,000 deals, load 2–8:

    stukolka a   k 1, n 2, balance      −2.55 ± 1.87   left 11.4 %    (loses)
    stukolka a   k 0, n 2, balance      −3.12 ± 2.79   left 24.8 %    (loses)
    stukolka a   k 1, n 2, pot shared   −1.28 ± 1.97   left 11.6 %
    stukolka g   k 1, n 2, balance      +0.68 ± 1.64   left  7.5 %
    stukolka g   k 0, n 2, balance      −0.31 ± 2.59   left 18.7 %
    stukolka g   k 1, n 2, pot shared   +0.62 ± 1.74   left  8.0 %

A session's noise hides the margin's effect at these sizes, so tests/bench/margin_bench.py judges it
offline: the rule bot's own sessions, every decision searched at up to 32 worlds and every candidate
played out once on the real deal to the session's end (the Стуколка rule bot is a pure function of its
view: that is the candidate's exact worth under the rules' continuation); each (worlds, k, n) is
replayed on the same decisions.  Session gain a deal, ± 95 %, seed 7, ~300 deals, pot shared:

    worlds  k     stukolka a (562 decisions)     stukolka g (329 decisions; 506 in a first run)
    4       1     −0.16 ± 6.19  left 10.7 %      +0.03 ± 1.45   (first run +0.13 ± 4.23)
    4       2     −0.39 ± 3.37  left  3.4 %      −0.46 ± 0.65   (first run −1.55 ± 3.08)
    8       2     +3.34 ± 1.95  left  4.1 %      −0.17 ± 1.04   (first run −0.76 ± 2.65)
    16      1     +5.52 ± 3.52  left 12.8 %      +1.16 ± 2.34   (first run −2.11 ± 4.33)
    16      1.5   +3.64 ± 2.72  left  7.5 %      +0.73 ± 1.82   (first run −1.62 ± 3.40)
    16      2     +1.88 ± 2.63  left  3.2 %      −0.10 ± 1.27   (first run −0.89 ± 2.58)
    16      3     +1.20 ± 1.64  left  1.1 %      +0.00 ± 0.00   (first run +0.10 ± 1.93)
    32      1.5        —                         +0.66 ± 2.19
    32      2.5        —                         +0.59 ± 1.61

(n 2, 4 and 8 gave the same rows: with no clock every candidate is weighed in every world, so n
matters only where a cap cuts the worlds short.)  What it
says: at 4 worlds no margin gains anything — a departure is as often wrong as right, and a wider
margin only makes fewer of them; the worlds are the lever (a at 8–16 worlds gains at every k), and
the margin then trades gain for variance (k 1 gains most in a, k 1.5–2 keeps g from losing).  In g
the rule bot is hard to beat: every departure's true worth is about 0.  (The probe of the a run and of
the first g run still left the rules on gains the same in every world, so their deals were not quite
the rules'; fixed since.)  Chosen: 16 worlds, k 1.5, n 4.

The measurement (seed 31, never tuned on; ``--search --iterations 16 --cap --budget 0.8 --margin 1.5
--min-worlds 4 --workers 2 --deals 5000 --seed 31``, under ``nice -n 15`` at a load of 6–15: seven
engineers on two cores — a: load 6.4 at the start, 12.7 at the end; g: 9.6 and 12.7; kopecks a deal,
± 95 %; wall and CPU ms a decision with a choice):

    game         deals  difference/deal  p50 ms  p99 ms  max ms  cpu p50  cpu p99  worlds  rules%  left%
    stukolka a    5174   +0.62 ± 0.63     598    1104    1532     52.3    121.1    13.9     0.6    6.9
    stukolka g    5096   +2.08 ± 0.72     679    1207    2039     44.1    100.2    13.0     1.5    6.2   beats
    stukolka a    5100   +1.65 ± 0.63     234    1246    2130     48.1    165.0    14.0     1.3    7.2   beats (seed 32)
    stukolka a   10274   +1.13 ± 0.45                                                                  beats (both seeds)

and at 0.1 s a move (``--iterations 16 --cap --budget 0.1``, the same margin, seed 33, two runs at once,
load 3.9 at the start, 6.7–7.7 at the end):

    stukolka a    5244   +0.53 ± 0.50     107     154     613     20.3     64.2     6.3     5.6    3.9   beats
    stukolka g    5162   +0.88 ± 0.51     107     152     431     19.4     59.5     6.9     6.3    3.6   beats

Стуколка g beats the rules: +2.08 ± 0.72 (the earlier +0.60 ± 0.75 at 4 worlds, k 1) — more than the
offline judge's ~0 on seed 7 promised (it ignores that the bot searches again at its next move).
Стуколка a on seed 31: the same mean as the earlier +0.60, the interval narrowed from ± 0.78 to
± 0.63 — but its lower end is −0.01: not an interval excluding 0.  So it was run again, the same
command on seed 32 (decided before its result was seen; load 13.5 at the start, 4.8 at the end):
+1.65 ± 0.63, beats; both together (the two intervals combined by their deals) +1.13 ± 0.45.  The
second run is a replicate chosen after the first missed, not one fixed in advance: read it so.  The wall p99s (1,104 and 1,207 ms) are over 1 s
only because the niced runs got a sixth of a core (a load of 12–15): their CPU p99s are 121 and 100 ms,
so on an idle machine a move takes ~0.12 s p99 at 16 worlds; the 0.8 s cap cut a few decisions (13–14
worlds a decision on average).  At 0.1 s a move both beat the rules too, by less (6–7 worlds a
decision at a load of 4–8; rules% is the decisions cut to fewer than the margin's 4 worlds), wall p99
about 150 ms; at a load of 12–15 (≈ 4 worlds) the offline judge above shows no gain at any margin.

Спекулянт, looked at again (tests/bench/speculator_judge.py, the rule bots' own deals, 20,000 deals a
seed, seeds 51 and 52 stated before they ran; kopecks a window, ± 95 % over deals, pot 20):

    seed  trades among rules  calibration (brought − worth)  buy at ceil(worth)        sell to the rules' top bid
    51    0                   +0.062 ± 0.104 (exact 0)       −0.486 ± 0.104 (−0.548)   −3.535 ± 0.132 (−3.452)
    52    0                   −0.082 ± 0.105 (exact 0)       −0.630 ± 0.105 (−0.548)   −3.384 ± 0.132 (−3.487)

A seat's money moves only by its fixed antes, the pot and its own trades, and the rule bots never trade
among themselves, so the search bot's money differs from the rule bot's in its seat only by its trades
with rule bots.  Those are: buying from a rule holder, who sells at the card's worth or more (the
buyer's expectation is worth − price ≤ 0), or selling to rule bidders, who stop at 0.8 of it (−0.2 of
the worth).  The worth is exact — the reveals to come are a uniform draw of the unseen cards for every
seat, and the realized pots agree with it in every hold-chance bin (seed 51's 0.20–0.40 bin, +0.32 ±
0.26, one of six at the edge; seed 52 the same bin −0.12 ± 0.25) — so no trade with a rule bot gains,
before or after any other, and the best any seat can do against them is the rule bot's money exactly.
There is no other decision: the reveals are forced (R61), the last one has no window (R64).  The
search now weighs no trade that cannot gain (``speculator_search.at_a_loss``): against rule bots it
never trades, the same money as the rules deal by deal (a difference of 0, never an interval
excluding it); against traders who misprice (random bots, people) it still buys under the worth and
sells over it.

Копилка, the French game and Стуколка v at the default budget (``--search --iterations 16 --cap --budget
0.8 --progress``, one process each under ``nice -n 19``, seeds 41, 42, 43 stated before; two runs at
once, started 22:24 at a load of 0.9, stopped at 23:40 at a load of 11.2 — other engineers' jobs; the
running figure of the last whole chunk, kopecks a deal, ± 95 %):

    kopilka   1,508 deals   +0.93 ± 0.48   beats over 1,508 deals (not the 5,000 asked); +1.11 ± 0.56 at 884
    french3     630 deals   +0.36 ± 0.39   no difference shown (630 deals; ≈ 5 s a deal for both arms)
    stukolka v    — not run (no slot: the two above held the two at once until the end)

The move times of a stopped run are not printed (they come at its end); a 104-deal Копилка run at the
same budget at a load of 1.4 (seed 1, a check of ``--progress``, its money not a figure) gave wall p50
112 / p99 800 ms, CPU p99 798 ms: Копилка's 16 worlds hit the 0.8 s cap (15.6 worlds a decision,
28.6 % of decisions left to the rules for want of agreeing worlds).

The next session (2026-12-02): the same decisions at less CPU (c5419a1; the search's deals traced
action by action, seed 7, 16 worlds a move without a clock, the old code and the new at the same time):
French 20 deals identical, CPU 83.8 → 35.3 s (2.4×; load 4.5–6.3) — a world frozen at the exchange
pickled the game's memo of 4096 buys into every playout's copy, and each rule bot's look at the exchange
listed them again; Копилка 12 deals identical, CPU 17.6 → 15.3 s (load 2.5–3.9) — its cost is the
worlds (80 % of a decision: about 9 replays of the deal for each world kept).  Runs that span sessions
(``--results``/``--resume``, tests/bench/results/README.md: seeds 61–65 stated before they started,
5,000 deals fixed for each); all started 01:57–02:16 under ``nice -n 19`` beside two other engineers'
work, stopped at 03:02 UTC (load 3.0), to be resumed:

    game      cap    seed  deals  difference/deal  moves  >1 s wall  >1 s cpu  worlds  rules%  left%  (partial)
    kopilka   0.8 s    61   1508   +1.62 ± 0.58      8977    165  1.8%     0  0.0%   13.9   32.9    7.8  leads
    french3   0.8 s    62    772   +0.41 ± 0.27      8035    161  2.0%     0  0.0%   14.2    0.3   11.2  leads
    kopilka   0.1 s    64   3900   +0.31 ± 0.20     23512     22  0.1%     0  0.0%    5.4   47.1    3.0  leads
    french3   0.1 s    65    102   +0.02 ± 0.04      1149      0  0.0%     0  0.0%    3.1    5.0    1.9  (2 chunks only)

Partial runs are no verdict: each ends at its fixed 5,000 deals, whatever the interval says before.
Time a move (this session's processes, their last progress line; wall under a load of 3–9 at nice 19):
Копилка 0.8 s wall p50 347 / p99 1,145 ms, CPU p50 116 / p99 558 ms; French 0.8 s wall 398 / 1,124,
CPU 116 / 502; Копилка 0.1 s wall 107 / 260, CPU 36 / 100.  The wall p99 over 1 s is the niced run's
waits (no move took 1 s of CPU); Стуколка v was not run (no core free).
"""


from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_results  # noqa: E402  (tests/bench/, beside this file)
from engine.bots import make_bot  # noqa: E402
from engine.bots.arena import Arena  # noqa: E402
from engine.game import Game, ShuffledDecks  # noqa: E402
from engine.games import get_game  # noqa: E402

MAX_SESSION = 400
"""A session that has not ended by then stops (none did in our runs)."""


@dataclass
class Case:
    label: str
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    unit: str = "deal"  # what one session is, for the per-session figure
    team: bool = False  # ukr_pairs: the rule seat's partner is a rule bot too


CASES = [
    Case("stukolka a", "stukolka", 4, {"variant": "a", "rounds": 1, "remiz_cap": 90}, "session"),
    Case("stukolka b", "stukolka", 4, {"variant": "b", "rounds": 1, "remiz_cap": 90}, "session"),
    Case("stukolka v", "stukolka", 5, {"variant": "v", "rounds": 1, "remiz_cap": 90, "dark": True,
                                       "razrez": True}, "session"),
    Case("stukolka g", "stukolka", 4, {"variant": "g", "rounds": 1, "remiz_cap": 90}, "session"),
    Case("kopilka", "kopilka", 4, {}, "partiya"),
    Case("french3", "french3", 3, {}, "game"),
    Case("ukr_pairs", "ukr_pairs", 4, {}, "match", team=True),
    Case("ukr_pairs 1", "ukr_pairs", 4, {}, "match"),
    Case("speculator", "speculator", 4, {}, "deal"),
]


def session_over(game: Game, case: Case, deals: int) -> bool:
    if deals >= MAX_SESSION:
        return True
    if case.game == "stukolka":
        return game.is_over()
    if case.game in ("french3", "ukr_pairs", "kopilka"):
        return game.natural_end()
    return True  # speculator: one deal


@dataclass
class Result:
    money: list[int] = field(default_factory=list)  # per session, the rule seat
    deals: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # the search arm: CPU seconds a decision (idle time)
    searched: int = 0  # the search arm: decisions searched, imagined worlds, decisions left to the rules
    samples: int = 0
    fallbacks: int = 0
    departed: int = 0  # the search arm: searched decisions that left the rule bot's choice

    def extend(self, other: "Result", sessions: int) -> None:
        """Add another chunk's first ``sessions`` sessions (a chunk's two arms are paired session by session)."""
        self.money += other.money[:sessions]
        self.deals += other.deals[:sessions]
        self.times += other.times
        self.cpu += other.cpu
        self.searched += other.searched
        self.samples += other.samples
        self.fallbacks += other.fallbacks
        self.departed += other.departed


def run(case: Case, deals: int, rule: str, seed: int, others: str = "random", budget: float | None = 0.1,
        iterations: int | None = None, margin: Any = None, pot_share: bool = True) -> Result:
    """Sessions until ``deals`` deals are played; the ``rule`` kind sits at the moving seat.

    ``rule`` "search" seats the search bot (``budget`` seconds a move) at the moving seat only (its
    partner, in the team case, stays a rule bot); ``others`` is the kind of everyone else."""
    cls = get_game(case.game)
    names = [f"P{i}" for i in range(case.players)]
    result = Result()
    rng = random.Random(seed)
    played = session = 0
    searchers: list[Any] = []
    while played < deals:
        seat = session % case.players
        ours = {seat, (seat + 2) % case.players} if case.team else {seat}
        seeds = [rng.randrange(2**32) for _ in range(case.players)]
        bots = [make_bot(case.game, (rule if rule != "search" else "rule") if s in ours else others, seeds[s])
                for s in range(case.players)]
        if rule == "search":
            from engine.bots.search import SearchBot

            bots[seat] = SearchBot(case.game, seeds[seat], budget=budget, iterations=iterations, margin=margin,
                                   pot_share=pot_share)
            bots[seat].times = result.times  # its decisions with a choice, timed by the bot itself
            bots[seat].cpu = result.cpu
            searchers.append(bots[seat])
            ours = {seat}
        game = cls(names, case.options, dealer=rng.randrange(case.players))
        timed = rule == "rule"
        timer = (lambda s, t: result.times.append(t) if s in ours else None) if timed else None
        arena = Arena(game, bots, rng=random.Random(rng.randrange(2**32)), timer=timer)
        decks = ShuffledDecks(cls.deck_size, rng.randrange(2**63))
        count = 0
        while True:
            arena.play_deal(decks)
            count += 1
            if session_over(game, case, count):
                break
        result.money.append(game.balances[seat])
        result.deals.append(count)
        played += count
        session += 1
    result.searched = sum(b.searched for b in searchers)
    result.samples = sum(b.samples for b in searchers)
    result.fallbacks = sum(b.fallbacks for b in searchers)
    result.departed = sum(b.departed for b in searchers)
    return result


def per_deal(result: Result) -> tuple[float, float]:
    """Mean money per deal and the half-width of its 95% interval (ratio estimator over sessions)."""
    m, d = result.money, result.deals
    k = len(m)
    ratio = sum(m) / sum(d)
    if k < 2:
        return ratio, math.inf
    mean_d = sum(d) / k
    var = sum((mi - ratio * di) ** 2 for mi, di in zip(m, d)) / (k - 1)
    return ratio, 1.96 * math.sqrt(var / k) / mean_d


def per_session(result: Result) -> tuple[float, float]:
    m = result.money
    if len(m) < 2:
        return float(m[0]) if m else 0.0, math.inf
    return statistics.fmean(m), 1.96 * statistics.stdev(m) / math.sqrt(len(m))


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="1,000 deals per line instead of 10,000")
    parser.add_argument("--deals", type=int, help="deals per line (overrides --quick)")
    parser.add_argument("--only", help="run only the lines whose label starts with this")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-control", action="store_true", help="skip the random-vs-random control")
    parser.add_argument("--search", action="store_true",
                        help="the search bot against the rule bot in the same seat, rule bots around (issue 19)")
    parser.add_argument("--budget", type=float, default=0.1, help="--search: seconds per move (0.1)")
    parser.add_argument("--iterations", type=int,
                        help="--search: N imagined worlds per move instead of a time budget (runs repeat exactly)")
    parser.add_argument("--cap", action="store_true",
                        help="--search with --iterations: the --budget seconds cap each move too")
    parser.add_argument("--workers", type=int, default=1, choices=(1, 2),
                        help="--search: processes (2 at most: the machine's two cores are shared)")
    parser.add_argument("--margin", type=float,
                        help="--search: standard errors a move must beat the rule bot's by (engine.bots.margin)")
    parser.add_argument("--no-pot-share", action="store_true",
                        help="--search: value a Стуколка playout by the balance alone, not with 1/n of the pot")
    parser.add_argument("--progress", action="store_true",
                        help="--search: cut the deals into chunks even in one process and print the running"
                             " paired figure after each (a run stopped early still says what it reached)")
    parser.add_argument("--min-worlds", type=int,
                        help="--search: worlds at least before the rule bot's choice is left (engine.bots.margin)")
    parser.add_argument("--chunk", type=int, default=CHUNK,
                        help=f"--search: deals a chunk ({CHUNK}; a results file keeps it)")
    parser.add_argument("--chunks", type=int,
                        help="--search: play at most this many chunks now (a run to --resume later)")
    parser.add_argument("--results", type=Path,
                        help="--search, one game: append each finished chunk to this new file"
                             " (tests/bench/results/; tests/bench/bench_results.py)")
    parser.add_argument("--resume", type=Path,
                        help="--search, one game: go on at the next chunk of this results file's run"
                             " (refused if the code or the options differ)")
    args = parser.parse_args()
    deals = args.deals or (1_000 if args.quick else 10_000)
    if args.search:
        search_main(args, args.deals or 200)
        return
    print(f"rule-of-thumb bot vs random bots, {deals} deals per line; money in kopecks, ± = 95% CI")
    print(f"{'game':<12} {'rule/deal':>20} {'random/deal (control)':>24} {'rule per session':>26}"
          f" {'moves':>8} {'p50 µs':>8} {'p99 µs':>8} {'max ms':>7}")
    started = time.perf_counter()
    for case in CASES:
        if args.only and not case.label.startswith(args.only):
            continue
        rule = run(case, deals, "rule", args.seed)
        mean, half = per_deal(rule)
        control = "—"
        if not args.no_control:
            base = run(case, deals, "random", args.seed)
            c_mean, c_half = per_deal(base)
            control = f"{c_mean:+.2f} ± {c_half:.2f}"
        s_mean, s_half = per_session(rule)
        session = f"{s_mean:+.1f} ± {s_half:.1f} /{case.unit}"
        times = rule.times
        print(f"{case.label:<12} {f'{mean:+.2f} ± {half:.2f}':>20} {control:>24} {session:>26}"
              f" {len(times):>8} {quantile(times, 0.5) * 1e6:>8.0f} {quantile(times, 0.99) * 1e6:>8.0f}"
              f" {max(times) * 1e3:>7.1f}", flush=True)
    print(f"total {time.perf_counter() - started:.0f} s")


def paired(a: Result, b: Result) -> tuple[float, float]:
    """Mean difference per deal of two arms played on the same sessions, and its 95% half-width.

    Ratio estimator over the paired sessions: Σ(money_a − money_b) / Σ(deals), the deals of a pair
    being the mean of the two arms' (a session may last a deal more in one arm than in the other)."""
    k = min(len(a.money), len(b.money))
    diffs = [a.money[i] - b.money[i] for i in range(k)]
    deals = [(a.deals[i] + b.deals[i]) / 2 for i in range(k)]
    ratio = sum(diffs) / sum(deals)
    if k < 2:
        return ratio, math.inf
    var = sum((x - ratio * d) ** 2 for x, d in zip(diffs, deals)) / (k - 1)
    return ratio, 1.96 * math.sqrt(var / k) / (sum(deals) / k)


CHUNK = 50
"""Deals per unit of work of ``--workers``: each chunk plays both arms on its own seed."""


def search_chunk(job: tuple[str, int, int, float | None, int | None, Any, bool]) -> tuple[Result, Result]:
    """Both arms of one chunk (a worker process's unit): the search bot's sessions, then the rule bot's."""
    label, deals, seed, budget, iterations, margin, pot_share = job
    case = next(c for c in CASES if c.label == label)
    searched = run(case, deals, "search", seed, others="rule", budget=budget, iterations=iterations,
                   margin=margin, pot_share=pot_share)
    ruled = run(case, deals, "rule", seed, others="rule")
    return searched, ruled


def chunk_line(number: int, options: dict[str, Any], code: str, searched: Result, ruled: Result,
               seconds: float) -> dict[str, Any]:
    """A finished chunk as its results-file line: the paired sums, what the search bot spent, when."""
    times, cpu = searched.times or [0.0], searched.cpu or [0.0]
    return {"chunk": number, "deals_from": number * options["chunk"], "deals_to": (number + 1) * options["chunk"],
            "chunk_seed": options["seed"] * 1000 + number, "code": code, "options": options,
            **bench_results.chunk_sums(searched.money, searched.deals, ruled.money, ruled.deals),
            "search_deals": sum(searched.deals), "rule_deals": sum(ruled.deals), "moves": len(searched.times),
            "wall_p50_ms": round(quantile(times, 0.5) * 1e3, 1), "wall_p99_ms": round(quantile(times, 0.99) * 1e3, 1),
            "wall_max_ms": round(max(times) * 1e3, 1), "cpu_p99_ms": round(quantile(cpu, 0.99) * 1e3, 1),
            "wall_over_1s": sum(t > 1.0 for t in searched.times), "cpu_over_1s": sum(t > 1.0 for t in searched.cpu),
            "searched": searched.searched, "samples": searched.samples, "fallbacks": searched.fallbacks,
            "departed": searched.departed, "seconds": round(seconds, 1), "load": round(os.getloadavg()[0], 1),
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def search_main(args: argparse.Namespace, deals: int) -> None:
    """Search bot vs rule bot in the same seat, same decks and same rule-bot opponents (issue 19's figure).

    Both arms replay the same sessions (the same seeds: decks, dealer, the opponents' bots): in one the
    moving seat is the search bot, in the other the rule bot.  The difference per deal is the paired
    one (``paired``: session by session, so the luck of the cards cancels), with its 95% interval; the
    search bot's time per decision with a choice (a forced move is not searched), p50 / p99 / max.
    With ``--workers 2`` the deals are cut into chunks of ``CHUNK`` with seeds of their own, each
    chunk's two arms paired.
    """
    from multiprocessing import get_context

    from engine.bots.margin import Margin

    default = Margin()
    margin = Margin(args.margin if args.margin is not None else default.k,
                    args.min_worlds if args.min_worlds is not None else default.min_worlds)
    budget = f"{args.iterations} worlds" if args.iterations else f"{args.budget} s"
    if args.iterations and args.cap:
        budget += f" or {args.budget} s"
    print(f"search bot ({budget}/move; margin {margin.k:g} SE over {margin.min_worlds}+ worlds;"
          f" {'balance only' if args.no_pot_share else 'pot shared'}) vs the rule bot"
          f" in its seat, rule bots around; {deals} deals per line, seed {args.seed}; kopecks per deal, ± = 95% CI;"
          f" load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'game':<12} {'search/deal':>17} {'rule/deal':>17} {'difference':>17} {'moves':>7}"
          f" {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'cpu p50':>7} {'cpu p99':>7} {'worlds':>6} {'rules%':>6}"
          f" {'left%':>6}  verdict")
    started = time.perf_counter()
    exact = any(case.label == args.only for case in CASES)  # "ukr_pairs" alone, not "ukr_pairs 1" too
    cases = [case for case in CASES
             if not args.only or (case.label == args.only if exact else case.label.startswith(args.only))]
    file = args.resume or args.results
    if file and (len(cases) != 1 or (args.resume and args.results)):
        sys.exit("--results/--resume: one game (--only) and one file")
    if args.results and args.results.exists() and args.results.read_text(encoding="utf-8").strip():
        sys.exit(f"{args.results} has chunks already: --resume it, or name a new file")
    pool = get_context("fork").Pool(args.workers) if args.workers > 1 else None
    for case in cases:
        t0 = time.perf_counter()
        chunks = max(1, -(-deals // args.chunk)) if pool or args.progress or file else 1
        budget = args.budget if not args.iterations or args.cap else None
        options = {"game": case.label, "seed": args.seed, "deals": deals, "chunk": -(-deals // chunks),
                   "budget": budget, "iterations": args.iterations, "margin": margin.k,
                   "min_worlds": margin.min_worlds, "pot_share": not args.no_pot_share}
        code = bench_results.code_hash(run, session_over, search_chunk, Case)
        done: list[dict[str, Any]] = []
        if args.resume:
            try:
                done = bench_results.resume_from(args.resume, code, options)
            except bench_results.ResumeRefused as refused:
                sys.exit(f"--resume refused: {refused}")
            print(f"  resuming {args.resume} at chunk {len(done)} of {chunks}", flush=True)
        jobs = [(case.label, options["chunk"], args.seed * 1000 + k, budget, args.iterations, margin,
                 not args.no_pot_share)
                for k in range(len(done), chunks)][:args.chunks]
        outcomes = pool.imap(search_chunk, jobs, chunksize=1) if pool else map(search_chunk, jobs)
        searched, ruled = Result(), Result()
        t_chunk = time.perf_counter()
        for number, (s_part, r_part) in enumerate(outcomes, len(done)):
            k = min(len(s_part.money), len(r_part.money))
            searched.extend(s_part, k)
            ruled.extend(r_part, k)
            if file:
                line = chunk_line(number, options, code, s_part, r_part, time.perf_counter() - t_chunk)
                bench_results.append(file, line)
                done.append(line)
                t_chunk = time.perf_counter()
            if args.progress:
                if file:
                    total, diff, half = bench_results.combined(done)
                else:
                    (diff, half), total = paired(searched, ruled), sum(searched.deals)
                times, cpu = searched.times or [0.0], searched.cpu or [0.0]
                print(f"  {case.label}: {total:.0f} deals, {diff:+.2f} ± {half:.2f} a deal,"
                      f" {time.perf_counter() - t0:.0f} s, load {os.getloadavg()[0]:.1f};"
                      f" this process's {len(searched.times)} moves: wall p50 {quantile(times, 0.5) * 1e3:.0f}"
                      f" p99 {quantile(times, 0.99) * 1e3:.0f} ms, cpu p50 {quantile(cpu, 0.5) * 1e3:.0f}"
                      f" p99 {quantile(cpu, 0.99) * 1e3:.0f} ms", flush=True)
        if not jobs:
            print(f"  {case.label}: {args.resume} is complete ({chunks} chunks)")
            continue
        s_mean, s_half = per_deal(searched)
        r_mean, r_half = per_deal(ruled)
        diff, half = paired(searched, ruled)
        if file:  # the whole run's figure, every chunk of the file (the times below: this process's only)
            _, diff, half = bench_results.combined(done)
        times = searched.times or [0.0]
        verdict = "beats" if diff - half > 0 else ("loses" if diff + half < 0 else "no difference shown")
        worlds = searched.samples / max(1, searched.searched)
        rules = 100 * searched.fallbacks / max(1, searched.searched + searched.fallbacks)
        left = 100 * searched.departed / max(1, searched.searched + searched.fallbacks)
        cpu = searched.cpu or [0.0]
        print(f"{case.label:<12} {f'{s_mean:+.2f} ± {s_half:.2f}':>17} {f'{r_mean:+.2f} ± {r_half:.2f}':>17}"
              f" {f'{diff:+.2f} ± {half:.2f}':>17} {len(times):>7} {quantile(times, 0.5) * 1e3:>7.1f}"
              f" {quantile(times, 0.99) * 1e3:>7.1f} {max(times) * 1e3:>7.1f}"
              f" {quantile(cpu, 0.5) * 1e3:>7.1f} {quantile(cpu, 0.99) * 1e3:>7.1f} {worlds:>6.1f} {rules:>6.1f}"
              f" {left:>6.1f}  {verdict} ({sum(searched.deals)} deals, {time.perf_counter() - t0:.0f} s;"
              f" load {' '.join(f'{x:.1f}' for x in os.getloadavg())})", flush=True)
    if pool:
        pool.close()
    print(f"total {time.perf_counter() - started:.0f} s; load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

"""Where could a search gain in Спекулянт against the rule bots?  Judged on their own deals (issue 19).

    python tests/bench/speculator_judge.py --deals 20000 --seed 51

Why: the paired bench (``bot_bench.py --search --only speculator``) can differ from 0 only where the
search bot's money differs from the rule bot's in the same seat, and in Спекулянт a seat's money
moves only by its antes (fixed), the pot (to whoever holds the best card at the last reveal) and its
own trades.  The rule bots never trade among themselves (a bidder stops at ``BUY_SHARE`` = 0.8 of
the card's worth, a holder sells at ``SELL_SHARE`` = 1.0 of it, and everyone's worth is the same
number: nobody sees a face-down card, §6.4), so a seat that never trades has exactly the rule bot's
money, deal by deal; every gain must come from a trade with a rule bot.  This bench plays the rule
bots' deals (4 seats, default options, a record's rules: each window ends when nobody acts) and, at
every window, judges each trade a rule bot would take part in, on the real deal:

* **calibration** — the rule bot's worth (``hold_chance`` × pot) against what the card really brought
  (the pot if it was still the best card at the last reveal of that (re)deal, else 0): if the worth were
  biased anywhere, a trade could gain there (shown by hold-chance bins);
* **buy** — a non-holder bids the least a rule holder accepts (``ceil(worth)``, ``minPrice`` at least)
  and holds the card: gain = what the card brought − the price;
* **sell** — the holder accepts the highest bid the rule bidders reach (their raises of
  ``max(1, int(0.05 × worth))`` while ≤ 0.8 × worth): gain = the price − what the card brought;
* **by bins** of the hold chance, the calibration and the buy again (six bins: one at the edge of 95 %
  now and then is what chance gives).

Each figure is per window where the trade exists, ± 95 % over deals (ratio estimator; windows of a deal
are correlated), with its exact expectation beside it (worth − price, price − worth; the worth is the
exact chance under a uniform draw of the unseen cards, so the realized means must agree with it).
What the search could do after such a trade (resell, buy back) is again a trade of the same kinds at
the new worth, so it cannot turn a loss into a gain.  Figures (seeds 51, 52): bot_bench.py's docstring.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.bots import make_bot  # noqa: E402
from engine.bots.speculator import BUY_SHARE, RAISE, hold_chance  # noqa: E402
from engine.game import ShuffledDecks  # noqa: E402
from engine.games.speculator import Speculator  # noqa: E402

REVEAL = "reveal"
ROUNDS = 400
BINS = (0.0, 0.05, 0.2, 0.4, 0.6, 0.8, 1.0001)


@dataclass
class Window:
    segment: int  # which (re)deal of the deal
    card: object
    pot: int
    hold: float
    worth: float


@dataclass
class Deal:
    windows: list[Window] = field(default_factory=list)
    trades: int = 0
    segment: int = 0  # the (re)deal that ended the deal
    card: object = None  # the card that took the pot


def rule_deal(seed: int, players: int = 4) -> Deal:
    """One deal played by rule bots on a record's rules; every window's worth noted."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    game = Speculator(names, {}, dealer=rng.randrange(players))
    bots = [make_bot("speculator", "rule", rng.randrange(2**32)) for _ in range(players)]
    game.start_deal(ShuffledDecks(Speculator.deck_size, rng.randrange(2**63)))
    deal = Deal()

    def note(events) -> None:
        for event in events:
            if event.kind == "speculator":
                deal.segment += 1
            elif event.kind == "trade":
                deal.trades += 1
            elif event.kind == "win":
                deal.card = event.data["card"]
            elif event.kind == "reveal" and game.window_open:
                view = game.view(0)
                hold = hold_chance(view)
                deal.windows.append(Window(deal.segment, view["best"], view["pot"], hold, hold * view["pot"]))

    for _ in range(ROUNDS):
        if not game.in_deal:
            break
        if not game.window_open:
            note(game.apply(game.revealer, REVEAL))
            continue
        seats = list(range(players))
        rng.shuffle(seats)
        acted = False
        for seat in seats:
            if not game.window_open:
                break
            legal = game.legal_actions(seat)
            if not legal:
                continue
            choice = bots[seat].choose(game.view(seat), legal)
            if choice is not None:
                note(game.apply(seat, choice))
                acted = True
        if not acted and game.window_open:
            note(game.apply(game.revealer, REVEAL))
    return deal


def brought(deal: Deal, w: Window) -> int:
    """What the card best at window ``w`` really brought its holder: the pot, or nothing."""
    return w.pot if (w.segment == deal.segment and w.card == deal.card) else 0


def rule_top_bid(worth: float, min_price: int = 1) -> int:
    """The highest bid the rule bidders reach for a card of ``worth`` (0: none bids)."""
    top = 0
    while True:
        price = max(min_price, top + max(1, int(worth * RAISE)))
        if price > BUY_SHARE * worth:
            return top
        top = price


class Figure:
    """A per-window mean, ± 95 % over deals (ratio estimator), and its exact expectation."""

    def __init__(self) -> None:
        self.sums: list[float] = []
        self.counts: list[int] = []
        self.exact = 0.0

    def add_deal(self, values: list[float], exact: list[float]) -> None:
        self.sums.append(sum(values))
        self.counts.append(len(values))
        self.exact += sum(exact)

    def text(self) -> str:
        n, total = sum(self.counts), sum(self.sums)
        if n == 0:
            return "—"
        ratio = total / n
        k = len(self.sums)
        mean_c = n / k
        var = sum((s - ratio * c) ** 2 for s, c in zip(self.sums, self.counts)) / (k - 1)
        half = 1.96 * math.sqrt(var / k) / mean_c
        lo, hi = ratio - half, ratio + half
        verdict = "gains" if lo > 0 else ("loses" if hi < 0 else "no difference shown")
        return (f"{ratio:+8.3f} ± {half:.3f}  exact {self.exact / n:+8.3f}  over {n:>7} windows"
                f"  ({n / k:.2f} a deal)  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=51)
    args = parser.parse_args()
    print(f"Спекулянт, 4 rule bots, {args.deals} deals, seed {args.seed};"
          " kopecks a window, ± 95 % over deals;"
          f" load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    started = time.perf_counter()
    master = random.Random(args.seed)
    calib, buy, sell = Figure(), Figure(), Figure()
    bins = [Figure() for _ in BINS[:-1]]
    bin_buys = [Figure() for _ in BINS[:-1]]
    binned = [[0.0, 0.0, 0] for _ in BINS[:-1]]  # predicted hold, realized wins, windows
    trades = 0
    for _ in range(args.deals):
        deal = rule_deal(master.randrange(2**63))
        trades += deal.trades
        c, b, s, bx, sx = [], [], [], [], []
        per_bin: list[list[float]] = [[] for _ in bins]
        per_bin_buy: list[list[float]] = [[] for _ in bins]
        per_bin_exact: list[list[float]] = [[] for _ in bins]
        for w in deal.windows:
            got = brought(deal, w)
            c.append(got - w.worth)
            price = max(1, math.ceil(w.worth))
            b.append(got - price)
            bx.append(w.worth - price)
            top = rule_top_bid(w.worth)
            if top >= 1:
                s.append(top - got)
                sx.append(top - w.worth)
            i = next(j for j in range(len(BINS) - 1) if BINS[j] <= w.hold < BINS[j + 1])
            per_bin[i].append(got - w.worth)
            per_bin_buy[i].append(got - price)
            per_bin_exact[i].append(w.worth - price)
            binned[i][0] += w.hold
            binned[i][1] += 1 if got else 0
            binned[i][2] += 1
        calib.add_deal(c, [0.0] * len(c))
        buy.add_deal(b, bx)
        sell.add_deal(s, sx)
        for fig, vals in zip(bins, per_bin):
            fig.add_deal(vals, [0.0] * len(vals))
        for fig, vals, exact in zip(bin_buys, per_bin_buy, per_bin_exact):
            fig.add_deal(vals, exact)
    print(f"trades among the rule bots: {trades}")
    print(f"calibration (brought − worth)   {calib.text()}")
    print(f"buy at the holder's least price {buy.text()}")
    print(f"sell to the rule bidders' top   {sell.text()}")
    print("by the rule bot's hold chance:  predicted  realized  (brought − worth a window)")
    for j, (fig, (pred, wins, n)) in enumerate(zip(bins, binned)):
        if n:
            print(f"  {BINS[j]:.2f}–{min(1.0, BINS[j + 1]):.2f}  {n:>7} windows  {pred / n:7.3f}  {wins / n:7.3f}"
                  f"   {fig.text()}")
            print(f"  {'':>25} a buy there at the holder's least price   {bin_buys[j].text()}")
    print(f"{time.perf_counter() - started:.0f} s; load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

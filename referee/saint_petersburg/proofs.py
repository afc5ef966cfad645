"""z3 proofs of Saint Petersburg's arithmetic rules (``referee prove --game saint-petersburg``).

The price proofs do not re-type the price formula: they run ``SPState.price`` itself on symbolic values, with the rule
parameters of the ruleset or variant (``min_price``, ``potemkin_value``, the card table of the edition, the upgrade
targets ``SPState.targets`` allows). Tables and numbers (``variety_table``, ``rubles_per_vp``, hand limits, the round-1
deal) are read from the options dataclass. A counterexample purchase is played into a record and judged.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

import z3

from referee.game import Game
from referee.proofs import Paths, Result, Sym, SymBool, refute, symbolic, write_counterexample
from referee.record import write_record

RULES_MIN_PRICE = 1  # Saint Petersburg rules: "a card never costs less than 1 ruble"


class _SymCounter(dict):
    """``PlayerState.owned`` whose counts are z3 integers."""

    def get(self, key, default=0):
        return super().get(key, default)


@dataclass
class PricePoint:
    card: str
    target: str | None
    term: z3.ArithRef
    variables: dict[str, Any]
    domain: list


@lru_cache(maxsize=16)
def sp_price_points(options: Any) -> list[PricePoint]:
    """``SPState.price`` as a z3 term for every card (and every upgrade target ``SPState.targets`` allows), over
    every count of copies owned, row, Carpenter Workshop and Gold Smelter ownership."""
    from referee.saint_petersburg.state import SPState

    state = SPState(["P", "Q"], options)
    cards = state.cards
    points = []
    for card in cards.values():
        targets: list = [None]
        if card.upgrade:
            targets = []
            for target in cards.values():
                probe = SPState(["P", "Q"], options)
                probe.p[0].area = [target]
                probe.p[0].owned = Counter({target.name: 1})
                if probe.targets(0, card):
                    targets.append(target)
        for target in targets:
            owned = z3.Int("owned")
            lower = z3.Bool("from_lower")
            cw, gs = z3.Int("carpenter_workshop"), z3.Int("gold_smelter")
            domain = [
                owned >= 0,
                owned <= card.copies - 1,
                cw >= 0,
                cw <= cards["Carpenter Workshop"].copies,
                gs >= 0,
                gs <= cards["Gold Smelter"].copies,
            ]

            def run(paths: Paths, card=card, target=target, owned=owned, lower=lower, cw=cw, gs=gs):
                # symbolic values stand where the rules expect numbers and booleans: that is the point of the proof
                state.p[0].owned = cast(
                    Counter[str],
                    _SymCounter(
                        {
                            "Carpenter Workshop": Sym(cw, paths),
                            "Gold Smelter": Sym(gs, paths),
                            card.name: Sym(owned, paths),
                        }
                    ),
                )
                return state.price(0, card, cast(bool, SymBool(lower, paths)), target)

            points.append(
                PricePoint(
                    card.name,
                    target.name if target else None,
                    symbolic(run),
                    {"owned": owned, "from_lower": lower, "carpenter_workshop": cw, "gold_smelter": gs},
                    domain,
                )
            )
    return points


def _model_values(model: z3.ModelRef, point: PricePoint) -> dict[str, Any]:
    values: dict[str, Any] = {"card": point.card}
    if point.target:
        values["over"] = point.target
    for name, var in point.variables.items():
        value = model.eval(var, model_completion=True)
        values[name] = z3.is_true(value) if z3.is_bool(var) else value.as_long()
    values["price"] = model.eval(point.term, model_completion=True).as_long()
    return values


def _simplest(points: list[PricePoint], bad: Callable[[PricePoint], z3.BoolRef]) -> tuple[PricePoint, dict] | None:
    """The counterexample with the fewest things owned (easiest to show in a record), or None when proved."""
    anyone = z3.Solver()
    anyone.add(z3.Or(*[z3.And(*point.domain, bad(point)) for point in points]) if points else z3.BoolVal(False))
    if anyone.check() != z3.sat:
        return None
    best = None
    for point in points:
        quick = z3.Solver()
        quick.add(*point.domain, bad(point))
        if quick.check() != z3.sat:
            continue
        opt = z3.Optimize()
        opt.add(*point.domain, bad(point))
        v = point.variables
        opt.minimize(v["owned"] + v["carpenter_workshop"] + v["gold_smelter"] + z3.If(v["from_lower"], 1, 0))
        if opt.check() == z3.sat:
            values = _model_values(opt.model(), point)
            weight = (
                values["owned"]
                + values["carpenter_workshop"]
                + values["gold_smelter"]
                + values["from_lower"]
                + (2 if point.target else 0)
            )
            if best is None or weight < best[0]:
                best = (weight, point, values)
    return None if best is None else (best[1], best[2])


def proofs(game: type[Game], options: Any, tags: dict[str, str], out_dir: Path) -> list[Result]:
    """Prices (every card, every upgrade over every card it may displace), the variety table, the round-1 deal,
    the final conversion, hand limits and Pub prices, under one set of rule options."""
    results: list[Result] = []
    points = sp_price_points(options)
    plain = [p for p in points if p.target is None]
    upgrades = [p for p in points if p.target is not None]
    from referee.saint_petersburg.state import SPState

    cards = SPState(["P", "Q"], options).cards

    def price_result(name: str, chosen: list[PricePoint], bad: Callable[[PricePoint], z3.BoolRef]) -> Result:
        found = _simplest(chosen, bad)
        if found is None:
            return Result(name, True)
        _point, values = found
        result = Result(name, False, values)
        record, verdict = sp_purchase_record(game, options, tags, values, out_dir, name)
        result.record, result.verdict = record, verdict
        return result

    results.append(
        price_result(
            f"price >= {RULES_MIN_PRICE} (every card except upgrades; copies owned, row, "
            "Carpenter Workshop / Gold Smelter)",
            plain,
            lambda p: p.term < RULES_MIN_PRICE,
        )
    )
    results.append(
        price_result("price <= printed cost (every card except upgrades)", plain, lambda p: p.term > cards[p.card].cost)
    )
    results.append(
        price_result(
            f"upgrade price >= {RULES_MIN_PRICE} (every upgrade over every card it may displace, "
            f"Potemkin Village valued {options.potemkin_value})",
            upgrades,
            lambda p: p.term < RULES_MIN_PRICE,
        )
    )
    results.append(price_result("upgrade price <= printed cost", upgrades, lambda p: p.term > cards[p.card].cost))
    results.append(_upgrade_monotone(upgrades, options))
    results += _sp_table_proofs(game, options)
    return results


def _upgrade_monotone(upgrades: list[PricePoint], options: Any) -> Result:
    """Displacing a card worth more never makes an upgrade dearer (same owner, same row)."""
    from referee.saint_petersburg.state import SPState

    name = "upgrade price never rises with the displaced card's value"
    state = SPState(["P", "Q"], options)
    by_card: dict[str, list[PricePoint]] = {}
    for point in upgrades:
        by_card.setdefault(point.card, []).append(point)
    for card, points in by_card.items():
        pairs = [
            (a, b)
            for a in points
            for b in points
            if a.target is not None
            and b.target is not None
            and state.card_value(state.cards[a.target]) >= state.card_value(state.cards[b.target])
        ]
        solver = z3.Solver()
        solver.add(*points[0].domain)  # the points of one card share their variables (same names)
        if solver.check(z3.Or(*[a.term > b.term for a, b in pairs])) != z3.sat:
            continue
        for a, b in pairs:
            model = refute(solver, a.term <= b.term)
            if model is not None:
                values = {
                    "card": card,
                    "over (worth more)": a.target,
                    "over (worth less)": b.target,
                    **{k: model.eval(v, model_completion=True) for k, v in a.variables.items()},
                }
                return Result(name, False, values, "the dearer purchase displaces the more valuable card")
    return Result(name, True)


def _sp_table_proofs(game: type[Game], options: Any) -> list[Result]:
    """The arithmetic tables of the rule options: aristocrat variety, the first deal, VP conversion, limits, Pub."""
    return [*_variety_proofs(options), *_deal_and_conversion_proofs(game, options), *_limit_and_pub_proofs(options)]


def _variety_proofs(options: Any) -> list[Result]:
    """The aristocrat variety table: strictly increasing, capped at its last entry, the rules' triangular scale."""
    results = []
    table = list(options.variety_table)
    size = len(table)
    i, j, d = z3.Ints("i j distinct")
    arr = z3.K(z3.IntSort(), 0)
    for k, value in enumerate(table):
        arr = z3.Store(arr, k, value)
    solver = z3.Solver()
    solver.add(i >= 0, i < j, j < size)
    model = refute(solver, z3.Select(arr, i) < z3.Select(arr, j))
    name = "aristocrat variety table is strictly increasing"
    results.append(
        Result(name, True)
        if model is None
        else Result(
            name,
            False,
            {
                "distinct": model[i].as_long(),
                "distinct'": model[j].as_long(),
                "vp": table[model[i].as_long()],
                "vp'": table[model[j].as_long()],
            },
        )
    )
    # capped: the referee scores table[min(distinct, size - 1)]; never above the last entry, and the last is reached
    variety = z3.Select(arr, z3.If(d < size - 1, d, size - 1))
    solver = z3.Solver()
    solver.add(d >= 0)
    model = refute(solver, z3.And(variety <= table[-1], variety >= 0))
    name = f"aristocrat variety is capped at {table[-1]} VP (from {size - 1} distinct aristocrats on)"
    results.append(Result(name, True) if model is None else Result(name, False, {"distinct": model[d].as_long()}))
    solver = z3.Solver()
    solver.add(i > 0, i < size)
    model = refute(solver, z3.Select(arr, i) - z3.Select(arr, i - 1) == i)
    name = "aristocrat variety follows the rules' triangular scale (n-th distinct aristocrat adds n VP)"
    results.append(
        Result(name, True)
        if model is None
        else Result(name, False, {"distinct": model[i].as_long(), "vp": table[model[i].as_long()]})
    )
    return results


def _deal_and_conversion_proofs(game: type[Game], options: Any) -> list[Result]:
    """Round 1's deal fits the display for every player count; the final conversion splits any ruble total."""
    results = []
    n = z3.Int("players")
    solver = z3.Solver()
    solver.add(n >= game.min_players, n <= game.max_players)
    model = refute(solver, options.first_deal_per_player * n <= options.display_size)
    name = "round 1's deal (cards per player x players) fits the display"
    results.append(Result(name, True) if model is None else Result(name, False, {"players": model[n].as_long()}))
    # the final conversion splits any ruble total exactly into VP and rubles left
    r = z3.Int("rubles")
    solver = z3.Solver()
    solver.add(r >= 0)
    per = options.rubles_per_vp
    if per <= 0:
        results.append(Result("rubles convert to VP", False, {"rubles_per_vp": per}))
    else:
        model = refute(solver, z3.And(r == per * (r / per) + r % per, r % per >= 0, r % per < per, r / per >= 0))
        results.append(
            Result(
                f"final conversion: rubles = {per} x VP + rubles left, 0 <= left < {per}",
                model is None,
                {} if model is None else {"rubles": model[r].as_long()},
            )
        )
    return results


def _limit_and_pub_proofs(options: Any) -> list[Result]:
    """Owning a Warehouse never lowers the hand limit; Pub VP cost at least a ruble each."""
    results = []
    w = z3.Bool("owns_warehouse")
    limit = z3.If(w, options.warehouse_hand_limit, options.hand_limit)
    solver = z3.Solver()
    model = refute(solver, z3.And(limit >= options.hand_limit, limit >= 1))
    results.append(
        Result(
            "the Warehouse never lowers the hand limit",
            model is None,
            {}
            if model is None
            else {"hand_limit": options.hand_limit, "warehouse_hand_limit": options.warehouse_hand_limit},
        )
    )
    c = z3.Int("pub_vp")
    solver = z3.Solver()
    solver.add(c >= 1, c <= options.pub_max_vp * 2)
    model = refute(solver, c * options.pub_vp_price >= c)
    results.append(
        Result(
            "Pub VP cost at least 1 ruble each",
            model is None,
            {} if model is None else {"vp": model[c].as_long(), "pub_vp_price": options.pub_vp_price},
        )
    )
    return results


# ------------------------------------------------------------------------- counterexamples as records
def sp_purchase_record(
    game: type[Game],
    options: Any,
    tags: dict[str, str],
    values: dict[str, Any],
    out_dir: Path,
    prop: str,
    attempts: int = 400,
) -> tuple[Path | None, str]:
    """Play random legal games until the counterexample's purchase (same card, target, row, copies owned, Carpenter
    Workshop / Gold Smelter) is legal, write the game up to that purchase, and judge the record."""
    from referee.record import NameRef
    from referee.saint_petersburg.notation import Actor, Buy, Observe, Play, statement_text
    from referee.saint_petersburg.play import RandomPolicy
    from referee.saint_petersburg.state import ACTING, SPState

    def matches(state: SPState, seat: int, action: Any) -> bool:
        if not isinstance(action, (Buy, Play, Observe)) or action.price is None:
            return False
        if action.card.name != values["card"] or (action.over.name if action.over else None) != values.get("over"):
            return False
        if isinstance(action, Buy):
            card = state.cards[action.card.name]
            lower = action.row == "lower" or (action.row is None and card in state.lower and card not in state.upper)
        else:
            lower = False
        owned = state.p[seat].owned
        return (
            lower == values["from_lower"]
            and owned.get(values["card"], 0) == values["owned"]
            and owned.get("Carpenter Workshop", 0) == values["carpenter_workshop"]
            and owned.get("Gold Smelter", 0) == values["gold_smelter"]
            and action.price == values["price"]
        )

    players = ["Anna", "Boris"]
    for seed in range(attempts):
        rng = random.Random(seed)
        state = SPState(players, options)
        lines: list[str] = []

        policy = RandomPolicy(rng)
        found = False
        while not found and (statement := policy.next_statement(state)) is not None:
            if state.stage == ACTING:
                seat = state.to_act
                hit = next((a for a in state.legal_actions(seat, observe_cards=True) if matches(state, seat, a)), None)
                if hit is not None:
                    statement, found = Actor(NameRef(players[seat], 0), hit), True
            state.apply(statement)
            lines.append(statement_text(statement))
        if not found:
            continue
        record_tags = {
            "Game": game.title,
            "Players": ", ".join(players),
            **tags,
            "Event": f"referee prove: counterexample to '{prop}'",
        }
        shown = ", ".join(f"{k}={v}" for k, v in values.items())
        text = write_record(record_tags, lines, [f"counterexample to: {prop}", shown, "the last line is the purchase"])
        return write_counterexample(game, text, out_dir)
    return None, f"no record: the position was not reached in {attempts} random games"

"""z3 proofs of the arithmetic rules, about the referee's own code and rule parameters (``referee prove``).

The price proofs do not re-type the price formula: they run ``SPState.price`` itself on symbolic values (z3
integers wrapped so that arithmetic builds z3 terms, and every ``if``/``max`` on a symbolic condition is explored on
both branches), with the rule parameters of the ruleset or variant (``min_price``, ``potemkin_value``, the card table
of the edition, the upgrade targets ``SPState.targets`` allows). Tables and numbers (``variety_table``,
``rubles_per_vp``, hand limits, the round-1 deal) are read from the options dataclass. A counterexample that a record
can show is written as a record file, judged by the referee, and its verdict printed.

Exit status of ``referee prove``: 0 when every property is proved, 1 when any has a counterexample.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import click
import z3

from referee.game import Game
from referee.record import write_record
from referee.registry import GAMES, find_game
from referee.resources import USER_POLICY
from referee.variant import find_variant, resolve_options

RULES_MIN_PRICE = 1  # Saint Petersburg rules: "a card never costs less than 1 ruble"


@dataclass
class Result:
    name: str
    proved: bool
    values: dict[str, Any] = field(default_factory=dict)
    detail: str = ""
    record: Path | None = None
    verdict: str | None = None

    def lines(self) -> list[str]:
        if self.proved:
            return [f"  proved          {self.name}"]
        shown = ", ".join(f"{k}={v}" for k, v in self.values.items())
        out = [f"  counterexample  {self.name}: {shown}" + (f" ({self.detail})" if self.detail else "")]
        if self.record is not None:
            out.append(f"                  record {self.record}: referee verdict {self.verdict}")
        elif self.verdict:
            out.append(f"                  {self.verdict}")
        return out


# ------------------------------------------------------------------------------------ symbolic execution
class _Paths:
    """Chooses the branch of every symbolic condition met while the referee's code runs (depth-first)."""

    def __init__(self, prefix: list[bool]) -> None:
        self.prefix = list(prefix)
        self.pos = 0
        self.condition: list = []

    def decide(self, condition: z3.BoolRef) -> bool:
        if self.pos < len(self.prefix):
            choice = self.prefix[self.pos]
        else:
            choice = True
            self.prefix.append(True)
        self.pos += 1
        self.condition.append(condition if choice else z3.Not(condition))
        return choice


class SymBool:
    def __init__(self, term: z3.BoolRef, paths: _Paths) -> None:
        self.term, self.paths = term, paths

    def __bool__(self) -> bool:
        return self.paths.decide(self.term)


class Sym:
    """A z3 integer the referee's code can compute with."""

    def __init__(self, term: Any, paths: _Paths) -> None:
        self.term, self.paths = term, paths

    def _wrap(self, term: Any) -> Sym:
        return Sym(term, self.paths)

    @staticmethod
    def _t(value: Any) -> Any:
        return value.term if isinstance(value, Sym) else value

    def __add__(self, o):
        return self._wrap(self.term + self._t(o))

    def __radd__(self, o):
        return self._wrap(self._t(o) + self.term)

    def __sub__(self, o):
        return self._wrap(self.term - self._t(o))

    def __rsub__(self, o):
        return self._wrap(self._t(o) - self.term)

    def __mul__(self, o):
        return self._wrap(self.term * self._t(o))

    __rmul__ = __mul__

    def __neg__(self):
        return self._wrap(-self.term)

    def __floordiv__(self, o):
        return self._wrap(self.term / self._t(o))

    def __eq__(self, o):
        return SymBool(self.term == self._t(o), self.paths)

    def __ne__(self, o):
        return SymBool(self.term != self._t(o), self.paths)

    __hash__ = None  # type: ignore[assignment]

    def __gt__(self, o):
        return SymBool(self.term > self._t(o), self.paths)

    def __ge__(self, o):
        return SymBool(self.term >= self._t(o), self.paths)

    def __lt__(self, o):
        return SymBool(self.term < self._t(o), self.paths)

    def __le__(self, o):
        return SymBool(self.term <= self._t(o), self.paths)


def symbolic(run: Callable[[_Paths], Any]) -> z3.ArithRef:
    """The value ``run`` computes, as one z3 term over every path through the code."""
    results = []
    prefix: list[bool] = []
    while True:
        paths = _Paths(prefix)
        out = run(paths)
        results.append((z3.And(*paths.condition) if paths.condition else z3.BoolVal(True), Sym._t(out)))
        taken = paths.prefix[: paths.pos]
        while taken and taken[-1] is False:
            taken.pop()
        if not taken:
            break
        taken[-1] = False
        prefix = taken
    term = z3.IntVal(results[-1][1]) if isinstance(results[-1][1], int) else results[-1][1]
    for condition, value in reversed(results[:-1]):
        term = z3.If(condition, value, term)
    return term


def _check(solver: z3.Solver, claim: z3.BoolRef) -> z3.ModelRef | None:
    """None when ``claim`` holds under the solver's assumptions, else a model breaking it."""
    solver.push()
    solver.add(z3.Not(claim))
    found = solver.model() if solver.check() == z3.sat else None
    solver.pop()
    return found


# -------------------------------------------------------------------------------------- Saint Petersburg
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

            def run(paths: _Paths, card=card, target=target, owned=owned, lower=lower, cw=cw, gs=gs):
                state.p[0].owned = _SymCounter(
                    {"Carpenter Workshop": Sym(cw, paths), "Gold Smelter": Sym(gs, paths), card.name: Sym(owned, paths)}
                )
                return state.price(0, card, SymBool(lower, paths), target)

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


def sp_proofs(game: type[Game], options: Any, tags: dict[str, str], out_dir: Path) -> list[Result]:
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
            if state.card_value(state.cards[a.target]) >= state.card_value(state.cards[b.target])
        ]
        solver = z3.Solver()
        solver.add(*points[0].domain)  # the points of one card share their variables (same names)
        if solver.check(z3.Or(*[a.term > b.term for a, b in pairs])) != z3.sat:
            continue
        for a, b in pairs:
            model = _check(solver, a.term <= b.term)
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
    results = []
    table = list(options.variety_table)
    size = len(table)
    i, j, d = z3.Ints("i j distinct")
    arr = z3.K(z3.IntSort(), 0)
    for k, value in enumerate(table):
        arr = z3.Store(arr, k, value)
    solver = z3.Solver()
    solver.add(i >= 0, i < j, j < size)
    model = _check(solver, z3.Select(arr, i) < z3.Select(arr, j))
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
    model = _check(solver, z3.And(variety <= table[-1], variety >= 0))
    name = f"aristocrat variety is capped at {table[-1]} VP (from {size - 1} distinct aristocrats on)"
    results.append(Result(name, True) if model is None else Result(name, False, {"distinct": model[d].as_long()}))
    solver = z3.Solver()
    solver.add(i > 0, i < size)
    model = _check(solver, z3.Select(arr, i) - z3.Select(arr, i - 1) == i)
    name = "aristocrat variety follows the rules' triangular scale (n-th distinct aristocrat adds n VP)"
    results.append(
        Result(name, True)
        if model is None
        else Result(name, False, {"distinct": model[i].as_long(), "vp": table[model[i].as_long()]})
    )
    # the round-1 deal fits the display, for every player count the game allows
    n = z3.Int("players")
    solver = z3.Solver()
    solver.add(n >= game.min_players, n <= game.max_players)
    model = _check(solver, options.first_deal_per_player * n <= options.display_size)
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
        model = _check(solver, z3.And(r == per * (r / per) + r % per, r % per >= 0, r % per < per, r / per >= 0))
        results.append(
            Result(
                f"final conversion: rubles = {per} x VP + rubles left, 0 <= left < {per}",
                model is None,
                {} if model is None else {"rubles": model[r].as_long()},
            )
        )
    # owning a Warehouse never lowers the hand limit; Pub VP cost at least a ruble each
    w = z3.Bool("owns_warehouse")
    limit = z3.If(w, options.warehouse_hand_limit, options.hand_limit)
    solver = z3.Solver()
    model = _check(solver, z3.And(limit >= options.hand_limit, limit >= 1))
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
    model = _check(solver, c * options.pub_vp_price >= c)
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
    from referee.replay import check_file
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
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / f"prove-{game.id}-{hashlib.sha1(text.encode()).hexdigest()[:8]}.rec"
        path.write_text(text, encoding="utf-8")
        (report,) = check_file(path)
        verdict = report.verdict.value + (
            f" [{report.error.code}] {report.error.message}"
            if report.error
            else f" after {report.statements} statements (the purchase is accepted)"
        )
        return path, verdict
    return None, f"no record: the position was not reached in {attempts} random games"


# ------------------------------------------------------------------------------------------------ San Juan
def sj_proofs(game: type[Game], options: Any, tags: dict[str, str], out_dir: Path) -> list[Result]:
    """San Juan: ``SJState.build_cost`` run symbolically (chooser privilege, Library, Smithy, Quarry, a Crane's
    covered building of any cost in the card table, reductions on or off) and ``SJState.score``'s Palace bonus."""
    from referee.san_juan.cards import CARDS, MONUMENTS
    from referee.san_juan.state import SJState

    results = []
    costs = sorted({card.cost for card in CARDS.values()})
    low_name, high_name = "build cost >= 0", "build cost <= printed cost"
    low = high = None
    for card in CARDS.values():
        for crane in (False, True):
            chooser, library, reductions = z3.Int("chooser"), z3.Bool("library"), z3.Bool("reductions")
            flags = {name: z3.Bool(f"works_{name.lower().replace(' ', '_')}") for name in ("Smithy", "Quarry")}
            covered_cost = z3.Int("covered_cost")
            domain = [z3.Or(chooser == 0, chooser == 1), z3.Or(*[covered_cost == c for c in costs])]

            def run(
                paths: _Paths,
                card=card,
                crane=crane,
                chooser=chooser,
                library=library,
                reductions=reductions,
                flags=flags,
                covered_cost=covered_cost,
            ):
                state = SJState(["P", "Q"], options)
                state.chooser = Sym(chooser, paths)
                state.role = "builder"
                state.works = lambda seat, building, covered=None, flags=flags, paths=paths: SymBool(
                    flags.get(building, z3.BoolVal(False)), paths
                )
                covered = None
                if crane:
                    covered = type(card)("covered", True, Sym(covered_cost, paths), 0, 1, "", "")
                return state.build_cost(0, card, covered, SymBool(library, paths), SymBool(reductions, paths))

            term = symbolic(run)
            solver = z3.Solver()
            solver.add(*domain)
            names = {
                "chooser_is_builder": chooser == 0,
                "library": library,
                "reductions": reductions,
                **{f"{k} works": v for k, v in flags.items()},
            }
            for claim, which in ((term >= 0, "low"), (term <= card.cost, "high")):
                model = _check(solver, claim)
                if model is not None and (low if which == "low" else high) is None:
                    values = {
                        "card": card.name,
                        "over (Crane)": f"a cost-{model.eval(covered_cost, True)} building" if crane else "-",
                        **{k: z3.is_true(model.eval(v, True)) for k, v in names.items()},
                        "cost": model.eval(term, True).as_long(),
                    }
                    if which == "low":
                        low = values
                    else:
                        high = values
    results.append(Result(low_name, low is None, low or {}))
    results.append(Result(high_name, high is None, high or {}))
    # Palace: a quarter of the other VP, rounded down, for any number of Chapel cards and any bonus buildings
    failure = None
    bonus = ["Guild Hall", "City Hall", "Triumphal Arch"]
    for mask in range(1 << len(bonus)):
        for monuments in range(len(MONUMENTS) + 1):
            city = (
                ["Palace", "Indigo Plant", "Smithy"]
                + [b for k, b in enumerate(bonus) if mask >> k & 1]
                + list(MONUMENTS[:monuments])
            )
            tucked = z3.Int("chapel_cards")

            def score(paths: _Paths, city=city, tucked=tucked):
                state = SJState(["P", "Q"], options)
                player = state.p[0]
                player.city = list(city)
                player.owned = Counter(city)
                player.tucked = Sym(tucked, paths)
                parts = state.score(0)
                return parts["palace"] - 0, parts["total"]

            paths = _Paths([])
            palace, total = score(paths)
            palace, total = Sym._t(palace), Sym._t(total)
            base = total - palace
            solver = z3.Solver()
            solver.add(tucked >= 0)
            model = _check(solver, z3.And(4 * palace <= base, base < 4 * palace + 4))
            if model is not None and failure is None:
                failure = {
                    "city": " + ".join(city),
                    "chapel_cards": model.eval(tucked, True).as_long(),
                    "palace": model.eval(palace, True).as_long(),
                    "other VP": model.eval(base, True).as_long(),
                }
    results.append(
        Result(
            "Palace bonus = a quarter of the other VP, rounded down (any Chapel count)", failure is None, failure or {}
        )
    )
    return results


# ------------------------------------------------------------------------------------------ registry + CLI
PROVERS: dict[str, Callable[[type[Game], Any, dict[str, str], Path], list[Result]]] = {
    "saint-petersburg": sp_proofs,
    "san-juan": sj_proofs,
}


def prove(
    game: type[Game], options: Any, tags: dict[str, str], out_dir: Path = Path("counterexamples")
) -> list[Result]:
    """Every proof of a game under one set of rule options."""
    return PROVERS[game.id](game, options, tags, out_dir)


def targets(
    game_name: str | None, ruleset: str | None, variant: str | None
) -> list[tuple[type[Game], Any, str, dict[str, str]]]:
    """(game, options, label, record tags) to prove: one variant, one ruleset, or every ruleset of every game."""
    if variant is not None:
        found = find_variant(variant, Path.cwd(), USER_POLICY)
        game = find_game(game_name or found.game)
        if game is None:
            raise click.BadParameter(f"unknown game '{game_name or found.game}'")
        options, label = resolve_options(game, ruleset, variant, Path.cwd(), USER_POLICY)
        tags = {"Ruleset": ruleset or found.ruleset or game.default_ruleset, "Variant": variant}
        return [(game, options, label, tags)]
    games = [find_game(game_name)] if game_name else list(GAMES.values())
    if None in games:
        raise click.BadParameter(f"unknown game '{game_name}' (games: {', '.join(GAMES)})")
    out = []
    for game in games:
        if game.id not in PROVERS:
            continue
        names = [ruleset] if ruleset else list(game.rulesets)
        for name in names:
            options, label = resolve_options(game, name, None)
            out.append((game, options, label, {"Ruleset": name}))
    return out


def run_proofs(game_name: str | None, ruleset: str | None, variant: str | None, output: Path) -> int:
    """``referee prove``: print each property as proved or with its counterexample; the exit status (0 or 1)."""
    failed = 0
    try:
        chosen = targets(game_name, ruleset, variant)
    except Exception as error:
        message = getattr(error, "message", str(error))
        raise click.BadParameter(message) from None
    for game, options, label, tags in chosen:
        click.echo(f"{game.title} ({label})")
        for result in prove(game, options, tags, output):
            failed += not result.proved
            for line in result.lines():
                click.echo(line)
    click.echo("all proved" if not failed else f"{failed} counterexample(s)")
    return 1 if failed else 0


__all__ = ["PROVERS", "Result", "Sym", "SymBool", "prove", "run_proofs", "symbolic"]

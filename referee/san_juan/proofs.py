"""z3 proofs of San Juan's arithmetic rules (``referee prove --game san-juan``): the build cost and the Palace bonus,
computed with the referee's own ``SJState.build_cost`` and ``SJState.score`` on symbolic values."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import z3

from referee.game import Game
from referee.proofs import Paths, Result, Sym, SymBool, refute, symbolic


def proofs(game: type[Game], options: Any, tags: dict[str, str], out_dir: Path) -> list[Result]:
    """San Juan: ``SJState.build_cost`` run symbolically (chooser privilege, Library, Smithy, Quarry, a Crane's
    covered building of any cost in the card table, reductions on or off) and ``SJState.score``'s Palace bonus."""
    return [*_build_cost_proofs(options), _palace_proof(options)]


def _build_cost_proofs(options: Any) -> list[Result]:
    """A building never costs less than 0 nor more than its printed cost, for every card of the table."""
    from referee.san_juan.cards import card_table
    from referee.san_juan.state import SJState

    results = []
    cards = card_table(options.cards)  # with the card changes of a house rule
    costs = sorted({card.cost for card in cards.values()})
    low_name, high_name = "build cost >= 0", "build cost <= printed cost"
    low = high = None
    for card in cards.values():
        for crane in (False, True):
            chooser, library, reductions = z3.Int("chooser"), z3.Bool("library"), z3.Bool("reductions")
            flags = {name: z3.Bool(f"works_{name.lower().replace(' ', '_')}") for name in ("Smithy", "Quarry")}
            covered_cost = z3.Int("covered_cost")
            domain = [z3.Or(chooser == 0, chooser == 1), z3.Or(*[covered_cost == c for c in costs])]

            def run(
                paths: Paths,
                card=card,
                crane=crane,
                chooser=chooser,
                library=library,
                reductions=reductions,
                flags=flags,
                covered_cost=covered_cost,
            ):
                # symbolic values stand where the rules expect numbers and booleans: that is the point of the proof
                state: Any = SJState(["P", "Q"], options)
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
                model = refute(solver, claim)
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
    return results


def _palace_proof(options: Any) -> Result:
    """Palace: a quarter of the other VP, rounded down, for any number of Chapel cards and any bonus buildings."""
    from referee.san_juan.cards import MONUMENTS
    from referee.san_juan.state import SJState

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

            def score(paths: Paths, city=city, tucked=tucked):
                state = SJState(["P", "Q"], options)
                player: Any = state.p[0]  # a symbolic Chapel count where the rules expect a number
                player.city = list(city)
                player.owned = Counter(city)
                player.tucked = Sym(tucked, paths)
                parts = state.score(0)
                return parts["palace"] - 0, parts["total"]

            paths = Paths([])
            palace, total = score(paths)
            palace, total = Sym._t(palace), Sym._t(total)
            base = total - palace
            solver = z3.Solver()
            solver.add(tucked >= 0)
            model = refute(solver, z3.And(4 * palace <= base, base < 4 * palace + 4))
            if model is not None and failure is None:
                failure = {
                    "city": " + ".join(city),
                    "chapel_cards": model.eval(tucked, True).as_long(),
                    "palace": model.eval(palace, True).as_long(),
                    "other VP": model.eval(base, True).as_long(),
                }
    return Result(
        "Palace bonus = a quarter of the other VP, rounded down (any Chapel count)", failure is None, failure or {}
    )

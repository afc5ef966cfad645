"""``referee variant check``: is a house rule sound? Its file is validated, the game's z3 proofs run under it, and
seeded random games are played under it through the game's property adapter (``Game.property_adapter``, a
``referee.testkit.GameAdapter``). Every invariant is reported as holding or broken; a broken one comes with a
counterexample written as a record (beside a copy of the variant file, so the record names it) and judged.

Invariants of the random play, each checked on every game:

- *every game ends within its bound*: the adapter's ``statement_bound`` (or ``HARD_CAP`` statements when it claims
  none), under each of the adapter's playout policies (``GameAdapter.policies``: random play, and for some games
  players who pass whenever the rules allow);
- *a player always has a legal statement*: before the end, the player to act has a legal statement, and at sampled
  positions one of the statements the referee lists as legal is accepted; a generator that cannot go on
  (``GeneratorFailed``) with nothing accepted breaks it too;
- *generated records replay valid*: ``Game.play`` writes a record the referee judges valid within the bound;
- *legal and illegal statements agree*: at sampled positions what the adapter reports legal is accepted, what it
  reports illegal is rejected and leaves the position unchanged;
- *the game's own invariants*: the adapter's ``Checker`` (e.g. Saint Petersburg's payment formula and ruble
  conservation), around every statement.

Everything is seeded: the same command prints the same report in any process.
"""

from __future__ import annotations

import copy
import importlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import RefereeError, Verdict
from referee.files import write_named_by_content
from referee.game import GameState, GameType, GeneratorFailed
from referee.record import write_record
from referee.replay import Referee, check_file
from referee.resources import USER_POLICY, ReadPolicy, counterexample_folder
from referee.testkit import HARD_CAP, NAMES, Config, FailedAt, GameAdapter, ScriptedAdapter, parse_record_body
from referee.variant import Variant, find_variant, record_tag, variant_rules

ENDS = "every game ends within its bound"
ACTS = "a player always has a legal statement"
REPLAYS = "generated records replay valid"
AGREES = "legal and illegal statements agree with the referee"
OWN = "the game's own invariants"
PLAY_INVARIANTS = (ENDS, ACTS, REPLAYS, AGREES, OWN)
PROBED_POSITIONS = 6  # positions per game where legal and illegal statements are tried


@dataclass
class Finding:
    """One invariant under a house rule: whether it holds, on what, and a judged counterexample when it does not."""

    name: str
    holds: bool
    checked: str = ""
    detail: str = ""
    record: Path | None = None
    verdict: str | None = None

    def lines(self) -> list[str]:
        head = f"  {'holds ' if self.holds else 'broken'}  {self.name}"
        if self.checked:
            head += f" ({self.checked})"
        out = [head]
        if self.detail:
            out.append("          " + self.detail.replace("\n", "\n          "))  # every line under its invariant
        if self.record is not None:
            out.append(f"          record {self.record}: referee verdict {self.verdict}")
        return out


@dataclass
class Subject:
    """The rules a check runs under: a game, a house rule laid over its base ruleset, the resulting options, and
    the ``Variant`` tag its counterexample records carry (a registered name, or the file copied beside them)."""

    game: GameType
    variant: Variant
    ruleset: str
    options: Any
    tag: str
    registered: bool

    def config(self) -> Config:
        return Config(self.game, self.ruleset, self.variant.name, self.options)

    def tags(self, players: list[str], event: str) -> dict[str, str]:
        return {
            "Game": self.game.title,
            "Players": ", ".join(players),
            "Ruleset": self.ruleset,
            "Variant": self.tag,
            "Event": event,
        }


def subject_of(reference: str, policy: ReadPolicy = USER_POLICY, base_dir: Path | None = None) -> Subject:
    """The rules a variant (a registered name or a file) makes; ``bad-variant`` / ``unknown-variant`` errors as
    records get them."""
    variant = find_variant(reference, base_dir or Path.cwd(), policy)
    game, options = variant_rules(variant)
    ruleset = variant.ruleset or game.default_ruleset
    tag, copied = record_tag(variant, reference)
    return Subject(game, variant, ruleset, options, tag, copied is None)


def write_and_judge(
    subject: Subject, players: list[str], lines: list[str], event: str, comments: list[str], out_dir: Path
) -> tuple[Path, str]:
    """A counterexample record in ``out_dir`` (named by its content) and the referee's verdict on it, in words."""
    import hashlib

    text = write_record(subject.tags(players, event), lines, comments, subject.game.tag_options)
    slug = "".join(ch if ch.isalnum() or ch in "-." else "-" for ch in f"{subject.game.id}-{subject.variant.name}")
    path = out_dir / f"check-{slug}-{hashlib.sha1(text.encode()).hexdigest()[:8]}.rec"
    write_named_by_content(path, text)
    (report,) = check_file(path)
    if report.error is not None:
        verdict = f"{report.verdict.value} at line {report.error.line} [{report.error.code}] {report.error.message}"
    else:
        verdict = f"{report.verdict.value} after {report.statements} statements"
    return path, verdict


# ------------------------------------------------------------------------------------------------------ proofs
def proof_findings(subject: Subject, out_dir: Path) -> list[Finding] | None:
    """The game's z3 proofs under the house rule (None: the game has none). Imports z3."""
    if not subject.game.proofs_module:
        return None
    from referee.proofs import prove

    found = []
    tags = {"Ruleset": subject.ruleset, "Variant": subject.tag}
    for result in prove(subject.game, subject.options, tags, out_dir):
        detail = ", ".join(f"{k}={v}" for k, v in result.values.items())
        if result.detail:
            detail += f" ({result.detail})"
        finding = Finding(result.name, result.proved, detail="" if result.proved else detail)
        if not result.proved:
            finding.record, finding.verdict = result.record, result.verdict
            if result.record is None and result.verdict:
                finding.detail += f"; {result.verdict}"
        found.append(finding)
    return found


# ------------------------------------------------------------------------------------------------- random play
def adapter_of(game: GameType) -> GameAdapter[Any] | None:
    """The game's property adapter, or None when it names none or its module is not installed."""
    if not game.property_adapter:
        return None
    module, _, name = game.property_adapter.partition(":")
    try:
        found = getattr(importlib.import_module(module), name)()
    except ImportError:
        return None
    assert isinstance(found, GameAdapter)
    return found


@dataclass
class Play:
    """One game of the random play: its statements (accepted so far), the state they reach, how it was made."""

    players: list[str]
    seed: int
    policy: str
    statements: list[Any]
    state: GameState
    capped: bool = False
    failure: str | None = None  # the player had nothing to play, or its statement was refused


@dataclass
class PlayCheck:
    """The findings of the random play, filled game by game (the first counterexample of each invariant kept)."""

    subject: Subject
    adapter: GameAdapter[Any]
    out_dir: Path
    cap: int = HARD_CAP
    findings: dict[str, Finding] = field(default_factory=dict)

    def broken(self, name: str) -> bool:
        return not self.findings[name].holds

    def fail(self, name: str, players: list[str], lines: list[str], detail: str, comments: list[str]) -> None:
        if self.broken(name):
            return
        finding = self.findings[name]
        finding.holds, finding.detail = False, detail
        event = f"referee variant check: {name}"
        finding.record, finding.verdict = write_and_judge(
            self.subject, players, lines, event, [f"{name}: broken", detail, *comments], self.out_dir
        )


def play_findings(subject: Subject, games: int, seed: int, out_dir: Path, cap: int = HARD_CAP) -> list[Finding] | None:
    """Seeded random games under the house rule, every invariant checked on each (None: no adapter). A game not
    over after ``cap`` statements (or past the adapter's bound) does not end."""
    adapter = adapter_of(subject.game)
    if adapter is None:
        return None
    check = PlayCheck(subject, adapter, out_dir, cap)
    counts = adapter.player_counts()
    policies = adapter.policies()
    for name in PLAY_INVARIANTS:
        check.findings[name] = Finding(name, True)
    config = subject.config()
    refused = _refused_counts(check, counts)
    for k in range(games):
        n = counts[k % len(counts)]
        if n in refused:
            continue
        players = NAMES[:n]
        game_seed = seed + k
        generated = _generated(check, players, game_seed)
        for policy, step in policies.items():
            if isinstance(adapter, ScriptedAdapter):
                if generated is None or policy != "random":
                    continue
                play = generated
            elif check.broken(ENDS) and policy != "random":
                continue  # a policy that found a game without end has shown it: the other games are random
            else:
                play = _driven(check, config, players, game_seed, policy, step)
            _check_end(check, play)
            _check_positions(check, config, play, random.Random(game_seed))
    seeds = f"seed {seed}" if games == 1 else f"seeds {seed}-{seed + games - 1}"
    label = f"{games} game(s), {seeds}, {counts[0]}-{counts[-1]} players"
    if refused:
        label = (
            f"{label}; none with {', '.join(map(str, sorted(refused)))} players"
            if len(refused) < len(counts)
            else ("no game: none can be set up")
        )
    for finding in check.findings.values():
        finding.checked = label
    if adapter.checker(config, NAMES[: counts[0]]) is None:
        del check.findings[OWN]
    else:
        check.findings[OWN].name = f"{OWN} ({type(adapter.checker(config, NAMES[: counts[0]])).__name__})"
    return list(check.findings.values())


def _refused_counts(check: PlayCheck, counts: list[int]) -> set[int]:
    """The player counts ``Game.play`` cannot even set up a game with under the house rule (options that do not fit
    the board or the deck, data it cannot read): each breaks "generated records replay valid", with a record of the
    tags alone and the referee's verdict on it (refused at its setup, or not when only the generator cannot)."""
    subject, refused = check.subject, set()
    for n in counts:
        try:
            subject.game.new_state(NAMES[:n], subject.options)
        except (ValueError, RefereeError) as problem:
            refused.add(n)
            message = getattr(problem, "message", str(problem))
            check.fail(REPLAYS, NAMES[:n], [], f"no game with {n} players can be set up: {message}", [])
    return refused


def _bound(check: PlayCheck, n: int) -> int | None:
    return check.adapter.statement_bound(n, check.subject.options)


def _generated(check: PlayCheck, players: list[str], seed: int) -> Play | None:
    """``Game.play``'s record for this seed, judged; the game it plays (None when the generator could not finish)."""
    subject, adapter = check.subject, check.adapter
    game = subject.game
    text_of = adapter.text
    try:
        text = game.play(players, random.Random(seed), subject.options, {"Ruleset": subject.ruleset})
    except GeneratorFailed as failed:
        _generator_failed(check, players, seed, failed)
        return None
    statements = parse_record_body(game, text)
    lines = [text_of(s) for s in statements]
    (report,) = Referee(house_rule=subject.variant).judge_text(text)
    bound = _bound(check, len(players))
    if report.verdict is not Verdict.VALID or (bound is not None and report.statements > bound):
        why = (
            f"the generated record is {report.verdict.value}"
            + (
                f" at statement {report.statements + 1}: [{report.error.code}] {report.error.message}"
                if report.error
                else ""
            )
            if report.verdict is not Verdict.VALID
            else f"{report.statements} statements > bound {bound}"
        )
        check.fail(REPLAYS, players, lines, why, [f"Game.play, seed {seed}"])
        return None
    state = game.new_state(players, subject.options)
    for statement in statements:
        state.apply(statement)
    return Play(players, seed, "random", statements, state)


def _generator_failed(check: PlayCheck, players: list[str], seed: int, failed: GeneratorFailed) -> None:
    """The generator stopped: when nothing the referee lists is accepted there, no player has a legal statement;
    otherwise the generator wrote a statement the referee refuses (its record does not replay valid)."""
    subject = check.subject
    state = subject.game.new_state(players, subject.options)
    parser = subject.game.parser()
    for line in failed.lines:
        state.apply(parser.resolve(parser.parse(line), state.seats))
    listed = _accepted_listed(check.adapter, state, parser)
    reason = getattr(failed.reason, "message", str(failed.reason))
    code = getattr(failed.reason, "code", None)
    if failed.refused is None:
        refused = f"found nothing to write: {reason}"
    else:
        refused = f"{failed.refused!r} refused" + (f" [{code}]" if code else "") + f": {reason}"
    if listed is not None and not listed[1]:
        shown = "; ".join(listed[0][:6]) or "none"
        check.fail(
            ACTS,
            players,
            failed.lines,
            f"after the last line no statement the referee lists as legal is accepted and moves the game on "
            f"(listed: {shown}); the generator's {refused}",
            [f"Game.play, seed {seed}", "the position after the last line:", state.summary()],
        )
    else:
        lines = failed.lines + ([failed.refused] if failed.refused else [])
        check.fail(REPLAYS, players, lines, f"the generator's {refused}", [f"Game.play, seed {seed}"])


def _accepted_listed(adapter: GameAdapter[Any], state: GameState, parser: Any) -> tuple[list[str], list[str]] | None:
    """(listed, accepted): the statements the referee lists as legal and the first of them that a copy of the state
    accepts and that moves the game on; None at the end of a game, and where only a template could move it on (it
    cannot be tried). A checkpoint (``round 7``) is accepted where it stands and changes nothing: a game stuck before
    it is still stuck."""
    if state.is_terminal():
        return None
    listed: list[str] = []
    templates = False
    before = state.fingerprint()
    for text in state.legal_statements():
        try:  # a template ("deal: 3 card(s) from the buildings deck", "governor: PLAYER") is no statement
            statement = parser.resolve(parser.parse(text), state.seats)
        except RefereeError:
            templates = True
            continue
        listed.append(text)
        after = copy.deepcopy(state)
        try:
            after.apply(statement)
        except RefereeError:
            continue
        if after.fingerprint() != before:
            return listed, [text]
    return None if templates else (listed, [])


def _driven(
    check: PlayCheck,
    config: Config,
    players: list[str],
    seed: int,
    policy: str,
    step: Callable[[GameState, random.Random, list[Any]], Any],
) -> Play:
    """A playout by one of the adapter's policies, stopped past the bound; a step that fails ends it."""
    bound = _bound(check, len(players))
    cap = min(bound + 1, check.cap) if bound is not None else check.cap
    rng = random.Random(seed)
    state = config.game.new_state(players, config.options)
    history: list[Any] = []
    while len(history) < cap:
        try:
            statement = step(state, rng, history)
            if statement is None:
                return Play(players, seed, policy, history, state)
            state.apply(statement)
        except (RefereeError, RuntimeError, IndexError, ValueError) as error:
            message = getattr(error, "message", str(error))
            return Play(players, seed, policy, history, state, failure=f"{type(error).__name__}: {message}")
        history.append(statement)
    return Play(players, seed, policy, history, state, capped=True)


def _check_end(check: PlayCheck, play: Play) -> None:
    bound = _bound(check, len(play.players))
    lines = [check.adapter.text(s) for s in play.statements]
    where = [f"{play.policy} play, seed {play.seed}"]
    if play.failure is not None:
        check.fail(
            ACTS, play.players, lines, f"the {play.policy} player found no legal statement ({play.failure})", where
        )
    elif play.capped:
        limit = f"bound {bound}" if bound is not None and bound < check.cap else f"cut at {check.cap}"
        if bound is None:
            limit = f"no bound claimed; {limit}"
        check.fail(ENDS, play.players, lines, f"no end after {len(play.statements)} statements ({limit})", where)
    elif not play.state.is_terminal():
        check.fail(ENDS, play.players, lines, "the playout stopped before the game ended", where)


def _check_positions(check: PlayCheck, config: Config, play: Play, rng: random.Random) -> None:
    """Replay a game: the checker around every statement, a legal statement at every position, and legal/illegal
    agreement at a few sampled positions."""
    adapter, subject = check.adapter, check.subject
    game = subject.game
    parser = game.parser()
    checker = adapter.checker(config, play.players)
    statements = play.statements
    probes = set(rng.sample(range(len(statements) + 1), min(len(statements) + 1, PROBED_POSITIONS)))
    state = game.new_state(play.players, config.options)
    where = [f"{play.policy} play, seed {play.seed}"]

    def lines(upto: int, extra: Any = None) -> list[str]:
        return [adapter.text(s) for s in statements[:upto]] + ([adapter.text(extra)] if extra is not None else [])

    acts = agrees = own = True
    for index in range(len(statements) + 1):
        if acts and not state.is_terminal() and not adapter.has_legal_action(state):
            acts = False
            check.fail(
                ACTS, play.players, lines(index), "the player to act has no legal action", [*where, state.summary()]
            )
        if index in probes and (acts or agrees):
            acts, agrees = _probe(check, state, rng, statements[:index], parser, acts, agrees, lines, where, play)
        if index == len(statements):
            break
        statement = statements[index]
        if own and checker is not None:
            try:
                checker.before(state, statement)
                state.apply(statement)
                checker.after(state, statement)
            except AssertionError as error:
                own = False
                detail = str(error) if isinstance(error, FailedAt) else f"after statement {index + 1}: {error}"
                check.fail(OWN, play.players, lines(index + 1), detail, where)
                state = _replayed(game, play.players, config.options, statements[: index + 1])
        else:
            state.apply(statement)


def _replayed(game: GameType, players: list[str], options: Any, statements: list[Any]) -> GameState:
    state: GameState = game.new_state(players, options)
    for statement in statements:
        state.apply(statement)
    return state


def _probe(
    check: PlayCheck,
    state: GameState,
    rng: random.Random,
    history: list[Any],
    parser: Any,
    acts: bool,
    agrees: bool,
    lines: Callable[..., list[str]],
    where: list[str],
    play: Play,
) -> tuple[bool, bool]:
    adapter = check.adapter
    index = len(history)
    if acts:
        listed = _accepted_listed(adapter, state, parser)
        if listed is not None and listed[0] and not listed[1]:
            acts = False
            shown = "; ".join(listed[0][:6])
            check.fail(
                ACTS,
                play.players,
                lines(index),
                f"after statement {index} no statement the referee lists as legal is accepted and moves the game on "
                f"(listed: {shown})",
                [*where, state.summary()],
            )
    if not agrees:
        return acts, agrees
    legal = adapter.legal_probes(state, rng, history)
    for move in rng.sample(legal, min(4, len(legal))):
        try:
            copy.deepcopy(state).apply(move)
        except RefereeError as error:
            check.fail(
                AGREES,
                play.players,
                lines(index, move),
                f"statement {index + 1} {adapter.text(move)!r} is reported legal but refused: [{error.code}] "
                f"{error.message}",
                where,
            )
            return acts, False
    for move in adapter.illegal_moves(state, rng, history):
        before = state.fingerprint()
        try:
            state.apply(move)
        except RefereeError:
            if state.fingerprint() != before:
                check.fail(
                    AGREES,
                    play.players,
                    lines(index, move),
                    f"{adapter.text(move)!r} is refused but the position changed",
                    where,
                )
                return acts, False
            continue
        check.fail(
            AGREES, play.players, lines(index, move), f"{adapter.text(move)!r} is reported illegal but accepted", where
        )
        return acts, False
    return acts, agrees


# --------------------------------------------------------------------------------------------------------- run
def describe(subject: Subject) -> str:
    """The house rule in one line: what it changes."""
    changes = [f"{k} = {v!r}" for k, v in subject.variant.options.items()]
    changes += [
        f"{card}: {attribute} {value}" for card, attribute, value in getattr(subject.options, "cards", ()) or ()
    ]
    return "; ".join(changes) or "no changes"


def run_check(
    reference: str, games: int, seed: int, out_dir: Path, proofs: bool = True, cap: int = HARD_CAP
) -> Iterator[str]:
    """The report of ``referee variant check``, line by line; the last line says how many invariants broke (the
    caller's exit status)."""
    subject = subject_of(reference)
    source = None if subject.registered else subject.variant.path
    with counterexample_folder(out_dir, source) as copied:
        subject.tag = copied or subject.tag
        yield from _check_lines(subject, games, seed, out_dir, proofs, cap)


def _check_lines(subject: Subject, games: int, seed: int, out_dir: Path, proofs: bool, cap: int) -> Iterator[str]:
    yield f"variant {subject.variant.name}: {subject.game.title} ({subject.ruleset}); {describe(subject)}"
    yield "  holds   the variant file is valid (every option and card change checked)"
    broken = 0
    if proofs:
        found = proof_findings(subject, out_dir)
        if found is None:
            yield f"z3 proofs: {subject.game.title} has none"
        else:
            yield "z3 proofs:"
            for finding in found:
                broken += not finding.holds
                yield from finding.lines()
    played = play_findings(subject, games, seed, out_dir, cap)
    if played is None:
        yield f"random play: {subject.game.title} has no property adapter installed (Game.property_adapter)"
    else:
        yield "random play:"
        for finding in played:
            broken += not finding.holds
            yield from finding.lines()
    yield f"{broken} invariant(s) broken" if broken else "every invariant holds"


__all__ = [
    "ACTS",
    "AGREES",
    "ENDS",
    "OWN",
    "REPLAYS",
    "Finding",
    "Subject",
    "play_findings",
    "proof_findings",
    "run_check",
    "subject_of",
]

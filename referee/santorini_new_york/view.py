"""What a person sees of a Santorini: New York position: the board drawn as text (heights, rooftops, skyscrapers,
workers), hands, the Statue, and the statements that could come next."""

from __future__ import annotations

from referee.santorini_new_york.base import OVER, SETUP, TURNS, SNYBase
from referee.santorini_new_york.board import BoardMap
from referee.santorini_new_york.cards import Card, card_order, card_text
from referee.santorini_new_york.engine import Position
from referee.santorini_new_york.hidden import DISCARD, CardError, CardTracker, hand
from referee.santorini_new_york.notation import quote_player

LETTERS = "ABCDEFGH"
MAX_LISTED = 60  # a turn's choices in the short list (an error's alternatives)
SKYSCRAPERS_LISTED = 10  # setup skyscraper spaces in the short list
REVEALS_LISTED = 8  # 'play:' reveals in the short list
MAX_REVEALS = 5**5  # every reveal of five named hands of five; past it (many "?" cards) the full list gives a pattern


def draw_board(board: BoardMap, pos: Position) -> list[str]:
    """The board, north up: each space is its level (0-3) then its occupant (a player's letter A, B, ..., R for a
    rooftop, '.' for none); S is a skyscraper, ## a void cell. ``read_drawing`` reads it back."""
    lines = ["    " + " ".join(f"{chr(ord('a') + c):<2}" for c in range(board.width))]
    for row in range(board.height - 1, -1, -1):
        cells = []
        for column in range(board.width):
            cell = row * board.width + column
            if cell not in board.spaces:
                cells.append("##")
            elif cell in pos.sky:
                cells.append("S ")
            else:
                mark = LETTERS[pos.workers[cell]] if cell in pos.workers else ("R" if cell in pos.roof else ".")
                cells.append(f"{pos.height[cell]}{mark}")
        lines.append(f"{row + 1:>3} " + " ".join(cells).rstrip())
    return lines


def read_drawing(board: BoardMap, text: str) -> Position:
    """A position drawn as ``draw_board`` draws it (the column-letter line and the row numbers may be left out):
    rows north first, one token per cell — ``2`` or ``2.`` a level, ``1A`` a worker of the first player, ``3R`` a
    rooftop, ``S`` a skyscraper, ``#``/``##`` a void cell. For tests, examples and docs."""
    rows = []
    for line in text.strip().splitlines():
        tokens = line.split()
        if not tokens or all(len(t) == 1 and t.isalpha() and t.islower() for t in tokens):
            continue  # blank, or the column letters
        if tokens[0].isdigit() and len(tokens) == board.width + 1:
            tokens = tokens[1:]  # a row number
        rows.append(tokens)
    if len(rows) != board.height or any(len(row) != board.width for row in rows):
        raise ValueError(f"a drawing of {board.name!r} has {board.height} rows of {board.width} cells")
    pos = Position.empty(board)
    for r, tokens in enumerate(rows):
        row = board.height - 1 - r
        for column, token in enumerate(tokens):
            cell = row * board.width + column
            if token.strip("#") == "" or cell not in board.spaces:
                if token.strip("#") or cell in board.spaces:
                    raise ValueError(f"{board.square(cell)}: {token!r} does not match the board's void cells")
                continue
            if token in ("S", "S."):
                pos = pos.with_skyscraper(cell)
                continue
            for _ in range(int(token[0])):
                pos = pos.built(cell)
            mark = token[1:2]
            if mark == "R":
                pos = pos.built(cell)
            elif mark and mark != ".":
                pos = pos.with_worker(cell, LETTERS.index(mark))
    return pos


def hand_text(state: SNYBase, seat: int) -> str:
    known = [card_text(card) for card in state.tracker.known_at(hand(seat))]
    hidden = state.tracker.hidden_in(seat)
    if hidden:
        known.append(f"{hidden} unknown")
    return ", ".join(known) or "no cards"


def summary(state: SNYBase) -> str:
    if state.stage == SETUP:
        head = "setup: " + ("; ".join(state.setup_missing()) or "complete, the first 'play:' is next")
    elif state.stage == OVER:
        how = state.termination.description if state.termination else ""
        head = f"game over: {state.players[state.winner or 0]} wins ({how})"
    elif state.stage == TURNS:
        seat = state.order[state.turn]
        head = f"round {state.round}: {state.players[seat]} to act ({card_text(state.played[seat])})"
    else:
        due = ", ".join(state.players[s] for s in sorted(state.refill_due))
        head = f"round {state.round}: " + (f"refill due for {due}" if due else "the 'play:' reveal is next")
    lines = [head]
    if state.holder is not None:
        lines.append(f"Statue of Liberty: {state.players[state.holder]}")
    if state.played:
        order = ", ".join(f"{state.players[s]} {card_text(state.played[s])}" for s in state.order)
        lines.append(f"played (turn order): {order}")
    lines.append(f"board {state.board.name} (level 0-3 then occupant; S skyscraper, R rooftop):")
    lines += ["  " + line for line in draw_board(state.board, state.pos)]
    for seat, name in enumerate(state.players):
        workers = " ".join(state.board.square(c) for c in state.pos.workers_of(seat)) or "none"
        status = " (out)" if seat in state.out else ""
        lines.append(f"{LETTERS[seat]} = {name}{status}: workers {workers}; hand {hand_text(state, seat)}")
    lines.append(f"discard pile: {state.tracker.count(DISCARD)} cards")
    return "\n".join(lines)


def legal_statements(state: SNYBase, limit: int | None = MAX_LISTED) -> list[str]:
    """What could come next; a turn's choices (often hundreds: each worker, move and build) shortened to ``limit``,
    the setup skyscraper's spaces and the reveals to a few examples. ``limit=None``: every statement (a reveal as a
    pattern when there are more than ``MAX_REVEALS``)."""
    if state.stage == OVER:
        return [f"win: {quote_player(state.players[state.winner or 0])}"]
    if state.stage == TURNS:
        seat = state.order[state.turn]
        turns = state.legal_turns()
        if not turns:
            return [
                f"{quote_player(state.players[seat])}: loses {state.board.square(w)}"
                for w in state.losable_workers(seat)
            ]
        return [state.turn_line(seat, turn) for turn in turns[:limit]]
    if state.stage == SETUP:
        return setup_statements(state, every=limit is None)
    out = [
        f"hand {quote_player(state.players[s])}: {state.refill_count()} cards from the discard pile (named, or ?)"
        for s in sorted(state.refill_due)
    ]
    out.append(f"round {state.round}")
    if not state.refill_due:
        out += reveals(state) if limit is not None else every_reveal(state)
    return out


def setup_statements(state: SNYBase, every: bool = False) -> list[str]:
    out = []
    free = state.free_pairs(state.pos)
    for seat, name in enumerate(state.players):
        if seat not in state.pairs:
            for number in free:
                first, second = (state.board.square(c) for c in state.board.starts[number])
                out.append(f"place: {quote_player(name)} {first} {second}")
    if state.needs_skyscraper and state.setup_skyscraper is None:
        spaces = [c for c in sorted(state.board.spaces) if state.skyscraper_problem(c) is None]
        out += [f"skyscraper: {state.board.square(c)}" for c in (spaces if every else spaces[:SKYSCRAPERS_LISTED])]
    for seat, name in enumerate(state.players):
        if seat not in state.dealt:
            out.append(f"hand {quote_player(name)}: {state.options.hand_size} cards of the deck (named, or ?)")
    out.append("round 1")
    if not state.setup_missing():
        out += every_reveal(state) if every else reveals(state)
    return out


def possible_cards(state: SNYBase, seat: int) -> list[Card]:
    """The cards the player may hold: named in his hand, or one of his ``?`` in some consistent reading."""
    tracker = state.tracker
    return [card for card in tracker.cards if tracker.possible_in(card, seat)]


def every_reveal(state: SNYBase) -> list[str]:
    """Every legal 'play:' reveal, each player still in with every card his hand may hold alongside the others' (the
    record stays consistent, '?' cards included); past ``MAX_REVEALS`` a few of them and the pattern
    ``play: PLAYER CARD, ... (NAME: CARD | CARD ...; ...)`` naming the cards each hand may hold."""
    seats = state.in_game()
    options = {seat: sorted(possible_cards(state, seat), key=card_order) for seat in seats}
    start = state.tracker.copy()
    if state.stage == SETUP:
        start.begin()  # at the first reveal the cards not dealt join the discard pile
    out: list[str] = []

    def extend(index: int, tracker: CardTracker, chosen: list[str]) -> bool:
        if index == len(seats):
            out.append("play: " + ", ".join(chosen))
            return len(out) <= MAX_REVEALS
        seat = seats[index]
        for card in options[seat]:
            after = tracker.copy()
            try:
                after.play(seat, card)
            except CardError:
                continue
            if not extend(index + 1, after, [*chosen, f"{quote_player(state.players[seat])} {card_text(card)}"]):
                return False
        return True

    if extend(0, start, []):
        return out
    hands = "; ".join(
        f"{state.players[seat]}: " + " | ".join(card_text(card) for card in options[seat]) for seat in seats
    )
    return [*reveals(state), f"play: PLAYER CARD, ... ({hands})"]


def reveals(state: SNYBase, limit: int = REVEALS_LISTED) -> list[str]:
    """A few legal 'play:' reveals: every player still in names a card his hand may hold, each with the cards
    before it (the record is consistent after each)."""
    seats = state.in_game()
    options = {seat: sorted(possible_cards(state, seat), key=card_order) for seat in seats}
    out: list[str] = []
    for start in range(max((len(cards) for cards in options.values()), default=0)):
        tracker = state.tracker.copy()
        if state.stage == SETUP:
            tracker.begin()  # at the first reveal the cards not dealt join the discard pile
        chosen = []
        try:
            for seat in seats:
                cards = options[seat]
                card = next(c for c in cards[start:] + cards[:start] if tracker.possible_in(c, seat))
                tracker.play(seat, card)
                chosen.append(f"{quote_player(state.players[seat])} {card_text(card)}")
        except (StopIteration, CardError):
            continue
        line = "play: " + ", ".join(chosen)
        if line not in out:
            out.append(line)
        if len(out) >= limit:
            break
    return out

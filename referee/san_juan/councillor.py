"""The councillor phase: draw 2 (the chooser 5, with the Library 8), keep 1 (Prefecture 2) and discard the rest; an
Archive owner may keep every drawn card and then discards the excess from his whole hand on the next line."""

from __future__ import annotations

from referee.san_juan.base import ArchiveDue
from referee.san_juan.codes import SJCode
from referee.san_juan.hidden import DISCARD, WAITING
from referee.san_juan.ledger import Ledger
from referee.san_juan.notation import Action, Council, Discard, quote_player


class CouncillorPhase(Ledger):
    """A councillor turn: how many cards drawn and kept, and the Archive's discard."""

    def council_counts(self, seat: int) -> list[int]:
        """The numbers of cards a councillor may draw (the chooser may decline his privilege)."""
        o = self.options
        counts = [o.council_draw]
        if seat == self.chooser:
            counts.append(o.council_privilege_draw)
            if self.library(seat).may:
                counts.append(self.council_library_draw())
        return counts

    def council_library_draw(self) -> int:
        """The chooser's draw with the Library: the privilege's extra cards doubled (2 + 2 x 3 = 8)."""
        o = self.options
        return o.council_draw + 2 * (o.council_privilege_draw - o.council_draw)

    def keep_limit(self, seat: int) -> int:
        return self.options.council_keep + (1 if self.works(seat, "Prefecture") else 0)

    def _council(self, seat: int, action: Council) -> None:
        player = self.p[seat]
        counts = self.council_counts(seat)
        drawn = len(action.draws)
        # what remains to draw; the supply alone when it covers every count (then no count is capped)
        available = self.supply if self.supply >= max(counts) else self.available()
        for count in counts:  # is ``drawn`` one of the allowed counts (each capped by what remains)?
            if drawn == (count if count < available else available):
                break
        else:
            allowed = sorted({min(c, self.available()) for c in counts})
            if self.library(seat).used and drawn == self.capped(self.council_library_draw()):
                raise self.fail(
                    SJCode.LIBRARY_USED,
                    f"{player.name} has already used the Library this round; "
                    f"the draw is {' or '.join(map(str, allowed))} card(s)",
                    action.column,
                )
            if min(counts) > self.available() and not self.options.empty_supply_skips_draw:
                raise self.fail(SJCode.SUPPLY_EMPTY, "not enough cards remain to draw", action.column)
            raise self.fail(
                SJCode.DRAW_COUNT,
                f"{player.name} draws {' or '.join(map(str, allowed))} card(s) as councillor here, not {drawn}",
                action.column,
            )
        uses_library = drawn > min(counts[1] if len(counts) > 1 else counts[0], available)  # self.capped(...)
        draws, open_reading = self._keep_draws(action.draws, action.keeps)
        keep = self.keep_limit(seat)
        kept = len(action.keeps)
        archive = self.works(seat, "Archive") and kept == drawn and drawn > keep
        if not archive and not (min(1, drawn) <= kept <= min(keep, drawn)):
            may_keep = f"{min(keep, drawn)}" if keep == 1 or drawn <= 1 else f"1 to {min(keep, drawn)}"
            if self.works(seat, "Archive"):
                may_keep += f" — or, with the Archive, all {drawn} (then discards the excess) —"
            raise self.fail(
                SJCode.KEEP_COUNT,
                f"{player.name} keeps {may_keep} of the {drawn} drawn card(s), not {kept}",
                action.column,
            )
        waiting = self.options.council_discards_at_phase_end
        plan = self._plan_keeps(seat, draws, action.keeps, WAITING if waiting else DISCARD)
        plan.open_reading = open_reading
        # --- commit: draw all, keep some, discard the rest
        if uses_library:
            self.library_used.add(seat)
        self._take_kept(seat, draws, plan, waiting)
        if archive:
            self.archive_due = ArchiveDue(seat, drawn - keep)

    def _archive_discard(self, due: ArchiveDue, seat: int, action: Action, column: int) -> None:
        """The line after an Archive councillor kept every drawn card is his discard of the excess, nothing else."""
        if seat != due.seat or not isinstance(action, Discard):
            name = self.p[due.seat].name
            raise self.fail(
                SJCode.ARCHIVE_DISCARD,
                f"{name} kept every drawn card with the Archive and must first discard {due.excess} card(s): "
                f"'{quote_player(name)}: discards ...'",
                column,
            )
        count = due.excess
        if len(action.cards) != count:
            raise self.fail(
                SJCode.ARCHIVE_DISCARD,
                f"{self.p[seat].name} discards exactly {count} card(s) after "
                f"keeping all drawn cards with the Archive, not {len(action.cards)}",
                action.column,
            )
        waiting = self.options.council_discards_at_phase_end
        plan = self._plan_removal(seat, action.cards, "the Archive discard", WAITING if waiting else DISCARD)
        self._remove(seat, plan)
        self._to_discard_all(action.cards, waiting)
        self.archive_due = None

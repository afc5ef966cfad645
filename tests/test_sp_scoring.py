"""Saint Petersburg scoring: phase scorings, Mariinsky, Tax Man, Pubs, score claims, final scoring and the winner
(rules reference §3 Scoring, §5 Game end / Winner, §7 D1 D3 D5)."""

from __future__ import annotations

import random

import pytest
from sp_helpers import (
    ROUND1_WORKERS,
    acting,
    finish,
    first,
    give,
    illegal,
    new_state,
    options,
    parse,
    rejects,
    run,
    unfinished,
)

from referee.errors import Verdict
from referee.replay import check_text
from referee.saint_petersburg.options import FIRST_EDITION
from referee.saint_petersburg.play import play_record
from referee.turns import clockwise

ARISTOCRATS = [
    "Author",
    "Administrator",
    "Warehouse Manager",
    "Secretary",
    "Controller",
    "Judge",
    "Mistress of Ceremonies",
]
RED_UPGRADES = [
    "Abbot",
    "Chamber Maid",
    "Weapon Master",
    "Builder",
    "Senator",
    "Patriarch",
    "Tax Man",
    "Admiral",
    "Minister of Foreign Affairs",
    "Czarina",
]


def scored(state, phase, seat=0):
    """The scoring of ``phase`` for every player, through the real end of the phase (both players pass)."""
    acting(state, phase, to_act=state.holder[phase])
    for seat in clockwise(state.holder[phase], len(state.players)):
        state.apply(parse(f"{state.players[seat]}: pass"))
    return [(s.rubles, s.vp) for s in state.last_scoring]


# --------------------------------------------------------------------------------------------- phase scoring
class TestPhaseScoring:
    def setup_method(self):
        self.s = new_state()
        give(
            self.s,
            0,
            "Lumberjack",
            "Wharf",
            "Fur Shop",  # green, upgrades included
            "Market",
            "Bank",
            "Customs House",  # blue
            "Author",
            "Controller",
            "Senator",
        )  # red
        give(self.s, 1, "Czar & Carpenter")

    def test_worker_scoring_green_cards_and_green_upgrades(self):
        assert scored(self.s, "worker") == [(3 + 6 + 3, 1 + 2), (3, 0)]
        assert [p.rubles for p in self.s.p] == [25 + 12, 28] and [p.vp for p in self.s.p] == [3, 0]

    def test_building_scoring_blue_cards_and_blue_upgrades(self):
        assert scored(self.s, "building") == [(5, 1 + 1 + 2), (0, 0)]

    def test_aristocrat_scoring_red_cards_and_red_upgrades(self):
        assert scored(self.s, "aristocrat") == [(1 + 4 + 2, 1 + 2), (0, 0)]

    def test_no_scoring_in_the_upgrade_phase(self):
        before = [(p.rubles, p.vp) for p in self.s.p]
        acting(self.s, "upgrade", to_act=1)
        run(self.s, "Boris: pass\nAnna: pass")
        assert [(p.rubles, p.vp) for p in self.s.p] == before
        rejects(self.s, "score: Anna +0R", "sp-score-misplaced")

    def test_phase_scoring_method(self):
        self.s.phase_index = 1
        score = self.s.phase_scoring(0)
        assert (score.rubles, score.vp) == (5, 4)


class TestMariinsky:
    def state(self, opts):
        s = new_state(opts=opts)
        give(s, 0, "Mariinsky Theater", "Market", "Author", "Author", "Senator")
        return s

    def test_second_edition_vp_per_red_card_including_red_upgrades(self):
        assert scored(self.state(options()), "building")[0] == (0, 1 + 3)

    def test_d5_plain_aristocrats_only(self):
        assert scored(self.state(options(mariinsky_counts_red_upgrades=False)), "building")[0] == (0, 1 + 2)

    def test_first_edition_rubles(self):
        assert scored(self.state(FIRST_EDITION), "building")[0] == (3, 1)

    def test_first_edition_d5(self):
        assert scored(self.state(first(mariinsky_counts_red_upgrades=False)), "building")[0] == (2, 1)

    def test_only_at_building_scoring_and_only_its_owner(self):
        s = self.state(options())
        give(s, 1, "Author")
        assert scored(s, "aristocrat") == [(1 + 1 + 2, 2), (1, 0)]
        assert scored(s, "building")[1] == (0, 0)


class TestTaxMan:
    def test_one_ruble_per_green_card_at_aristocrat_scoring(self):
        s = new_state()
        give(s, 0, "Tax Man", "Lumberjack", "Shepherd", "Wharf", "Market")
        give(s, 1, "Lumberjack")
        assert scored(s, "aristocrat") == [(3, 0), (0, 0)]
        assert scored(s, "worker") == [(3 + 3 + 6, 1), (3, 0)]  # no bonus at worker scoring
        assert scored(s, "building") == [(0, 1), (0, 0)]


# ------------------------------------------------------------------------------------------------- claims
class TestScoreClaims:
    def test_correct_claim(self):
        unfinished(ROUND1_WORKERS)

    def test_wrong_rubles(self):
        illegal(
            ROUND1_WORKERS.replace("score: Anna +6R, Boris +6R", "score: Anna +6R, Boris +7R #!"), "sp-score-mismatch"
        )

    def test_omitted_part_counts_as_zero(self):
        s = new_state()
        give(s, 0, "Market")
        acting(s, "building", to_act=1)
        run(s, "Boris: pass\nAnna: pass")
        rejects(s, "score: Anna +0R", "sp-score-mismatch")  # Anna scores +1VP
        rejects(s, "score: Anna +1VP +1R", "sp-score-mismatch")
        run(s, "score: Anna +1VP")

    def test_unlisted_player_is_not_claimed(self):
        unfinished(ROUND1_WORKERS.replace("score: Anna +6R, Boris +6R", "score: Boris +6R"))

    def test_once_right_after_a_scoring(self):
        illegal(ROUND1_WORKERS + "score: Anna +6R #!\n", "sp-score-misplaced")
        illegal(ROUND1_WORKERS + "building phase\nscore: Anna +0R #!\n", "sp-score-misplaced")

    def test_score_claim_before_pub_lines(self):
        s = new_state()
        give(s, 0, "Pub")
        acting(s, "building", to_act=1)
        run(s, "Boris: pass\nAnna: pass\nAnna: pub 1")
        rejects(s, "score: Anna +0R", "sp-score-misplaced")

    def test_pub_zero_is_a_pub_line_the_score_claim_comes_before(self):
        """Spec section 2: 'score:' stands "before any pub line", and a written "pub 0" is one (it buys nothing)."""
        s = new_state()
        give(s, 0, "Pub")
        acting(s, "building", to_act=1)
        run(s, "Boris: pass\nAnna: pass")
        before = s.p[0].vp, s.p[0].rubles
        run(s, "Anna: pub 0")
        assert (s.p[0].vp, s.p[0].rubles) == before
        rejects(s, "score: Anna +0R", "sp-score-misplaced")


# --------------------------------------------------------------------------------------------------- Pubs
class TestPub:
    def after_building(self, pubs=1, opts=None, rubles=25):
        s = new_state(opts=opts or options())
        give(s, 0, *["Pub"] * pubs)
        s.p[0].rubles = rubles
        acting(s, "building", to_act=1)
        run(s, "Boris: pass\nAnna: pass")
        return s

    def test_two_rubles_per_vp(self):
        s = self.after_building()
        rejects(s, "Anna: pub 3 for 5", "sp-price-mismatch")
        run(s, "Anna: pub 3 for 6")
        assert (s.p[0].rubles, s.p[0].vp, s.p[0].pub_vp) == (19, 3, 3)

    def test_five_per_pub(self):
        s = self.after_building()
        rejects(s, "Anna: pub 6", "sp-pub-limit")
        run(s, "Anna: pub 5 for 10")

    def test_d1_two_pubs_ten(self):
        s = self.after_building(pubs=2)
        rejects(s, "Anna: pub 11", "sp-pub-limit")
        run(s, "Anna: pub 10 for 20")
        assert s.p[0].vp == 10

    def test_d1_per_player(self):
        s = self.after_building(pubs=2, opts=options(pub_cap_per_pub=False))
        rejects(s, "Anna: pub 6", "sp-pub-limit")
        run(s, "Anna: pub 5")

    def test_pub_options(self):
        s = self.after_building(opts=options(pub_vp_price=3, pub_max_vp=2))
        rejects(s, "Anna: pub 3", "sp-pub-limit")
        rejects(s, "Anna: pub 2 for 4", "sp-price-mismatch")
        run(s, "Anna: pub 2 for 6")

    def test_once_per_scoring(self):
        s = self.after_building(pubs=2)
        run(s, "Anna: pub 1")
        rejects(s, "Anna: pub 1", "sp-pub-twice")

    @pytest.mark.parametrize("line", ["Anna: pub 0", "Anna: pub 0 for 0"])
    def test_pub_zero_may_be_written_by_an_owner(self, line):
        s = self.after_building()
        run(s, line)
        assert (s.p[0].rubles, s.p[0].vp, s.p[0].pub_vp) == (25, 0, 0)

    @pytest.mark.parametrize("line", ["Boris: pub 0", "Boris: pub 0 for 0", "Boris: pub 1"])
    def test_pub_line_only_by_an_owner(self, line):
        """Spec section 2: a pub line, "pub 0" included, by a player without a Pub is illegal."""
        s = self.after_building()
        assert not s.p[1].owns("Pub")
        rejects(s, line, "sp-pub-not-owned")

    @pytest.mark.parametrize("first", ["Anna: pub 0", "Anna: pub 1"])
    @pytest.mark.parametrize("second", ["Anna: pub 0", "Anna: pub 0 for 0", "Anna: pub 1"])
    def test_one_pub_line_per_scoring(self, first, second):
        """Spec section 2: a second pub line for the same scoring, "pub 0" included, is illegal."""
        s = self.after_building(pubs=2)
        run(s, first)
        rejects(s, second, "sp-pub-twice")

    def test_a_new_building_scoring_opens_the_pubs_again(self):
        s = self.after_building()
        run(s, "Anna: pub 0")
        acting(s, "building", to_act=1, round_=3)
        run(s, "Boris: pass\nAnna: pass\nAnna: pub 1")

    def test_owner_only(self):
        s = self.after_building()
        rejects(s, "Boris: pub 1", "sp-pub-not-owned")

    def test_cannot_afford(self):
        s = self.after_building(rubles=5)
        rejects(s, "Anna: pub 3", "sp-cannot-afford")
        error = rejects(s, "Anna: pub 3 for 5", "sp-cannot-afford")  # the count before the claimed price
        assert error.column == 11
        run(s, "Anna: pub 2")
        assert s.p[0].rubles == 1

    @pytest.mark.parametrize("pubs,rubles,most", [(2, 16, 8), (2, 25, 10), (1, 25, 5), (1, 1, 0)])
    def test_legal_list_offers_what_the_player_can_pay(self, pubs, rubles, most):
        """The alternatives an error or ``referee explain`` lists are legal: a player with two Pubs and 16 rubles
        buys at most 8 VP ("A player may not spend more rubles than they have"), so 'pub 0..10' would offer an
        illegal 'pub 9' (audit sp3)."""
        s = self.after_building(pubs=pubs, rubles=rubles)
        # one choice is written as the statement itself: 'pub 0', not the range 'pub 0..0' (audit sp5)
        assert (f"Anna: pub 0..{most}" if most else "Anna: pub 0") in s.legal_statements()
        assert not any(text.endswith("..0") for text in s.legal_statements())
        run(s, f"Anna: pub {most}")
        assert s.p[0].rubles == rubles - 2 * most

    @pytest.mark.parametrize("phase,holder", [("worker", 0), ("aristocrat", 0)])
    def test_only_after_building_scoring(self, phase, holder):
        s = new_state()
        give(s, 0, "Pub")
        acting(s, phase, to_act=holder)
        run(s, "Anna: pass\nBoris: pass")
        rejects(s, "Anna: pub 1", "sp-pub-misplaced")

    def test_not_during_a_phase_or_after_the_next_header(self):
        s = new_state()
        give(s, 0, "Pub")
        acting(s, "building")
        rejects(s, "Anna: pub 1", "sp-pub-misplaced")
        run(s, "Anna: pass\nBoris: pass\naristocrat phase")
        rejects(s, "Anna: pub 1", "sp-pub-misplaced")

    def test_pubs_in_the_breakdown(self):
        s = self.after_building()
        run(s, "Anna: pub 2")
        out = finish(s).outcome()
        assert out.breakdown["Anna"]["pubs"] == 2
        assert out.breakdown["Anna"]["phase scoring"] == 0
        assert out.scores["Anna"] == 2 + 2  # 2 pub VP + 21 rubles // 10


# -------------------------------------------------------------------------------------------- final scoring
class TestFinalScoring:
    @pytest.mark.parametrize(
        "distinct,vp",
        [
            (0, 0),
            (1, 1),
            (2, 3),
            (3, 6),
            (4, 10),
            (5, 15),
            (6, 21),
            (7, 28),
            (8, 36),
            (9, 45),
            (10, 55),
            (11, 55),
            (17, 55),
        ],
    )
    def test_variety_table(self, distinct, vp):
        s = new_state()
        s.p[0].rubles = 0
        give(s, 0, *(ARISTOCRATS + RED_UPGRADES)[:distinct])
        assert finish(s).outcome().breakdown["Anna"]["aristocrat variety"] == vp

    def test_only_distinct_names_count(self):
        s = new_state()
        give(s, 0, "Author", "Author", "Author", "Judge", "Market", "Lumberjack")
        assert finish(s).outcome().breakdown["Anna"]["aristocrat variety"] == 3

    def test_red_upgrades_count_as_distinct_names(self):
        s = new_state()
        give(s, 0, "Author", "Czarina", "Tax Man")
        assert finish(s).outcome().breakdown["Anna"]["aristocrat variety"] == 6

    @pytest.mark.parametrize("rubles,vp,left", [(0, 0, 0), (9, 0, 9), (10, 1, 0), (29, 2, 9), (30, 3, 0)])
    def test_one_vp_per_full_ten_rubles(self, rubles, vp, left):
        s = new_state()
        s.p[0].rubles = rubles
        out = finish(s).outcome()
        assert (out.breakdown["Anna"]["rubles"], out.breakdown["Anna"]["rubles left"]) == (vp, left)
        assert out.scores["Anna"] == vp

    def test_minus_five_per_hand_card(self):
        s = new_state()
        give(s, 0, "Pub", "Bank", hand=True)
        out = finish(s).outcome()
        assert out.breakdown["Anna"]["hand penalty"] == -10
        assert out.scores["Anna"] == 2 - 10

    def test_total(self):
        s = new_state()
        s.p[0].vp = 40
        s.p[0].rubles = 57
        give(s, 0, "Author", "Judge", "Senator")
        give(s, 0, "Market", hand=True)
        out = finish(s).outcome()
        assert out.scores["Anna"] == 40 + 6 + 5 - 5
        assert out.breakdown["Anna"]["total"] == 46

    def test_options_conversion_penalty_table(self):
        s = new_state(opts=options(rubles_per_vp=5, hand_penalty=2, variety_table=(0, 2, 4)))
        s.p[0].rubles = 23
        give(s, 0, "Author", "Judge", "Senator")
        give(s, 0, "Market", hand=True)
        out = finish(s).outcome()
        assert out.breakdown["Anna"] | {} == {
            "phase scoring": 0,
            "pubs": 0,
            "aristocrat variety": 4,
            "rubles": 4,
            "hand penalty": -2,
            "rubles left": 3,
            "total": 6,
        }


class TestWinner:
    def test_most_vp(self):
        s = new_state()
        s.p[1].vp = 1
        out = finish(s).outcome()
        assert out.scores == {"Anna": 2, "Boris": 3} and out.winners == ["Boris"]

    def tied(self, opts):
        s = new_state(opts=opts)
        s.p[0].rubles, s.p[0].vp = 29, 1  # 3 VP, 9 rubles left
        s.p[1].rubles, s.p[1].vp = 30, 0  # 3 VP, 0 left, more in total
        return finish(s).outcome()

    def test_tie_broken_on_rubles_left_after_conversion(self):
        out = self.tied(options())
        assert out.scores == {"Anna": 3, "Boris": 3} and out.winners == ["Anna"]

    def test_d3_tie_broken_on_total_rubles(self):
        assert self.tied(options(tiebreak_leftover=False)).winners == ["Boris"]

    def test_shared_win(self):
        s = new_state(3)
        s.p[0].rubles = s.p[1].rubles = 27
        s.p[2].rubles = 19
        out = finish(s).outcome()
        assert out.winners == ["Anna", "Boris"]
        assert "shared win" in out.tiebreak


# --------------------------------------------------------------------------- final claims, Result, after the end
@pytest.fixture(scope="module")
def game_text():
    return play_record(["Anna", "Boris"], random.Random(7), options(), {})


class TestFinalClaims:
    def test_generated_record_is_valid(self, game_text):
        [report] = check_text(game_text)
        assert report.verdict == Verdict.VALID

    def test_final_mismatch(self, game_text):
        lines = game_text.splitlines()
        [report] = check_text(game_text)
        score = report.outcome.scores["Anna"]
        assert lines[-1].startswith("final: ")
        lines[-1] = f"final: Anna {score + 1}"
        [bad] = check_text("\n".join(lines))
        assert (bad.verdict, bad.error.code, bad.error.line) == (Verdict.ILLEGAL, "final-mismatch", len(lines))

    def test_partial_and_omitted_final_claims(self, game_text):
        lines = game_text.splitlines()
        [report] = check_text(game_text)
        lines[-1] = f"final: Boris {report.outcome.scores['Boris']}"
        assert check_text("\n".join(lines))[0].verdict == Verdict.VALID
        assert check_text("\n".join(lines[:-1]))[0].verdict == Verdict.VALID

    def test_result_tag(self, game_text):
        [report] = check_text(game_text)
        loser = ({"Anna", "Boris"} - set(report.outcome.winners)).pop()
        lines = game_text.splitlines()
        result = next(i for i, line in enumerate(lines) if line.startswith("[Result"))
        lines[result] = f'[Result "{loser}"]'
        [bad] = check_text("\n".join(lines))
        assert (bad.verdict, bad.error.code, bad.error.line) == (Verdict.ILLEGAL, "result-mismatch", result + 1)
        lines[result] = '[Result "Anna, Boris"]'
        assert check_text("\n".join(lines))[0].error.code == "result-mismatch"

    def test_shared_result_claim(self):
        s = new_state()
        out = finish(s).outcome()
        assert out.winners == ["Anna", "Boris"]

    @pytest.mark.parametrize(
        "line", ["Anna: pass", "round 99", "worker phase", "deal: Market", "score: Anna +0R", "Boris: pub 0"]
    )
    def test_nothing_but_final_after_the_end(self, game_text, line):
        lines = game_text.splitlines()
        lines.insert(len(lines) - 1, line)  # before the final: claim
        [bad] = check_text("\n".join(lines))
        assert (bad.verdict, bad.error.code, bad.error.line) == (Verdict.ILLEGAL, "after-end", len(lines) - 1)

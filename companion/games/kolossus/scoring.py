"""How a Kolossus game ends and is scored: crystals after round 12 (K-R18, K-R19),
elimination (K-R20), the outcome and the score sheet."""

from __future__ import annotations

from companion import words
from companion.events import Event, GameEnded
from companion.games.kolossus.content import alliance
from companion.games.kolossus.model import ROUNDS, GameResult, KolossusState
from companion.games.kolossus.position import current_warband, warband_name, warband_of
from companion.outcome import Outcome, ScoreRow, ScoreSheet


def alliance_name(state: KolossusState, side: int) -> str:
    """An alliance as players name it: its two warbands ("Tua'tha and Ishtari"), never
    its corners ("NW+SE"); ``side`` 0 is the north-west and south-east warbands."""
    return f"{warband_name(state, side)} and {warband_name(state, side + 2)}"


def outcome(state: KolossusState) -> Outcome | None:
    result = state.result
    if result is None:
        return None
    winners: tuple[int, ...] = ()
    if result.alliance is not None:
        winners = tuple(
            sorted({wb.player for i, wb in enumerate(state.warbands) if i % 2 == result.alliance})
        )
    return Outcome(winners=winners, reason=result.reason, text=result.text)


def score_sheet(state: KolossusState) -> ScoreSheet:
    """Per round: the crystals captured so far and the miniatures beaten in it."""
    # The Scores table gives a column about 34 px: the alliances keep their corners there
    # ("NW+SE"), two warband names do not fit; every sentence names the warbands.
    columns = (*(warband_name(state, i) for i in range(4)), "NW+SE", "NE+SW")
    rows: list[ScoreRow] = []
    last = min(state.round, ROUNDS)
    for rnd in range(1, last + 1):
        crystals = [0, 0, 0, 0]
        for cap in state.captures:
            if cap.round <= rnd:
                crystals[cap.warband] += cap.count
        rows.append(
            ScoreRow(
                label=f"Round {rnd} crystals",
                values=(*crystals, crystals[0] + crystals[2], crystals[1] + crystals[3]),
            )
        )
        beaten = [0, 0, 0, 0]
        for beat in state.beats:
            if beat.round == rnd and beat.by is not None:
                beaten[beat.by] += 1
        rows.append(
            ScoreRow(
                label=f"Round {rnd} beaten",
                values=(*beaten, beaten[0] + beaten[2], beaten[1] + beaten[3]),
            )
        )
    return ScoreSheet(measure="crystals", columns=columns, rows=tuple(rows))


def final_result(state: KolossusState) -> GameResult:
    """The result after round 12: the crystal majority, else the last capture."""
    totals = [0, 0]
    for cap in state.captures:
        totals[alliance(cap.warband)] += cap.count
    if not state.captures:
        return GameResult(
            alliance=None, reason="no_capture", text="No crystal was captured: a draw (K-R19)."
        )
    leader: int | None
    if state.options.crystal_majority == "relative":
        leader = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else None
    else:
        leader = 0 if totals[0] >= 7 else 1 if totals[1] >= 7 else None
    if leader is not None:
        won = totals[leader]
        return GameResult(
            alliance=leader,
            reason="crystal_majority",
            text=f"{alliance_name(state, leader)} win with {words.count(won, 'crystal')} to "
            f"{totals[1 - leader]}.",
        )
    last = alliance(state.captures[-1].warband)
    return GameResult(
        alliance=last,
        reason="last_crystal",
        text=f"{alliance_name(state, last)} took the last crystal and win "
        f"(no majority: {totals[0]}–{totals[1]}, K-R19).",
    )


def _losing_alliances(state: KolossusState) -> set[int]:
    """The alliances with a warband (or player) without a miniature on the board."""
    on_board = [0, 0, 0, 0]
    for p, sq in enumerate(state.minis):
        if sq >= 0:
            on_board[warband_of(p)] += 1
    losers: set[int] = set()
    if state.options.elimination_unit == "warband":
        losers = {alliance(w) for w in range(4) if on_board[w] == 0}
    else:
        for seat in range(len(state.players)):
            mine = [w for w in range(4) if state.warbands[w].player == seat]
            if mine and all(on_board[w] == 0 for w in mine):
                losers.add(alliance(mine[0]))
    return losers


def _elimination_result(state: KolossusState, losers: set[int]) -> GameResult:
    if len(losers) == 2:
        if state.options.simultaneous_elimination == "draw":
            return GameResult(
                alliance=None,
                reason="simultaneous_elimination",
                text="Both alliances were wiped out at once: a draw (K-R20).",
            )
        active = alliance(current_warband(state))
        return GameResult(
            alliance=1 - active,
            reason="simultaneous_elimination",
            text="Both wiped out; the acting alliance loses: "
            f"{alliance_name(state, 1 - active)} win (K-R20).",
        )
    loser = losers.pop()
    return GameResult(
        alliance=1 - loser,
        reason="elimination",
        text=f"{alliance_name(state, loser)} lost a warband: "
        f"{alliance_name(state, 1 - loser)} win (K-R20).",
    )


def check_elimination(state: KolossusState) -> tuple[KolossusState, tuple[Event, ...]]:
    """After every removal: a wiped-out warband (or player) loses its alliance the game."""
    losers = _losing_alliances(state)
    if not losers:
        return state, ()
    result = _elimination_result(state, losers)
    over = state.evolve({"phase": "over", "result": result, "dice": None})
    return over, (GameEnded(text=result.text),)

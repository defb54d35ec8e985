"""The companion at the table through the real app (the offscreen window, the rig's
simulated LED strip and sensing board, the decision on a thread of its own): one person
against three companion warbands in Kolossus, Chapter 3 — Easy, Medium and Hard.

For each of the companion's moves: its words are in its panel on screen, and the frame
the simulated strip ships is the one rendered from the move's lights, lighting exactly
the squares its words name (the row of a Quake; for a Spear of Vengeance the thrower's
square as well). Then either "Done" is tapped, or — on the simulated sensing board —
a hand makes the move on the board and it plays with no tap (an action that moves no
miniature — the end of a turn, mana, a Quake of an empty line — is still confirmed by
"Done": the board has nothing to see).

The suite plays the first 24 actions (30 on the sensing board: its first companion move
read off the board is the 27th), its budgets on a ticking clock (a fixed number of
readings); the long run (``COMPANION_FAULTS=long``) plays the game to its end with the
app's own clock and prints its figures.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from kivy.base import EventLoop

from companion.bot import RandomBot
from firmware_bridge.config import BoardConfig, ButtonsConfig, DiceConfig, LedsConfig
from firmware_bridge.dice.sim_board import SimSensingBoard
from firmware_bridge.leds.factory import power_budget_of
from firmware_bridge.leds.render import gamma_table, render
from firmware_bridge.leds.sim import SimStrip
from firmware_bridge.leds.strip import Frame
from firmware_bridge.platform import Platform
from firmware_bridge.rig import Rig, build_rig
from kiosk.app import Kiosk
from kiosk.presenters.companion import CompanionTurn, Proposal
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.sensing import miniatures
from kiosk.settings import CompanionConfig
from kiosk.thinker import ThreadRunner
from tests.faults.scale import is_long, report, scaled
from tests.helpers.companion_table import cells_said, ticking
from tests.kiosk.ui import close_kiosk, find_button, open_kiosk, setup_built, tap

NOW = 1000.0
"""The rig's clock: the animator renders every frame at this moment."""
WAIT_S = 30.0
"""How long the test waits for a thread, the strip or the board (a loaded machine)."""
LEVELS = ("easy", "medium", "hard")


def waited(kiosk: Kiosk, done: Callable[[], bool], seconds: float) -> bool:
    """Drain the hardware hub and step frames until ``done`` (False: not in ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() >= deadline:
            return False
        kiosk.pump()
        EventLoop.idle()
        time.sleep(0.005)
    return True


def until(kiosk: Kiosk, done: Callable[[], bool], what: str) -> None:
    """:func:`waited` up to :data:`WAIT_S`, or fail saying ``what``."""
    assert waited(kiosk, done, WAIT_S), what


@dataclass
class Table:
    """The app, its rig and what the run counts."""

    kiosk: Kiosk
    rig: Rig
    strip: SimStrip
    board: SimSensingBoard | None
    frames_checked: int = 0
    companion_moves: int = 0
    played_by_board: int = 0
    kinds: set[str] = field(default_factory=set)

    @property
    def play(self) -> PlayPresenter:
        assert self.kiosk.play is not None
        return self.kiosk.play

    @property
    def turn(self) -> CompanionTurn:
        assert self.kiosk.companion is not None
        return self.kiosk.companion


@pytest.fixture
def open_table(tmp_path: Path) -> Iterator[Callable[[bool], Table]]:
    opened: list[Kiosk] = []

    def make(sensing: bool) -> Table:
        config = CompanionConfig(
            dice=DiceConfig(source="none"),
            buttons=ButtonsConfig(source="none"),
            leds=LedsConfig(driver="sim"),
            board=BoardConfig(source="sim" if sensing else "none", settle_s=0.05),
        )
        rig = build_rig(config, Platform(None), sim_dir=tmp_path / "sim", clock=lambda: NOW)
        kiosk = open_kiosk(tmp_path, seed=2)  # the companion's first move of a miniature: 27
        opened.append(kiosk)
        kiosk.attach_rig(rig)
        assert rig.sim is not None and isinstance(rig.sim.strip, SimStrip)
        kiosk.open_setup("kolossus")
        setup = kiosk.setup
        assert setup is not None
        setup_built(kiosk)
        while len(setup.names) < 4:
            setup.add_player()
        setup.names[0] = "Ann"
        for seat, level in enumerate(LEVELS, start=1):  # a seat cycles through the levels
            while setup.levels[seat] != level:
                setup.cycle_seat(seat)
        setup.choose("chapter", 3)
        kiosk.start_game()
        assert kiosk.manager.current == "play" and kiosk.companion is not None
        if not is_long():
            kiosk.companion.clock = ticking()  # the suite's budgets: a fixed node count
        return Table(kiosk, rig, rig.sim.strip, rig.sim.board if sensing else None)

    yield make
    for kiosk in opened:
        close_kiosk(kiosk)


def _shown(table: Table) -> Proposal:
    """The companion's decision, made on its thread, delivered by the window's clock."""
    turn = table.turn
    runner = turn.runner
    assert isinstance(runner, ThreadRunner)
    until(table.kiosk, lambda: turn.proposal is not None or bool(turn.failure), "no decision")
    assert not turn.failure, turn.failure
    proposal = turn.proposal
    assert proposal is not None
    return proposal


def _frame_for(table: Table) -> Frame:
    """The frame the strip must show for what the board shows now, rendered here."""
    leds, layout = table.rig.config.leds, table.rig.layout
    assert layout is not None
    frame = render(
        table.play.highlights(),
        layout,
        table.play.board_input.palette,
        leds.brightness,
        power_budget_of(leds),
        0.0,  # the animator's clock has not moved since it was built
        gamma=gamma_table(leds.gamma),
    )
    return frame + ((0, 0, 0),) * (table.strip.count - len(frame))


def _lit_as_said(table: Table, proposal: Proposal) -> None:
    """Screen and LEDs show the same move: its words in the panel, the strip's frame the
    one rendered from its lights, lighting the squares its words name."""
    kiosk, play = table.kiosk, table.play
    panel = kiosk.play_screen.column.companion_panel.text
    until(kiosk, lambda: proposal.words in panel.text, f"not on screen: {proposal.words}")
    if not proposal.marks:
        return
    assert play.highlights() == proposal.marks
    wanted = _frame_for(table)
    until(kiosk, lambda: table.strip.last_frame == wanted, f"not lit: {proposal.words}")
    layout = table.rig.layout
    assert layout is not None
    lit = {
        cell for cell in layout.cells if any(wanted[i] != (0, 0, 0) for i in layout.leds_of(cell))
    }
    said = cells_said(proposal.words, layout)
    origin = proposal.cells.origin
    assert said <= lit <= said | {origin}, (proposal.words, sorted(lit), sorted(said))
    table.frames_checked += 1


def _table_stands(table: Table) -> frozenset[str]:
    return frozenset(miniatures(table.play.rules.board(table.play.state)))


def _board_follows(table: Table) -> None:
    """The hand puts the table right after a person's move or a walk-through (what a
    sensing board then reads agrees with the game)."""
    board = table.board
    if board is None:
        return
    stands = _table_stands(table)
    if board.occupied != stands:
        board.set_occupied(stands)
    sensing = table.kiosk.sensing
    assert sensing is not None and sensing.driver is not None
    driver = sensing.driver
    until(table.kiosk, lambda: driver.inference.occupied == stands, "the board never read")


def _sensed_changes(play: PlayPresenter, proposal: Proposal) -> tuple[set[str], set[str]]:
    """The squares whose miniature the move takes away, and those it fills (a square
    whose miniature is beaten or replaced is in both)."""
    before = miniatures(play.rules.board(play.state))
    after_state, _ = play.rules.apply(play.state, proposal.action)
    after = miniatures(play.rules.board(after_state))
    changed = {c for c in before.keys() | after.keys() if before.get(c) != after.get(c)}
    return changed & before.keys(), changed & after.keys()


def _hand_makes(table: Table, proposal: Proposal) -> None:
    """The companion's move made on the simulated sensing board by a hand: each changed
    square lifted (the beaten miniature too), then each filled; it plays with no tap."""
    board = table.board
    sensing = table.kiosk.sensing
    assert board is not None and sensing is not None and sensing.driver is not None
    driver = sensing.driver
    play = table.play
    lifted, filled = _sensed_changes(play, proposal)
    count = len(play.session.actions)
    for cell in sorted(lifted):
        board.lift(cell)
    for cell in sorted(filled):
        board.place(cell)
    until(table.kiosk, lambda: len(play.session.actions) > count, f"not read: {driver.verdict}")
    assert len(play.session.actions) == count + 1, proposal.words
    assert play.rules.dump_action(play.session.actions[-1]) == proposal.payload
    table.played_by_board += 1


def _play(table: Table, actions: int) -> None:
    person = RandomBot(4)
    play = table.play
    for _ in range(actions):
        if play.queries.outcome is not None:
            return
        if play.fix.step is not None:
            play.fix.finish()  # "All done": the table as the steps say
            _board_follows(table)
        elif play.queries.dice_request() is not None:
            assert play.dice.roll_in_software()
        elif table.turn.seats.level(play.queries.seat()) is None:
            action = person.choose(play.rules, play.state)
            assert action is not None and play.submit(action), play.banner
            _board_follows(table)
        else:
            _board_follows(table)
            proposal = _shown(table)
            assert proposal.payload in play.queries.legal_payloads()
            _lit_as_said(table, proposal)
            table.kinds.add(str(proposal.payload["type"]))
            count = len(play.session.actions)
            if table.board is not None and any(_sensed_changes(play, proposal)):
                _hand_makes(table, proposal)  # no tap
            else:
                tap(find_button(table.kiosk, "Done", exact=True))
                assert len(play.session.actions) == count + 1, play.banner
            table.companion_moves += 1


@pytest.mark.parametrize("sensing", [False, True], ids=["done-tapped", "sensing-board"])
def test_one_person_against_three_companion_warbands_lit_as_said(
    open_table: Callable[[bool], Table], sensing: bool
) -> None:
    started = time.monotonic()
    table = open_table(sensing)
    _play(table, scaled(30 if sensing else 24, 5000))
    assert table.companion_moves > 0 and table.frames_checked > 0
    if sensing:
        assert table.played_by_board > 0, "no companion move was read off the board"
    if is_long():
        play = table.play
        assert play.queries.outcome is not None, "the game did not end"
        report(
            "companion_proof",
            board="sensing" if sensing else "done",
            actions=len(play.session.actions),
            companion_moves=table.companion_moves,
            frames_checked=table.frames_checked,
            played_by_board=table.played_by_board,
            kinds=",".join(sorted(table.kinds)),
            outcome=play.queries.outcome.text,
            wall_s=round(time.monotonic() - started, 1),
        )

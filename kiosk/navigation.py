"""The kiosk's navigation: which presenter is on which screen, and what follows a change.

:class:`Kiosk` makes the screens (Home at launch, the others when first shown), moves
between them and puts a game on the play screen. Its collaborators own the rest:
:class:`~kiosk.wiring.HardwareWiring` the hub's handlers, the rig and the sensing board;
:class:`~kiosk.lesson_flow.LessonFlow` teach mode, guided setup and lessons;
:class:`~kiosk.reporting.FleetReporting` what the table reports to the fleet;
:class:`~kiosk.shop.ShopMode` attract mode, lock-down and the admin page.

**The change pipeline.** After each change of the game on screen one listener runs, in
this order: the lesson's check (its verdict is part of what is shown), the LEDs (the
strip gets its highlights before the screen's redraw), the screen, then the due snapshot
and the fleet's report (:meth:`Kiosk.game_changed`). Nothing depends on the order in
which listeners were subscribed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.clock import Clock
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.errors import JournalError, RefereeError
from companion.games import get_rules
from companion.journal import Journal
from firmware_bridge.buttons import ButtonMessage, ButtonPressed
from firmware_bridge.rig import DeviceNote, Rig
from kiosk.hardware import HardwareHub, Later, RollTarget, press_on_game
from kiosk.home_notices import HomeNotices
from kiosk.lesson_flow import GuidedStep, LessonFlow
from kiosk.memory import forget_dropped_text_field, free_dropped_widgets, release_freed_memory
from kiosk.mirror_feed import MirrorFeed
from kiosk.presenters.common import resume_banner
from kiosk.presenters.devices import DeviceStatus, OffGameRolls, badges
from kiosk.presenters.home import HomePresenter
from kiosk.reporting import FleetReporting
from kiosk.screen_set import ScreenSet
from kiosk.screens import load_kv
from kiosk.screens.home import HomeScreen
from kiosk.settings import LoadedConfig
from kiosk.shop import ShopMode
from kiosk.storage import fresh_seed, open_journal
from kiosk.widgets import basic, scrolling  # noqa: F401  (Home's; the rest come with their screens)
from kiosk.wiring import HardwareWiring, HighlightSink

if TYPE_CHECKING:
    # Loaded where configured, or when first used: Home needs none of them, and launch
    # (to Home's first frame) is shorter without (docs/kiosk.md, "Startup").
    from companion.bots.core import Level
    from companion.session import Session
    from kiosk.board_sensing import BoardSensing
    from kiosk.fleet.publisher import FleetPublisher
    from kiosk.presenters.board import BoardView
    from kiosk.presenters.companion import CompanionTurn, CompanionView
    from kiosk.presenters.companion_seats import CompanionSeats
    from kiosk.presenters.guided_setup import GuidedSetupPresenter
    from kiosk.presenters.lesson import LessonPresenter, LessonView
    from kiosk.presenters.play import PlayPresenter
    from kiosk.presenters.scores import ScoresPresenter
    from kiosk.presenters.setup import SetupPresenter
    from kiosk.screens.guided_setup import GuidedSetupScreen
    from kiosk.screens.play import PlayScreen
    from kiosk.screens.scores import ScoresScreen
    from kiosk.screens.setup import SetupScreen

log = logging.getLogger(__name__)

#: Home's and the game screens' layouts (the shop's admin.kv loads with its screens).
KV_FILES = ("widgets.kv", "screens.kv")
EXPORTS = "exports"
#: Seconds without a new frame before freed memory is handed back (kiosk/memory.py);
#: shorter than the shop demo's step, so it runs there too.
RELEASE_MEMORY_AFTER_S = 1.0
#: Table buttons during guided setup: confirm is Done, undo is Back.
GUIDE_BUTTONS: dict[str, GuidedStep] = {"confirm": "done", "undo": "back"}


class Kiosk:
    """Navigation: which presenter is on which screen (see the module docstring)."""

    def __init__(
        self,
        data_dir: Path,
        *,
        hub: HardwareHub | None = None,
        journal: Journal | None = None,
        seed: Callable[[], int] = fresh_seed,
        problems: Sequence[str] = (),
        config: LoadedConfig | None = None,
    ) -> None:
        load_kv(*KV_FILES)
        self.data_dir = Path(data_dir)
        self.journal = journal if journal is not None else open_journal(self.data_dir)
        self.hub = hub if hub is not None else HardwareHub()
        self.seed = seed
        #: Configuration and device problems, shown in a banner on Home.
        self.problems: list[str] = list(problems)
        if self.journal.read_only:
            self.problems.append(
                f"The journal is read-only ({self.journal.read_only_reason}): games are"
                " shown but not saved."
            )
        self._demo_on_screen = False
        #: The LED mirror on the play screen (kiosk/mirror_feed.py).
        self.mirror = MirrorFeed(self.hub, lambda: self.screens.play_made, self.pump)
        self.wiring = HardwareWiring(
            self.hub,
            self.mirror,
            button=self.on_button,
            note=self._device_note,
            devices=self._devices_changed,
        )
        self.reporting = FleetReporting(
            self.journal, self.hub, self.problems, on_notice=self._show_home_banner
        )
        self.lessons = LessonFlow(self.journal, self, self.problems)
        self.setup: SetupPresenter | None = None
        self.play: PlayPresenter | None = None
        self.scores: ScoresPresenter | None = None
        #: The companion's seats in the game on screen (kiosk/presenters/companion.py).
        self.companion: CompanionTurn | None = None
        self.board_geometry: object = None
        #: The change pipeline's LED step: called with the highlights after every change
        #: (during a fix-the-table walk-through, only the current step: the presenter
        #: owns it); the rig's feed once a rig is attached.
        self.on_highlights: HighlightSink | None = None
        self._off_game_rolls = OffGameRolls(lambda notice: self.notices.off_game_roll(notice))
        self.manager = ScreenManager(transition=NoTransition())
        self.home_screen = HomeScreen(name="home", kiosk=self)
        self.manager.add_widget(self.home_screen)
        # Made when first shown, with their modules: launch shows Home only.
        self.screens: ScreenSet = ScreenSet(self.manager, self, self.mirror.offer)
        # Freed memory goes back once the window has drawn no frame for a moment: after a
        # screen change (the setup screen drops ≈190 widgets), a move, a touch.
        self._release_memory = Clock.create_trigger(
            lambda _dt: release_freed_memory(), RELEASE_MEMORY_AFTER_S
        )
        # The game's due snapshot waits for the frame after the one showing the move: the
        # LEDs and the screen never wait for it (Session.save_snapshot).
        self._save_snapshot = Clock.create_trigger(self._save_due_snapshot, 0)
        from kivy.core.window import Window  # here: importing it opens the window

        Window.bind(on_flip=self._frame_drawn)
        # Shop mode (attract demo, lock-down, admin): armed by ``shop.boot()`` in the app.
        self.shop = ShopMode(self, None if config is None else config.config.kiosk, config)
        self.problems.extend(self.shop.config_problems())
        #: Home's banner under its title (configuration and device problems).
        self.home_banner = self.home_screen.ids.banner
        self.notices: HomeNotices = HomeNotices(
            self.home_banner, self.problems, lambda: self.reporting.notice
        )
        self.go_home()

    # --- the collaborators' state, as the screens and tests read it ------------------------

    @property
    def rig(self) -> Rig | None:
        return self.wiring.rig

    @property
    def sensing(self) -> BoardSensing | None:
        return self.wiring.sensing

    @property
    def on_time(self) -> Later | None:
        return self.wiring.on_time

    @on_time.setter
    def on_time(self, later: Later | None) -> None:
        self.wiring.on_time = later

    @property
    def fleet(self) -> FleetPublisher | None:
        return self.reporting.fleet

    @property
    def guided(self) -> GuidedSetupPresenter | None:
        return self.lessons.guided

    @property
    def lesson(self) -> LessonPresenter | None:
        return self.lessons.lesson

    # --- screens, made when first shown ---------------------------------------------------

    @property
    def setup_screen(self) -> SetupScreen:
        return self.screens.setup

    @property
    def play_screen(self) -> PlayScreen:
        return self.screens.play

    @property
    def play_screen_made(self) -> PlayScreen | None:
        """The play screen if it has been shown (a look at it that does not make it)."""
        return self.screens.play_made

    @property
    def scores_screen(self) -> ScoresScreen:
        return self.screens.scores

    @property
    def guided_screen(self) -> GuidedSetupScreen:
        return self.screens.guided

    # --- navigation -------------------------------------------------------------------

    def go_home(self) -> None:
        self._leave_game()
        self.lessons.guided = None  # an unfinished setup resumes with its game (journaled)
        self.notices.off_game = ""
        devices = "   ".join(b.text for b in badges(self.hub.device_statuses()))
        home = HomePresenter(self.journal, shown=self.shop.shown_on_home)
        self.home_screen.show(home.view(), devices)
        self._show_home_banner()
        self.manager.current = "home"
        if self.on_highlights is not None:
            self.on_highlights(())  # no game on screen: the board goes dark
        self._report(home=True)

    def open_setup(self, game: str) -> None:
        from kiosk.presenters.setup import SetupPresenter  # not needed for Home

        self.setup = SetupPresenter(get_rules(game))
        self.setup_screen.bind_presenter(self.setup)
        self.manager.current = "setup"

    def start_game(self) -> None:
        if self.setup is None:
            return
        session = self.setup.start(self.seed(), self.journal)
        if session is None:
            self.setup_screen.refresh()
            return
        if self.screens.play_made is None:
            # The play screen is made once a run, with the first game. Setup's widgets go
            # first (dropped and collected now, not when the screen is left), so it and
            # the game are made in their memory: ≈6.7 MB less heap, for one collection
            # (≈60 M instructions) at this one start; later starts need none.
            self.setup_screen.drop_widgets()
            free_dropped_widgets()
        self.lessons.game_started(session, teach=self.setup.teach, guided=self.setup.guided)

    def show_guided_setup(self, guided: GuidedSetupPresenter) -> None:
        """Put ``guided`` on the guided-setup screen (the lesson flow's)."""
        guided.on_change = self.guided_screen.refresh
        self.guided_screen.bind_presenter(guided)
        self.manager.current = "guided_setup"

    def refresh_guided_setup(self) -> None:
        self.guided_screen.refresh()

    def guide(self, step: GuidedStep) -> None:
        """A tap on the guided-setup screen: ``done``, ``back`` or ``skip``."""
        self.lessons.guide(step)

    def start_lesson(self, game: str) -> bool:
        """ "Learn <game> in 10 minutes" (kiosk/lesson_flow.py)."""
        return self.lessons.start_lesson(game)

    def lesson_view(self, play: object) -> LessonView | None:
        """The lesson panel of the game ``play`` shows (None: no lesson)."""
        return self.lessons.lesson_view(play)

    def resume(self, game_id: int) -> bool:
        """Put a journaled game back on screen; False (and Home says why) when it cannot
        be: another program plays it (one writer per game), or its header is damaged."""
        from companion.session import Session  # with the first game, not at launch

        try:
            session, damage = Session.resume(self.journal, game_id)
        except RefereeError as error:
            self.problems.append(f"Game {game_id} was not resumed: {error.message}")
            self.go_home()
            return False
        self.show_game(session)
        if damage is not None and self.play is not None:
            self.play.show_banner(resume_banner(damage))
            self.play.changed()
        return True

    def show_game(self, session: Session, presenter: PlayPresenter | None = None) -> None:
        """Put ``session`` on the play screen (``presenter``: the shop demo's own)."""
        # The game's presenters load with the first game, not at launch.
        from kiosk.presenters.play import PlayPresenter
        from kiosk.presenters.scores import ScoresPresenter

        if self.play is not None:
            if self.play.session is not session:
                self._leave_game()
            self.play.unsubscribe(self.game_changed)
        self.lessons.leave()
        self.play = presenter if presenter is not None else PlayPresenter(session)
        if presenter is None and session.game_id is not None:
            self.shop.game_shown(session.game_id)  # this visitor's: listed on Home
        self._demo_on_screen = presenter is not None  # the shop's attract demo
        self.play.dice.note_devices(self.hub.device_statuses())
        self.play.subscribe(self.game_changed)
        game_id = session.game_id
        if game_id is not None and presenter is None:
            self.lessons.follow(self.play, game_id)  # teach mode and a lesson resume
        seats = self._follow_companion(presenter is None)
        self.board_geometry = self.play.board_input.geometry()
        self.scores = ScoresPresenter(
            session, self.data_dir / EXPORTS, seats.labels(session.state.players)
        )
        self.play_screen.bind_presenter(self.play)
        self.manager.current = "play"
        # The sensing board follows the game on screen (the shop demo's bot plays
        # without the table); a play screen already shown gets no change event.
        self._screen_shown(self.manager, self.manager.current)
        self.after_change()
        if game_id is not None and presenter is None:
            self.lessons.resume_setup(session)  # set up before play, where it was

    def play_against_companion(self, game: str, level: Level = "easy") -> bool:
        """ "Play <game> against the companion" (the shop's demo): a new game of two,
        "You" and the companion at ``level`` (Easy: a person should win); False (and
        Home says why) when it cannot start."""
        from companion.session import Session
        from kiosk.presenters.companion_seats import CompanionSeats

        seats = CompanionSeats.of({1: level})
        journal = None if self.journal.read_only else self.journal
        try:
            session = Session.new(
                game, ["You", "Companion"], seed=self.seed(), journal=journal, notes=seats.notes()
            )
        except RefereeError as error:
            self.problems.append(f"The game could not start: {error.message}")
            self.go_home()
            return False
        self.show_game(session)
        return True

    def _follow_companion(self, own: bool) -> CompanionSeats:
        """The companion takes its seats in the game just shown (and thinks at once if
        it is to move); not in a lesson or the shop's demo, which play themselves."""
        from kiosk.presenters.companion import CompanionTurn
        from kiosk.presenters.companion_seats import NO_SEATS, load_seats, plays
        from kiosk.thinker import ThreadRunner

        if self.companion is not None:  # the same game shown again: it follows anew
            self.companion.close()
            self.companion = None
        play = self.play
        if play is None or not own or self.lessons.lesson is not None:
            return NO_SEATS
        seats = load_seats(self.journal, play.session.game_id)
        if plays(play.rules.name):
            self.companion = CompanionTurn(play, seats, ThreadRunner(), follow=False)
        return seats

    def companion_view(self) -> CompanionView | None:
        """The companion's panel on the play screen (None: nothing to show)."""
        return None if self.companion is None else self.companion.view()

    def companion_act(self, call: Callable[[CompanionTurn], object]) -> bool:
        """A tap on the companion's panel: ``call`` names its intent (False: no
        companion follows the game on screen)."""
        if self.companion is None:
            return False
        call(self.companion)
        return True

    def seat_label(self, seat: int | None) -> str:
        """The header's name of ``seat`` ("Companion (Hard)"; "" when not known)."""
        if self.play is None or seat is None:
            return ""
        if self.companion is None:
            return str(self.play.queries.players[seat])
        return self.companion.who(seat)

    def drop_demo(self) -> None:
        """The shop's demo ended: its presenter leaves the play screen and the kiosk."""
        from kiosk.presenters.demo import DemoPlayPresenter  # a demo was on: loaded

        screen = self.screens.play_made
        if screen is not None and isinstance(screen.presenter, DemoPlayPresenter):
            screen.presenter = None
        if isinstance(self.play, DemoPlayPresenter):
            self.play.unsubscribe(self.game_changed)
            self.play = None
            self.scores = None
            self.board_geometry = None

    def open_scores(self) -> None:
        if self.scores is None:
            return
        self.scores_screen.show(self.scores.view())
        self.manager.current = "scores"

    def back_to_play(self) -> None:
        if self.play is None:
            self.go_home()
            return
        self.play_screen.refresh()
        self.manager.current = "play"

    def export_game(self) -> None:
        """Export the game on screen (a file and its QR code). A locked shop kiosk asks
        for the admin PIN first: an export carries the players' names."""
        if self.scores is None:
            return
        if self.shop.unlock_for(self.export_game):
            return  # the PIN pad is up; the export follows the right PIN
        self.scores.export()
        self.scores_screen.show(self.scores.view())

    def open_admin(self) -> None:
        """The admin page: through the PIN pad when the kiosk is locked (kiosk/shop.py)."""
        self.shop.request_admin()

    # --- the game on screen -----------------------------------------------------------

    def board_view(self) -> BoardView | None:
        return None if self.play is None else self.play.board_view()

    def game_changed(self) -> None:
        """The change pipeline (the one listener of the game on screen), in this order:
        the lesson's check, the LEDs, the screen, then the snapshot and the fleet."""
        play = self.play
        if play is None:
            return
        self.lessons.check(play)
        if self.companion is not None:
            self.companion.check()  # a new position: it drops, starts or keeps thinking
        self._light()
        screen = self.screens.play_made
        if screen is not None and screen.presenter is play:
            screen.changed()
        self._save_snapshot()
        self._report()

    def after_change(self) -> None:
        """What a change of screen or step shows outside the screen: the LEDs (guided
        setup's while it is up), the due snapshot, the fleet's report."""
        self._light()
        self._save_snapshot()
        self._report()

    def _light(self) -> None:
        if self.play is not None and self.on_highlights is not None:
            guided = self.lessons.guided
            self.on_highlights(
                guided.highlights() if guided is not None else self.play.highlights()
            )

    def _frame_drawn(self, *_: object) -> None:
        """Restart the countdown to handing freed memory back (kiosk/memory.py): each
        frame allocates afresh (under a software renderer, ≈20 MB per full redraw)."""
        self._release_memory.cancel()
        self._release_memory()

    def _save_due_snapshot(self, _dt: float) -> None:
        if self.play is not None:
            try:
                self.play.session.save_snapshot()
            except JournalError as exc:  # only a longer replay is lost; the next move says
                log.warning("The game's saved position was not written: %s", exc)

    def _leave_game(self) -> None:
        """The game on screen is left (Home, another game, the app closing): its position
        becomes the journal's latest, the one a rules update goes on from."""
        if self.companion is not None:
            self.companion.close()  # a decision under way is cancelled, its answer dropped
            self.companion = None
        if self.play is not None:
            try:
                self.play.session.save_position()
            except JournalError as exc:  # only a longer replay is lost; the next move says
                log.warning("The game's position was not saved on leaving it: %s", exc)

    # --- the fleet (kiosk/reporting.py) ---------------------------------------------

    def attach_fleet(self, fleet: FleetPublisher) -> None:
        """Report this table through ``fleet`` (kiosk/reporting.py)."""
        home = self.manager.current == "home"
        session = None if home or self.play is None else self.play.session
        self.reporting.attach(fleet, session, demo=self._demo_on_screen)

    def _report(self, *, home: bool = False) -> None:
        session = None if home or self.play is None else self.play.session
        self.reporting.report(session, demo=self._demo_on_screen)

    # --- the hardware (kiosk/wiring.py) ------------------------------------------------

    def attach_rig(self, rig: Rig) -> None:
        """Run ``rig``'s devices for this kiosk: their messages into the hub, the LEDs fed
        (the change pipeline's LED step is the rig's feed)."""
        self.wiring.attach(rig)
        self.on_highlights = self.wiring.led_feed(
            lambda: self.play.board_input.palette if self.play is not None else None
        )
        self._screen_shown(self.manager, self.manager.current)
        self.manager.bind(current=self._screen_shown)

    def _screen_shown(self, _manager: object, current: str) -> None:
        """The sensing board follows the game only while it is on the play screen: moves
        made on the table meanwhile (Home, Scores, a guided setup) are read when the
        game is back on screen, where they are seen, not played into it unseen."""
        if self.wiring.sensing is None:
            return
        shown = current == "play" and self.play is not None and not self._demo_on_screen
        self.wiring.follow(self.play if shown else None)
        if self.play is not None:
            self.after_change()
        if self.screens.play_made is not None:
            self.screens.play_made.refresh()

    def sim_tray_available(self) -> bool:
        """True when the dice are simulated: the dice panel offers to roll the sim tray."""
        return self.wiring.sim_tray_available()

    def roll_sim_tray(self) -> None:
        """Roll the simulated tray's dice for the pending request (through the pty path)."""
        if self.play is not None:
            self.wiring.roll_sim_tray(self.play)

    def pump(self) -> int:
        """Drain the hardware queue into the game on screen (main thread)."""
        return self.hub.pump(self._roll_target())

    def _roll_target(self) -> RollTarget | None:
        """Who the table's dice reach: the game on the play screen; during a guided setup
        the setup; on any other screen nobody (a die then is not saved into the game
        last shown, and Home says so)."""
        if self.lessons.guided is not None:
            return self.lessons.guided
        if self.manager.current == "play":
            return None if self.play is None else self.play.dice
        return self._off_game_rolls

    def on_button(self, message: ButtonMessage) -> None:
        """A table button (main thread): while the shop's demo runs it only ends it; menu
        and admin navigate, the rest act on the game."""
        if self.shop.armed and self.shop.note_input():
            return
        guided = self.lessons.guided
        if isinstance(message, ButtonPressed) and message.action == "menu":
            self.go_home()
        elif isinstance(message, ButtonPressed) and message.action == "admin":
            self.open_admin()
        elif guided is not None and self.manager.current == "guided_setup":
            if isinstance(message, ButtonPressed) and message.action in GUIDE_BUTTONS:
                self.guide(GUIDE_BUTTONS[message.action])  # the table's buttons step too
        elif self.play is not None and self.manager.current == "play":
            companion = self.companion  # its "Done" is the table's confirm button too
            if not (
                isinstance(message, ButtonPressed)
                and companion is not None
                and companion.press(message.action)
            ):
                press_on_game(self.play, message)

    def _device_note(self, note: DeviceNote) -> None:
        self.problems.append(note.text)
        self._show_home_banner()
        self.reporting.report_health()

    def _devices_changed(self, statuses: tuple[DeviceStatus, ...]) -> None:
        self.home_screen.ids.devices.text = "   ".join(b.text for b in badges(statuses))
        if self.play is not None and self._roll_target() is not self.play.dice:
            self.play.dice.note_devices(statuses)  # the header is current when it returns
        self.reporting.report_health()

    def _show_home_banner(self) -> None:
        self.notices.show()

    # --- the end ------------------------------------------------------------------------

    def recover(self) -> None:
        """After a widget's exception (kiosk/guard.py): Home, as when a game is left
        (every accepted move is in the journal; a demo ends)."""
        from kivy.core.window import Window  # not at the top: importing it opens it

        Window.release_all_keyboards()
        if not self.shop.note_input():  # a running demo ends and shows Home itself
            self.go_home()

    def close(self) -> None:
        from kivy.core.window import Window  # not at the top: importing it opens it

        Window.unbind(on_flip=self._frame_drawn)
        self._release_memory.cancel()
        self._save_snapshot.cancel()  # the position is saved on leaving, the journal closed
        self.shop.close()
        self.wiring.close()
        self.reporting.stop()
        self._leave_game()
        self.journal.close()
        forget_dropped_text_field()  # Kivy's last-adjusted field would keep this kiosk

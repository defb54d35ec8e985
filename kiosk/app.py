"""The touchscreen app: the Kivy composition root of the kiosk.

:class:`Kiosk` wires the journal, the hardware hub and the presenters to the screens;
:class:`CompanionApp` is the Kivy ``App`` around it and :func:`run_app` is what
``companion`` (``kiosk.cli``) calls. Screen logic lives in :mod:`kiosk.presenters`;
this module only navigates and forwards.
"""

from __future__ import annotations

import os

from kiosk.kivy_env import kivy_environment

# Kivy and the GL driver read these when first loaded (why each: kiosk/kivy_env.py).
os.environ.update(kivy_environment(os.environ))

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.errors import JournalError, RefereeError
from companion.games import get_rules
from companion.highlights import Highlight
from companion.journal import Journal
from firmware_bridge.buttons import ButtonMessage, ButtonPressed
from firmware_bridge.config import LoadedConfig
from firmware_bridge.rig import DeviceNote, Rig, build_rig
from kiosk import touch_wake
from kiosk.guard import ExceptionGuard
from kiosk.hardware import HardwareHub, RollTarget, press_on_game
from kiosk.memory import free_dropped_widgets, freeze_startup, release_freed_memory
from kiosk.mirror_feed import MirrorFeed
from kiosk.pace import WOKEN_DEEP_IDLE_FPS, WOKEN_IDLE_FPS, IdlePace
from kiosk.presenters.common import Banner, resume_banner
from kiosk.presenters.devices import OffGameRolls, badges
from kiosk.presenters.home import HomePresenter
from kiosk.screens import load_kv
from kiosk.screens.home import HomeScreen
from kiosk.screens.shop import ShopMode
from kiosk.storage import fresh_seed, open_journal
from kiosk.ui_map import UiMap
from kiosk.widgets import basic, scrolling  # noqa: F401  (Home's; the rest come with their screens)

if TYPE_CHECKING:
    # Loaded where configured, or when first used: Home needs none of them, and launch
    # (to Home's first frame) is shorter without (docs/kiosk.md, "Startup").
    from companion.session import Session
    from kiosk.board_sensing import BoardSensing
    from kiosk.fleet.publisher import FleetPublisher
    from kiosk.presenters.board import BoardView
    from kiosk.presenters.guided_setup import GuidedSetupPresenter
    from kiosk.presenters.lesson import LessonPresenter, LessonView
    from kiosk.presenters.play import PlayPresenter
    from kiosk.presenters.scores import ScoresPresenter
    from kiosk.presenters.setup import SetupPresenter
    from kiosk.screens.guided_setup import GuidedSetupScreen
    from kiosk.screens.play import PlayScreen
    from kiosk.screens.scores import ScoresScreen
    from kiosk.screens.setup import SetupScreen
    from kiosk.teaching.lessons import Lesson
    from kiosk.teaching.progress import LessonPlace, ProgressStore, SetupProgress


class CutBufferNotice(logging.Filter):
    """Kivy looks for an X11 cut buffer (xclip, xsel) the first time a text field is
    used and, finding none, logs a CRITICAL with two tracebacks. A touchscreen has no
    middle-click paste, so that is one line at INFO, not an alarm in the journal."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.CRITICAL and str(record.msg).startswith(
            "Cutbuffer: Unable to find"
        ):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg = "Cutbuffer: no xclip or xsel; no middle-click paste in text fields"
            record.args = ()
        return True


logging.getLogger("kivy").addFilter(CutBufferNotice())
log = logging.getLogger(__name__)


#: Home's and the game screens' layouts (the shop's admin.kv loads with its screens).
KV_FILES = ("widgets.kv", "screens.kv")
EXPORTS = "exports"
HOME_PROBLEMS_SHOWN = 3
#: Test hooks (documented in docs/kiosk.md): the UI map file and the sim strip's frame file.
ENV_UI_MAP = "COMPANION_UI_MAP"
ENV_SIM_LEDS = "COMPANION_SIM_LEDS"
UI_MAP_INTERVAL_S = 1 / 30
#: Seconds without a new frame before freed memory is handed back (kiosk/memory.py);
#: shorter than the shop demo's step, so it runs there too.
RELEASE_MEMORY_AFTER_S = 1.0

#: Table buttons during guided setup: confirm is Done, undo is Back.
GUIDE_BUTTONS = {"confirm": "done", "undo": "back"}

HighlightSink = Callable[[tuple[Highlight, ...]], None]


class Kiosk:
    """Navigation and wiring: which presenter is on which screen."""

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
        self.hub.on_button = self.on_button
        self.hub.on_note = self._device_note
        self.hub.on_devices = self._devices_changed
        self.hub.later = self._later
        self.seed = seed
        #: Configuration and device problems, shown in a banner on Home.
        self.problems: list[str] = list(problems)
        if self.journal.read_only:
            self.problems.append(
                f"The journal is read-only ({self.journal.read_only_reason}): games are"
                " shown but not saved."
            )
        self.rig: Rig | None = None
        self.fleet: FleetPublisher | None = None
        self._fleet_queued = 0  # the journal's queued count when the forwarder was last woken
        self._fleet_state: Any = None  # the state the fleet's table value was made from
        self._demo_on_screen = False
        #: The sensing board, when the rig has one (kiosk/board_sensing.py).
        self.sensing: BoardSensing | None = None
        #: The LED mirror on the play screen (kiosk/mirror_feed.py).
        self.mirror = MirrorFeed(self.hub, lambda: self._play_screen, self.pump)
        self.hub.on_frame = self.mirror.shipped
        self.setup: SetupPresenter | None = None
        self.play: PlayPresenter | None = None
        #: Guided setup while it is on screen (before play; kiosk/presenters/guided_setup.py).
        self.guided: GuidedSetupPresenter | None = None
        self._teach_progress: ProgressStore | None = None
        #: The scripted first game on screen, if the game is one (kiosk/presenters/lesson.py).
        self.lesson: LessonPresenter | None = None
        self.scores: ScoresPresenter | None = None
        self.board_geometry: Any = None
        #: Called with the highlights after every change: the LED strip's feed (during a
        #: fix-the-table walk-through, only the current step: the presenter owns it).
        self.on_highlights: HighlightSink | None = None
        #: Runs a callable on the main thread on time whatever the loop's pace (the
        #: app's :meth:`IdlePace.later`): the sensing board's stable-position wait.
        #: None: Kivy's clock (an unlimited loop, as the tests run it).
        self.on_time: Callable[[float, Callable[[], None]], Any] | None = None
        self._off_game_rolls = OffGameRolls(self._off_game_roll)
        self._home_notice = ""  # a die read with no game on screen (see _off_game_roll)
        self._fleet_notice = ""  # what is wrong with the fleet link (see attach_fleet)
        self.manager = ScreenManager(transition=NoTransition())
        self.home_screen = HomeScreen(name="home", kiosk=self)
        self.manager.add_widget(self.home_screen)
        # Made when first shown, with their modules: launch shows Home only (the play
        # screen alone is ≈150 M instructions and ≈3 MB; docs/kiosk.md, "Startup").
        self._setup_screen: SetupScreen | None = None
        self._play_screen: PlayScreen | None = None
        self._scores_screen: ScoresScreen | None = None
        self._guided_screen: GuidedSetupScreen | None = None
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
        #: Home's banner under its title (configuration and device problems).
        self.home_banner = self.home_screen.ids.banner
        self.go_home()

    @property
    def teach_progress(self) -> ProgressStore:
        """Teach mode's progress per game, durable across a power cut (made with the
        first game: the teaching package is not needed for Home)."""
        if self._teach_progress is None:
            from kiosk.teaching.progress import ProgressStore

            self._teach_progress = ProgressStore(self.journal)
        return self._teach_progress

    @property
    def setup_screen(self) -> SetupScreen:
        if self._setup_screen is None:
            from kivy.core.window import Window

            from kiosk.screens.setup import SetupScreen
            from kiosk.widgets import keyboard

            # Its name fields are the app's only text fields: the on-screen keyboard they
            # bring up is laid out before it can be touched (kiosk/widgets/keyboard.py).
            keyboard.install(Window)

            self._setup_screen = SetupScreen(name="setup", kiosk=self)
            self.manager.add_widget(self._setup_screen)
        return self._setup_screen

    @property
    def play_screen(self) -> PlayScreen:
        if self._play_screen is None:
            from kiosk.screens.play import PlayScreen

            self._play_screen = PlayScreen(name="play", kiosk=self)
            self.manager.add_widget(self._play_screen)
            self.mirror.offer(self._play_screen)
        return self._play_screen

    @property
    def play_screen_made(self) -> PlayScreen | None:
        """The play screen if it has been shown (a look at it that does not make it)."""
        return self._play_screen

    @property
    def scores_screen(self) -> ScoresScreen:
        if self._scores_screen is None:
            from kiosk.screens.scores import ScoresScreen

            self._scores_screen = ScoresScreen(name="scores", kiosk=self)
            self.manager.add_widget(self._scores_screen)
        return self._scores_screen

    @property
    def guided_screen(self) -> GuidedSetupScreen:
        if self._guided_screen is None:
            from kiosk.screens.guided_setup import GuidedSetupScreen

            self._guided_screen = GuidedSetupScreen(name="guided_setup", kiosk=self)
            self.manager.add_widget(self._guided_screen)
        return self._guided_screen

    # --- navigation -------------------------------------------------------------------

    def go_home(self) -> None:
        self._leave_game()
        self.guided = None  # an unfinished setup resumes with its game (its step is journaled)
        self._home_notice = ""
        devices = "   ".join(b.text for b in badges(self.hub.device_statuses()))
        home = HomePresenter(self.journal, shown=self.shop.shown_on_home)
        self.home_screen.show(home.view(), devices)
        self._show_home_banner()
        self.manager.current = "home"
        if self.on_highlights is not None:
            self.on_highlights(())  # no game on screen: the board goes dark
        self._report(home=True)

    def open_setup(self, game: str) -> None:
        from kiosk.presenters.setup import SetupPresenter

        self.setup = SetupPresenter(get_rules(game))
        self.setup_screen.bind_presenter(self.setup)
        self.manager.current = "setup"

    def start_game(self) -> None:
        if self.setup is None:
            return
        from kiosk.teaching.progress import SETUP_START, TeachProgress

        session = self.setup.start(self.seed(), self.journal)
        if session is None:
            self.setup_screen.refresh()
            return
        if self._play_screen is None:
            # The play screen is made once a run, with the first game. Setup's widgets go
            # first (dropped and collected now, not when the screen is left), so it and
            # the game are made in their memory: ≈6.7 MB less heap, for one collection
            # (≈60 M instructions) at this one start; later starts need none.
            self.setup_screen.drop_widgets()
            free_dropped_widgets()
        journaled = session.game_id is not None and not self.journal.read_only
        if self.setup.teach and session.game_id is not None and journaled:
            self.teach_progress.save(session.game_id, TeachProgress())
        if self.setup.guided and session.game_id is not None and journaled:
            self.teach_progress.save_setup(session.game_id, SETUP_START)
        self.show_game(session)
        if self.setup.teach and self.play is not None and self.play.teach is None:
            self.play.teacher.start(
                TeachProgress()
            )  # a game outside the journal: taught all the same
            self.play.changed()
        if self.setup.guided and not journaled:
            self.open_guided_setup(session)  # a game outside the journal: guided all the same

    def open_guided_setup(self, session: Session, progress: SetupProgress | None = None) -> None:
        """Show ``session``'s guided setup at ``progress`` (None: its first step; play
        comes after it); each tap is journaled as the game's note, so a power cut resumes
        at the same step."""
        from kiosk.teaching.progress import SETUP_START

        game_id = session.game_id
        store = self.teach_progress
        save = (
            None
            if game_id is None or self.journal.read_only
            else lambda done: store.save_setup(game_id, done)
        )
        from kiosk.presenters.guided_setup import GuidedSetupPresenter
        from kiosk.teaching import load_teaching

        guided = GuidedSetupPresenter(
            session, load_teaching(), SETUP_START if progress is None else progress, on_step=save
        )
        if guided.finished:
            return
        guided.on_change = self.guided_screen.refresh
        self.guided = guided
        self.guided_screen.bind_presenter(guided)
        self.manager.current = "guided_setup"
        self._after_change()

    def guide(self, intent: str) -> None:
        """A tap on the guided-setup screen: ``done``, ``back`` or ``skip``; after the last
        step or a skip, play (and its highlights on the LEDs)."""
        guided = self.guided
        if guided is None:
            return
        getattr(guided, intent)()
        if guided.finished:
            self.guided = None
            self.back_to_play()
        else:
            self.guided_screen.refresh()
        self._after_change()

    def start_lesson(self, game: str) -> bool:
        """ "Learn <game> in 10 minutes" (Home, the shop's demo): the game's scripted
        first game — the table set up with guided setup, then play with teach mode on.
        The one place a lesson starts; False (and Home says why) when it cannot."""
        from companion.session import Session
        from kiosk.teaching.lessons import lesson_for
        from kiosk.teaching.progress import SETUP_START, LessonPlace, TeachProgress

        lesson = lesson_for(game)
        if lesson is None:
            return False

        journal = None if self.journal.read_only else self.journal
        try:
            session = Session.new(
                game,
                lesson.players,
                lesson.options,
                seed=lesson.seed,
                journal=journal,
                demo=True,  # journaled (a power cut resumes it) but not a real game
            )
        except RefereeError as error:
            self.problems.append(f"The lesson could not start: {error.message}")
            self.go_home()
            return False
        if session.game_id is not None and journal is not None:
            self.teach_progress.save(session.game_id, TeachProgress())
            self.teach_progress.save_lesson(session.game_id, LessonPlace())
            self.teach_progress.save_setup(session.game_id, SETUP_START)  # set up first
        self.show_game(session)
        if self.play is not None and self.play.teach is None:  # a game outside the journal
            self.play.teacher.start(TeachProgress())
            self._follow_lesson(lesson, LessonPlace(), None)
            self.play.changed()
            self.open_guided_setup(session)
        return True

    def _follow_lesson(self, lesson: Lesson, place: LessonPlace, game_id: int | None) -> None:
        """Put ``lesson``'s panel over the game on screen, its place saved per change."""
        if self.play is None:
            return
        from kiosk.presenters.lesson import LessonPresenter

        store = self.teach_progress
        self.lesson = LessonPresenter(
            self.play,
            lesson,
            place,
            None if game_id is None else lambda where: store.save_lesson(game_id, where),
        )

    def lesson_view(self, play: object) -> LessonView | None:
        """The lesson panel of the game ``play`` shows (None: no lesson)."""
        lesson = self.lesson
        return None if lesson is None or lesson.play is not play else lesson.view()

    def resume(self, game_id: int) -> bool:
        """Put a journaled game back on screen; False (and Home says why) when it cannot
        be: another program plays it (one writer per game), or its header is damaged."""
        from companion.session import Session

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
        from kiosk.presenters.play import PlayPresenter
        from kiosk.presenters.scores import ScoresPresenter
        from kiosk.teaching.lessons import lesson_for

        if self.play is not None:
            if self.play.session is not session:
                self._leave_game()
            self.play.unsubscribe(self._after_change)
        self.guided = None
        if self.lesson is not None:
            self.lesson.close()
            self.lesson = None
        self.play = presenter if presenter is not None else PlayPresenter(session)
        if presenter is None and session.game_id is not None:
            self.shop.game_shown(session.game_id)  # this visitor's: listed on Home
        self._demo_on_screen = presenter is not None  # the shop's attract demo
        self.play.dice.note_devices(self.hub.device_statuses())
        game_id = session.game_id
        if game_id is not None and presenter is None:
            # Teach mode resumes where the lesson was (its progress is saved per tap).
            self.play.teacher.start(self.teach_progress.load(game_id))
            self.play.teacher.report_to(
                lambda progress: self.teach_progress.save(game_id, progress)
            )
        # The LEDs before the screen: after a roll or a move the strip gets its highlights
        # first, and the screen's redraw (the view, the board, the menu) comes after.
        self.play.subscribe(self._after_change, first=True)
        if game_id is not None and presenter is None:  # a lesson resumes at its step
            place = self.teach_progress.load_lesson(game_id)
            lesson = None if place is None else lesson_for(session.rules.name)
            if lesson is not None and place is not None:
                self._follow_lesson(lesson, place, game_id)  # checks before the LEDs
        self.board_geometry = self.play.board_geometry()
        self.scores = ScoresPresenter(session, self.data_dir / EXPORTS)
        self.play_screen.bind_presenter(self.play)
        self.manager.current = "play"
        # The sensing board follows the game on screen (the shop demo's bot plays
        # without the table); a play screen already shown gets no change event.
        self._screen_shown(self.manager, self.manager.current)
        self._after_change()
        if game_id is not None and presenter is None:
            setup = self.teach_progress.load_setup(game_id)
            if setup is not None and not setup.finished:  # set up before play, where it was
                self.open_guided_setup(session, setup)

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

    # --- the game on screen -----------------------------------------------------------

    def board_view(self) -> BoardView | None:
        return None if self.play is None else self.play.board_view()

    def _frame_drawn(self, *_: Any) -> None:
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
        if self.play is not None:
            try:
                self.play.session.save_position()
            except JournalError as exc:  # only a longer replay is lost; the next move says
                log.warning("The game's position was not saved on leaving it: %s", exc)

    def _after_change(self) -> None:
        if self.play is not None and self.on_highlights is not None:
            shown = self.guided if self.guided is not None else self.play
            self.on_highlights(shown.highlights())
        self._save_snapshot()
        self._report()

    # --- the fleet (kiosk/fleet/, docs/fleet.md) -----------------------------------------

    def attach_fleet(self, fleet: FleetPublisher) -> None:
        """Report this table through ``fleet``: the journal queues every play for it (in
        the play's own commit), and each change on screen updates the table's values."""
        self.fleet = fleet
        if not self.journal.read_only:
            self.journal.keep_outbox(fleet.settings.outbox_limit)
        # The forwarder's thread says when the link goes wrong (records refused, no
        # broker) or right again; Home's banner shows it, on the main thread.
        fleet.on_trouble = lambda text: Clock.schedule_once(
            lambda _dt: self._show_fleet_trouble(text), 0
        )
        fleet.start()
        self._report(home=self.manager.current == "home")
        self._report_health()

    def _show_fleet_trouble(self, text: str | None) -> None:
        self._fleet_notice = text or ""
        self._show_home_banner()

    def _report(self, *, home: bool = False) -> None:
        """Hand the fleet publisher the game on screen, and wake it when the journal
        queued a record. Values only: it sends on its own thread. The table's value is
        made again only when the state changed (a tap that selects a cell does not)."""
        fleet = self.fleet
        if fleet is None:
            return
        from kiosk.fleet.report import table_of

        session = None if home or self.play is None else self.play.session
        shown = None if session is None else session.state
        if shown is not self._fleet_state or session is None:
            self._fleet_state = shown
            fleet.show_table(table_of(fleet.device, session, demo=self._demo_on_screen))
        if self.journal.queued != self._fleet_queued:  # a finished game's record to send
            self._fleet_queued = self.journal.queued
            fleet.poke()

    def _report_health(self) -> None:
        """Hand the fleet publisher Home's problems and the devices as the header shows
        them (after a device note or a change of the devices)."""
        if self.fleet is None:
            return
        from kiosk.fleet.messages import DeviceHealth

        statuses = self.hub.device_statuses()
        self.fleet.set_health(
            problems=tuple(self.problems),
            devices=tuple(
                DeviceHealth(
                    device=status.device,
                    state=status.state,
                    battery=status.battery,
                    level=badge.level,
                    text=badge.text,
                )
                for status, badge in zip(statuses, badges(statuses), strict=True)
            ),
            journal_read_only=self.journal.read_only,
        )

    @staticmethod
    def _later(delay: float, then: Callable[[], None]) -> Any:
        """Run ``then`` on the main thread ``delay`` seconds from now (the hub's partial
        roll notes, the sensing board's settling); the clock event, to cancel it."""
        return Clock.schedule_once(lambda _dt: then(), delay)

    def pump(self) -> int:
        """Drain the hardware queue into the game on screen (main thread)."""
        return self.hub.pump(self._roll_target())

    def _roll_target(self) -> RollTarget | None:
        """Who the table's dice reach: the game on the play screen; during a guided setup
        the setup; on any other screen nobody (a die then is not saved into the game
        last shown, and Home says so)."""
        if self.guided is not None:
            return self.guided
        if self.manager.current == "play":
            return self.play
        return self._off_game_rolls

    # --- the hardware: devices, table buttons, LEDs -------------------------------------

    def attach_rig(self, rig: Rig) -> None:
        """Run ``rig``'s devices for this kiosk: their messages into the hub, the LEDs fed.

        After every change the highlights go to the LED animator; the frames the strip
        ships come back through the hub to the LED mirror.
        """
        self.rig = rig
        if rig.layout is not None:
            self.mirror.set_layout(rig.layout)
        self.on_highlights = self._light
        if rig.board_reader is not None:
            self.hub.board_reader = rig.board_reader
        if rig.config.board.source != "none":
            from kiosk.board_sensing import BoardSensing

            self.sensing = BoardSensing(
                self.hub,
                later=self.on_time or self._later,
                sim_board=None if rig.sim is None else rig.sim.board,
                settle_s=rig.config.board.settle_s,
            )
        rig.start(self.hub.post)
        self._screen_shown(self.manager, self.manager.current)
        self.manager.bind(current=self._screen_shown)

    def _screen_shown(self, _manager: Any, current: str) -> None:
        """The sensing board follows the game only while it is on the play screen: moves
        made on the table meanwhile (Home, Scores, a guided setup) are read when the
        game is back on screen, where they are seen, not played into it unseen."""
        sensing = self.sensing
        if sensing is None:
            return
        if current == "play" and self.play is not None and not self._demo_on_screen:
            if sensing.following is not self.play:
                sensing.attach(self.play)
        else:
            sensing.detach()
        if self.play is not None:
            self._after_change()
        if self._play_screen is not None:
            self._play_screen.refresh()

    def _light(self, highlights: tuple[Highlight, ...]) -> None:
        if self.rig is not None:
            palette = self.play.palette if self.play is not None else None
            self.rig.show_highlights(highlights, palette)

    def sim_tray_available(self) -> bool:
        """True when the dice are simulated: the dice panel offers to roll the sim tray."""
        return self.rig is not None and self.rig.sim is not None and self.rig.sim.dice_simulated

    def roll_sim_tray(self) -> None:
        """Roll the simulated tray's dice for the pending request (through the pty path)."""
        play = self.play
        if play is None or self.rig is None or self.rig.sim is None:
            return
        request = play.dice_request()
        if request is None:
            return
        try:
            self.rig.sim.roll_dice(request.sides, request.count)
        except (ValueError, RuntimeError) as error:
            play.show_banner(Banner(f"The simulated tray cannot roll this: {error}"))
            play.changed()

    def on_button(self, message: ButtonMessage) -> None:
        """A table button (main thread): menu and admin navigate, the rest act on the game."""
        if isinstance(message, ButtonPressed) and message.action == "menu":
            self.go_home()
        elif isinstance(message, ButtonPressed) and message.action == "admin":
            self.open_admin()
        elif self.guided is not None and self.manager.current == "guided_setup":
            if isinstance(message, ButtonPressed) and message.action in GUIDE_BUTTONS:
                self.guide(GUIDE_BUTTONS[message.action])  # the table's buttons step too
        elif self.play is not None and self.manager.current == "play":
            press_on_game(self.play, message)

    def _device_note(self, note: DeviceNote) -> None:
        self.problems.append(note.text)
        self._show_home_banner()
        self._report_health()

    def _off_game_roll(self, notice: str) -> None:
        """A die read with no game on screen: Home's banner says it was not used (until
        Home is shown again)."""
        log.info("%s", notice)
        self._home_notice = notice
        self._show_home_banner()

    def _devices_changed(self, statuses: tuple[Any, ...]) -> None:
        self.home_screen.ids.devices.text = "   ".join(b.text for b in badges(statuses))
        if self.play is not None and self._roll_target() is not self.play:
            self.play.dice.note_devices(statuses)  # the header is current when it returns
        self._report_health()

    def _show_home_banner(self) -> None:
        banner = self.home_banner
        shown = self.problems[:HOME_PROBLEMS_SHOWN]
        more = len(self.problems) - len(shown)
        notices = (*shown, self._fleet_notice, self._home_notice)
        text = "\n".join(f"• {problem}" for problem in notices if problem)
        if more > 0:
            text += f"\n… and {more} more (run companion doctor)."
        banner.text = text
        banner.opacity = 1 if text else 0
        if not text:
            banner.height = 0

    def open_admin(self) -> None:
        """The admin page: through the PIN pad when the kiosk is locked (kiosk.screens.shop)."""
        self.shop.request_admin()

    def recover(self) -> None:
        """After a widget's exception (kiosk/guard.py): Home, as when a game is left
        (every accepted move is in the journal; a demo ends)."""
        from kivy.core.window import Window

        Window.release_all_keyboards()
        if not self.shop.note_input():  # a running demo ends and shows Home itself
            self.go_home()

    def close(self) -> None:
        from kivy.core.window import Window

        Window.unbind(on_flip=self._frame_drawn)
        self._release_memory.cancel()
        self.shop.close()
        if self.sensing is not None:
            self.sensing.detach()
        if self.rig is not None:
            self.rig.stop()
            self.rig = None
        if self.fleet is not None:
            self.fleet.stop()
            self.fleet = None
        self._leave_game()
        self.journal.close()


class CompanionApp(App):  # type: ignore[misc]
    """The Kivy app: builds the kiosk, runs the rig, drains the hub, closes the journal."""

    title = "Colossus Companion"

    def __init__(
        self,
        data_dir: Path,
        hub: HardwareHub | None = None,
        *,
        rig: Rig | None = None,
        fleet: FleetPublisher | None = None,
        problems: Sequence[str] = (),
        ui_map: Path | None = None,
        config: LoadedConfig | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        # Not ``self.config``: that is Kivy's own ConfigParser, set by App.run().
        self.loaded_config = config
        self.data_dir = Path(data_dir)
        self.hub = hub if hub is not None else HardwareHub()
        self.rig = rig
        self.fleet = fleet
        self.problems = tuple(problems)
        self.ui_map = ui_map
        self.kiosk: Kiosk | None = None
        self._events: list[Any] = []
        self._ui_map: UiMap | None = None
        self.pace: IdlePace | None = None
        self.guard: ExceptionGuard | None = None

    def build(self) -> Any:
        self.kiosk = Kiosk(
            self.data_dir, hub=self.hub, problems=self.problems, config=self.loaded_config
        )
        # A widget's exception is logged and recovered from, not the end of the app.
        self.guard = ExceptionGuard(self.kiosk.recover)
        self.guard.install()
        # The loop slows down while nothing happens (kiosk/pace.py).
        from kivy.config import Config
        from kivy.core.window import Window

        # Touches read by an input thread (the Pi's panel) wake the loop themselves, so
        # an idle loop can pass more seldom (kiosk/touch_wake.py).
        woken = touch_wake.touches_wake(value for _, value in Config.items("input"))
        rates = {"idle_fps": WOKEN_IDLE_FPS, "deep_fps": WOKEN_DEEP_IDLE_FPS} if woken else {}
        self.pace = IdlePace(Clock, on_idle=self._calm_devices, **rates)
        if woken:
            touch_wake.install(self.pace.wake)
        # Woken by every post from a device thread, at once, whatever the pace; no
        # polling (see kiosk.hardware).
        self.hub.wake = self._device_wake(Clock.create_trigger(self._pump, 0), self.pace)
        Window.bind(
            on_flip=self.pace.activity,
            on_motion=self.pace.activity,
            on_key_down=self.pace.activity,
        )
        if self.pace.enabled:
            self.kiosk.on_time = self.pace.later
        if self.rig is not None:
            self.kiosk.attach_rig(self.rig)
        if self.fleet is not None:
            self.kiosk.attach_fleet(self.fleet)
        self.hub.wake()  # whatever was posted before the trigger existed
        freeze_startup()  # before a game is resumed: only what lives for the whole run
        self.kiosk.shop.apply_window_mode()  # shop lock-down: borderless fullscreen
        self.kiosk.shop.boot()  # [kiosk] on_boot; idle -> demo
        if self.ui_map is not None:
            self._ui_map = UiMap(self.kiosk, self.ui_map)  # Kivy's clock holds it weakly
            self._events.append(Clock.schedule_interval(self._ui_map.write, UI_MAP_INTERVAL_S))
        return self.kiosk.manager

    @staticmethod
    def _device_wake(pump: Callable[[], None], pace: IdlePace) -> Callable[[], None]:
        def wake() -> None:  # the posting thread
            pump()
            pace.wake()

        return wake

    def _calm_devices(self, idle: bool) -> None:
        if self.rig is not None:
            self.rig.set_calm(idle)

    def _pump(self, _dt: float) -> None:
        if self.pace is not None:
            self.pace.activity()
        if self.kiosk is not None:
            self.kiosk.pump()

    def open_settings(self, *_args: Any) -> bool:
        """No Kivy settings panel on F1: it could switch Escape back on in a locked shop
        kiosk. The admin page (behind the PIN when locked) is the settings."""
        return False

    def on_stop(self) -> None:
        if self.guard is not None:
            self.guard.uninstall()
        self.hub.wake = None
        touch_wake.uninstall()
        if self.pace is not None:
            self.pace.close()
        for event in self._events:
            event.cancel()
        if self.kiosk is not None:
            self.kiosk.close()


def run_app(loaded: LoadedConfig) -> int:
    """Start the touchscreen app with the devices ``loaded`` configures; the exit status.

    ``loaded.config.data_dir`` holds the journal. Configuration problems appear in a
    banner on Home (the app then runs with simulated devices, as the loader decided).
    Test hooks: ``COMPANION_UI_MAP`` (see :class:`UiMap`) and ``COMPANION_SIM_LEDS``
    (the strip records every frame it ships: newest frame + checksums of recent ones).
    """
    if not os.environ.get("DISPLAY"):
        # No desktop (the Pi's KMSDRM): a docked on-screen keyboard for player names.
        from kivy.config import Config

        Config.set("kivy", "keyboard_mode", "systemanddock")
    frame_file = os.environ.get(ENV_SIM_LEDS)
    ui_map = os.environ.get(ENV_UI_MAP)
    rig = build_rig(loaded, frame_file=Path(frame_file) if frame_file else None)
    problems = [str(problem) for problem in loaded.problems]
    fleet: FleetPublisher | None = None
    if loaded.config.fleet.enabled:  # the fleet's modules (paho-mqtt) load only when on
        from kiosk.fleet.report import make_publisher

        fleet, fleet_problem = make_publisher(loaded)
        if fleet_problem is not None:
            problems.append(fleet_problem)
    app = CompanionApp(
        loaded.config.data_dir,
        rig=rig,
        fleet=fleet,
        problems=problems,
        ui_map=Path(ui_map) if ui_map else None,
        config=loaded,
    )
    stop_on_sigterm(app)
    try:
        app.run()
    finally:
        rig.stop()
    return 0


def stop_on_sigterm(app: Any) -> None:
    """``systemctl stop`` (and a test's teardown) sends SIGTERM: stop as after Escape.

    Python's default would end the process at once, leaving the LEDs lit, the journal
    open and the simulated tray's port behind; this stops the app from its own clock
    on the main thread, so ``on_stop`` closes the journal and the rig darkens the strip.
    """
    import signal

    from kivy.clock import Clock

    def handler(_signum: int, _frame: Any) -> None:
        Clock.schedule_once(lambda _dt: app.stop(), 0)

    signal.signal(signal.SIGTERM, handler)

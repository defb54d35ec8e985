"""The touchscreen app: the Kivy composition root of the kiosk.

:class:`Kiosk` wires the journal, the hardware hub and the presenters to the screens;
:class:`CompanionApp` is the Kivy ``App`` around it and :func:`run_app` is what
``companion`` (``kiosk.cli``) calls. Screen logic lives in :mod:`kiosk.presenters`;
this module only navigates and forwards.
"""

from __future__ import annotations

import os

# Kivy reads these when it is first imported: no argument parsing of ``companion``'s own
# options, the official 7" panel size, logs through Python's logging.
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KCFG_GRAPHICS_WIDTH", "800")
os.environ.setdefault("KCFG_GRAPHICS_HEIGHT", "480")

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.games import get_rules
from companion.highlights import Highlight
from companion.journal import Journal
from companion.session import Session
from firmware_bridge.layout import LedLayout
from firmware_bridge.leds.strip import Frame
from kiosk.cli import fresh_seed, open_journal
from kiosk.hardware import HardwareHub, SimulatedDice, schedule_pump
from kiosk.presenters.board import BoardView, board_view
from kiosk.presenters.common import Banner
from kiosk.presenters.devices import badges
from kiosk.presenters.games import board_decorations
from kiosk.presenters.home import HomePresenter
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.scores import ScoresPresenter
from kiosk.presenters.setup import SetupPresenter
from kiosk.screens.home import HomeScreen
from kiosk.screens.play import PlayScreen
from kiosk.screens.scores import ScoresScreen
from kiosk.screens.setup import SetupScreen
from kiosk.widgets import basic, board, chart, led_mirror, qr  # noqa: F401

KV_DIR = Path(__file__).parent / "kv"
KV_FILES = ("widgets.kv", "screens.kv")
EXPORTS = "exports"

HighlightSink = Callable[[tuple[Highlight, ...], int | None], None]

_kv_loaded = False


def load_kv() -> None:
    """Load the layout files once per process."""
    global _kv_loaded
    if not _kv_loaded:
        for name in KV_FILES:
            Builder.load_file(str(KV_DIR / name))
        _kv_loaded = True


class Kiosk:
    """Navigation and wiring: which presenter is on which screen."""

    def __init__(
        self,
        data_dir: Path,
        *,
        hub: HardwareHub | None = None,
        journal: Journal | None = None,
        seed: Callable[[], int] = fresh_seed,
    ) -> None:
        load_kv()
        self.data_dir = Path(data_dir)
        self.journal = journal if journal is not None else open_journal(self.data_dir)
        self.hub = hub if hub is not None else HardwareHub()
        self.seed = seed
        self.setup: SetupPresenter | None = None
        self.play: PlayPresenter | None = None
        self.scores: ScoresPresenter | None = None
        self.board_geometry: Any = None
        #: Called with the highlights (and fix step) after every change: the LED strip's feed.
        self.on_highlights: HighlightSink | None = None
        self.manager = ScreenManager(transition=NoTransition())
        self.home_screen = HomeScreen(name="home", kiosk=self)
        self.setup_screen = SetupScreen(name="setup", kiosk=self)
        self.play_screen = PlayScreen(name="play", kiosk=self)
        self.scores_screen = ScoresScreen(name="scores", kiosk=self)
        for screen in (self.home_screen, self.setup_screen, self.play_screen, self.scores_screen):
            self.manager.add_widget(screen)
        self.go_home()

    # --- navigation -------------------------------------------------------------------

    def go_home(self) -> None:
        devices = "   ".join(b.text for b in badges(self.hub.device_statuses()))
        self.home_screen.show(HomePresenter(self.journal).view(), devices)
        self.manager.current = "home"

    def open_setup(self, game: str) -> None:
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
        self.show_game(session)

    def resume(self, game_id: int) -> None:
        session, damage = Session.resume(self.journal, game_id)
        self.show_game(session)
        if damage is not None and self.play is not None:
            self.play.banner = Banner(
                f"The journal was damaged at move {damage.seq}; the game goes on from the "
                "last good move.",
                code="journal_error",
            )
            self.play.changed()

    def show_game(self, session: Session) -> None:
        if self.play is not None:
            self.play.unsubscribe(self._after_change)
        self.play = PlayPresenter(session)
        self.play.devices = self.hub.device_statuses()
        self.play.subscribe(self._after_change)
        self.board_geometry = board_geometry_for(session)
        self.scores = ScoresPresenter(session, self.data_dir / EXPORTS)
        self.play_screen.bind_presenter(self.play)
        self.manager.current = "play"
        self._after_change()

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
        if self.scores is None:
            return
        self.scores.export()
        self.scores_screen.show(self.scores.view())

    # --- the game on screen -----------------------------------------------------------

    def board_view(self) -> BoardView | None:
        if self.play is None or self.board_geometry is None:
            return None
        base, decorations = board_decorations(self.play.rules.name, self.play.state)
        return board_view(
            self.play.rules.name,
            self.board_geometry,
            self.play.highlights(),
            fix_step=self.play.fix_step,
            focus=self.play.focus,
            base=base,
            decorations=decorations,
        )

    def _after_change(self) -> None:
        if self.play is not None and self.on_highlights is not None:
            self.on_highlights(self.play.highlights(), self.play.fix_step)

    def set_led_layout(self, layout: LedLayout) -> None:
        """Offer the LED mirror on the play screen for a strip wired as ``layout``."""
        self.play_screen.set_led_layout(dict(layout.positions), dict(layout.cells))

    def show_led_frame(self, frame: Frame) -> None:
        """Show the exact frame the strip was sent (main thread)."""
        if self.play_screen.mirror is not None:
            self.play_screen.mirror.show_frame(frame)

    def pump(self) -> int:
        """Drain the hardware queue into the game on screen (main thread)."""
        return self.hub.pump(self.play)

    def close(self) -> None:
        self.hub.stop()
        self.journal.close()


def board_geometry_for(session: Session) -> Any:
    """The board drawing of games played on a board (None for card and solo games)."""
    from kiosk.presenters.board import grid_geometry, positions_geometry

    name = session.rules.name
    if name == "kolossus":
        return grid_geometry()
    if name in ("beast_master", "colossi"):
        spaces = getattr(getattr(session.state, "board", None), "spaces", None)
        if spaces:
            positions = {
                s.id: (
                    float(s.x if s.x is not None else i % 6),
                    float(s.y if s.y is not None else i // 6),
                )
                for i, s in enumerate(spaces)
            }
            return positions_geometry(positions)
    return None


class CompanionApp(App):  # type: ignore[misc]
    """The Kivy app: builds the kiosk, drains the hardware queue, closes the journal."""

    title = "Colossus Companion"

    def __init__(self, data_dir: Path, hub: HardwareHub | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_dir = Path(data_dir)
        self.hub = hub if hub is not None else HardwareHub()
        self.kiosk: Kiosk | None = None
        self._pump_event: Any = None

    def build(self) -> Any:
        self.kiosk = Kiosk(self.data_dir, hub=self.hub)
        self._pump_event = schedule_pump(self.hub, lambda: self.kiosk.play if self.kiosk else None)
        return self.kiosk.manager

    def on_stop(self) -> None:
        if self._pump_event is not None:
            self._pump_event.cancel()
        if self.kiosk is not None:
            self.kiosk.close()


def dice_sources_from_environment() -> list[SimulatedDice]:
    """``COMPANION_DICE=sim`` connects a simulated die (the shop and development)."""
    if os.environ.get("COMPANION_DICE", "").strip().lower() == "sim":
        return [SimulatedDice()]
    return []


def run_app(data_dir: Path, config_path: Path | None = None) -> int:
    """Start the touchscreen app; returns the exit status for ``companion``.

    ``config_path`` (the hardware TOML) is not read yet: real dice and LED drivers are
    wired here once ``firmware_bridge``'s config loader exists.
    """
    if not os.environ.get("DISPLAY"):
        # No desktop (the Pi's KMSDRM): a docked on-screen keyboard for player names.
        from kivy.config import Config

        Config.set("kivy", "keyboard_mode", "systemanddock")
    hub = HardwareHub()
    hub.start(dice_sources_from_environment())
    app = CompanionApp(Path(data_dir), hub=hub)
    app.run()
    return 0

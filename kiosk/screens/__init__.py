"""The kiosk's screens. Each one copies a presenter's view model into widgets; their
layouts are the kv files of ``kiosk/kv``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kivy.lang import Builder
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

from kiosk.lesson_flow import GuidedStep

if TYPE_CHECKING:  # the game's modules load with the first game, not at launch
    from collections.abc import Callable

    from kiosk.board_sensing import BoardSensing
    from kiosk.presenters.board import BoardView
    from kiosk.presenters.companion import CompanionTurn, CompanionView
    from kiosk.presenters.lesson import LessonPresenter, LessonView
    from kiosk.presenters.play import PlayPresenter

KV_DIR = Path(__file__).resolve().parents[1] / "kv"
_kv_loaded: set[str] = set()


def load_kv(*names: str) -> None:
    """Load the layout files ``names`` (in ``kiosk/kv``), each once per process: the app
    loads Home's and the game screens' at launch, the shop's admin page its own when
    first needed."""
    for name in names:
        if name not in _kv_loaded:
            Builder.load_file(str(KV_DIR / name))
            _kv_loaded.add(name)


class ShopControls(Protocol):
    """What the admin page and the PIN pad ask of the shop (:class:`kiosk.shop.ShopMode`)."""

    def pin_submitted(self) -> None: ...

    def pin_cancelled(self) -> None: ...

    def toggle_calibration(self) -> None: ...

    def exit_app(self) -> None: ...


class Stage(Protocol):
    """What the screens ask of the kiosk (:class:`kiosk.navigation.Kiosk`); the .kv
    files' buttons call its navigation (``root.kiosk.go_home()`` and the like) too."""

    @property
    def shop(self) -> ShopControls: ...

    @property
    def play(self) -> PlayPresenter | None: ...

    @property
    def lesson(self) -> LessonPresenter | None: ...

    @property
    def sensing(self) -> BoardSensing | None: ...

    @property
    def board_geometry(self) -> object: ...

    def go_home(self) -> None: ...

    def open_setup(self, game: str) -> None: ...

    def start_lesson(self, game: str) -> bool: ...

    def resume(self, game_id: int) -> bool: ...

    def open_scores(self) -> None: ...

    def guide(self, step: GuidedStep) -> None: ...

    def board_view(self) -> BoardView | None: ...

    def lesson_view(self, play: object) -> LessonView | None: ...

    def sim_tray_available(self) -> bool: ...

    def roll_sim_tray(self) -> None: ...

    def companion_view(self) -> CompanionView | None: ...

    def companion_act(self, call: Callable[[CompanionTurn], object]) -> bool: ...

    def seat_label(self, seat: int | None) -> str: ...


class KioskScreen(Screen):  # type: ignore[misc]
    """A screen that knows the kiosk controller (navigation and presenters)."""

    kiosk: Stage = ObjectProperty(None, allownone=True)

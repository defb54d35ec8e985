"""Shop mode on the Kivy side: attract mode, lock-down and the hidden way to admin.

:class:`ShopMode` is created by :class:`kiosk.navigation.Kiosk` (``kiosk.shop``) and armed by
:meth:`ShopMode.boot` when the app starts. It only connects Kivy to the Kivy-free logic:

* one ``Clock`` interval (4 Hz) feeds :class:`~kiosk.presenters.attract.AttractMode`
  (idle clock → demo driver) and the long-press detector with ``time.monotonic()``;
* the window's touch and key events are input: they reset the idle clock, and while the
  demo runs the first one ends it (Home) and does nothing else; a table button does the
  same (the kiosk's button handler asks :meth:`ShopMode.note_input` first), a die
  rolled ends it through :class:`~kiosk.presenters.demo.DemoPlayPresenter`;
* locked (``[kiosk] locked = true``): Escape is swallowed (``exit_on_escape`` off and
  keycode 27 consumed), a window close request is refused, the window is borderless
  fullscreen without a cursor, there is no Admin button, and the admin page opens only
  after the PIN pad (reached by holding a screen's title for 3 s). Unlocked, Home has
  an Admin button and the same gesture opens the admin page directly. The window's
  side of it (fullscreen, the title the gesture starts on) is :mod:`kiosk.shop_window`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kivy.clock import Clock, ClockEvent
from kivy.config import Config
from kivy.core.window import Window
from kivy.input.motionevent import MotionEvent
from kivy.uix.screenmanager import ScreenManager

from kiosk.presenters.attract import (
    AttractMode,
    TickResult,
    boot_choice,
    demo_rotation,
    unknown_games,
)
from kiosk.presenters.long_press import LongPress
from kiosk.settings import KioskConfig, LoadedConfig
from kiosk.shop_demo import DemoOverlay
from kiosk.shop_window import ESCAPE, apply_window_mode, stop_running_app, title_widget
from kiosk.widgets.basic import KButton

if TYPE_CHECKING:
    from companion.journal import Journal
    from companion.session import Session

    # Loaded when first used: a demo's modules (the play presenter, the bot) when it
    # starts, the admin page's (PIN store, doctor, its screens and admin.kv) when opened.
    from firmware_bridge.doctor import Finding
    from firmware_bridge.rig import Rig
    from kiosk.admin import PinStore
    from kiosk.presenters.admin import AdminPresenter, LedControls, PinPad
    from kiosk.presenters.demo import DemoDriver, DemoPlayPresenter
    from kiosk.presenters.play import PlayPresenter
    from kiosk.screens.admin import AdminScreen, PinScreen
    from kiosk.screens.home import HomeScreen
    from kiosk.screens.play import PlayScreen

TICK_S = 0.25
ADMIN_SCREENS = ("pin", "admin")
#: The admin page (and the PIN pad) close themselves after this long without a touch,
#: whatever ``idle_timeout_s`` says: staff who walk away leave no open admin page.
ADMIN_IDLE_S = 60.0
#: A locked kiosk without a demo (idle_timeout_s = 0) still ends a visit after this long
#: without a touch: the visitor's game is closed and no longer listed on Home.
VISIT_IDLE_S = 180.0


def _doctor(loaded: LoadedConfig | None) -> Sequence[Finding]:
    from kiosk.settings.findings import doctor

    return doctor(loaded)


class Stage(Protocol):
    """What the shop asks of the navigation (:class:`kiosk.navigation.Kiosk`)."""

    data_dir: Path
    journal: Journal
    seed: Callable[[], int]
    manager: ScreenManager
    home_screen: HomeScreen

    @property
    def play(self) -> PlayPresenter | None: ...

    @property
    def play_screen(self) -> PlayScreen: ...

    @property
    def rig(self) -> Rig | None: ...

    def go_home(self) -> None: ...

    def resume(self, game_id: int) -> bool: ...

    def start_lesson(self, game: str) -> bool: ...

    def play_against_companion(self, game: str) -> bool: ...

    def show_game(self, session: Session, presenter: PlayPresenter | None = None) -> None: ...

    def drop_demo(self) -> None: ...


class ShopMode:
    """Attract mode and lock-down for one kiosk (see the module docstring)."""

    def __init__(
        self,
        kiosk: Stage,
        config: KioskConfig | None = None,
        loaded: LoadedConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.kiosk = kiosk
        self.config = config if config is not None else KioskConfig()
        self.loaded = loaded
        self.clock = clock
        self._pins: PinStore | None = None
        self.games = demo_rotation(self.config.demo_games)
        self.attract: AttractMode[DemoDriver] = AttractMode(
            self.config.idle_timeout_s, self._make_driver, clock()
        )
        self.press = LongPress()
        self.pad: PinPad | None = None
        self.admin: AdminPresenter | None = None
        self.leds: LedControls | None = None
        self.diagnose: Callable[[], Sequence[Finding]] = lambda: _doctor(self.loaded)
        #: What "Exit app" on the admin page does (stop the running Kivy app).
        self.on_exit: Callable[[], None] = stop_running_app
        self.exiting = False
        self.armed = False
        self._event: ClockEvent | None = None
        self._escape_before: str | None = None
        self._return_to = "home"
        #: What the right PIN does instead of opening the admin page (an export).
        self._after_unlock: Callable[[], None] | None = None
        #: Unlocked by the PIN for one action: it runs without asking again.
        self._unlocked_action = False
        self._pad_second = -1
        #: The games of this visit (locked): Home lists these and no earlier visitor's.
        self.visit: set[int] = set()
        #: Staff asked to see every game (admin page); ends after ADMIN_IDLE_S idle.
        self.staff_view = False
        #: The demo's banner and Learn button over the play screen.
        self.overlay = DemoOverlay()
        # Made when first shown, as the kiosk's own screens are (kiosk.app).
        self._pin_screen: PinScreen | None = None
        self._admin_screen: AdminScreen | None = None
        if not self.config.locked:
            kiosk.home_screen.offer_admin(self.request_admin)

    @property
    def pins(self) -> PinStore:
        """The admin PIN, read when the PIN pad or the admin page first needs it."""
        if self._pins is None:
            from kiosk.admin import PinStore

            self._pins = PinStore(self.kiosk.data_dir)
        return self._pins

    @property
    def pin_screen(self) -> PinScreen:
        if self._pin_screen is None:
            from kiosk.screens.admin import PinScreen

            self._pin_screen = PinScreen(name="pin", kiosk=self.kiosk)
            self.kiosk.manager.add_widget(self._pin_screen)
        return self._pin_screen

    @property
    def admin_screen(self) -> AdminScreen:
        if self._admin_screen is None:
            from kiosk.screens.admin import AdminScreen

            self._admin_screen = AdminScreen(name="admin", kiosk=self.kiosk)
            self.kiosk.manager.add_widget(self._admin_screen)
        return self._admin_screen

    def config_problems(self) -> list[str]:
        """Demo games this build does not have, in words for Home's banner.

        (Unknown ``[kiosk]`` keys are refused by the config loader itself.)
        """
        return [
            f"[kiosk] demo_games: there is no game {name!r}"
            for name in unknown_games(self.config.demo_games)
        ]

    # --- life cycle -------------------------------------------------------------------

    def boot(self) -> None:
        """Arm the shop mode and show what ``[kiosk] on_boot`` asks for."""
        self.arm()
        choice = boot_choice(self.config.on_boot, self.kiosk.journal)
        if choice.action == "demo":
            self.start_demo(force=True)
        elif choice.action == "resume" and choice.game_id is not None:
            self.kiosk.resume(choice.game_id)  # a refusal (in use, damaged) shows on Home

    def arm(self) -> None:
        """Listen to the window and the clock (idempotent)."""
        if self.armed:
            return
        self.armed = True
        Window.bind(
            on_touch_down=self._touch_down,
            on_touch_move=self._touch_move,
            on_touch_up=self._touch_up,
            on_keyboard=self._keyboard,
            on_request_close=self._request_close,
        )
        self._plan()
        if self.config.locked:
            self._escape_before = Config.get("kivy", "exit_on_escape")
            Config.set("kivy", "exit_on_escape", "0")

    def apply_window_mode(self) -> None:
        apply_window_mode(Window, self.config)

    def close(self) -> None:
        """Stop listening, end a running demo, restore Kivy's Escape setting."""
        if self.armed:
            Window.unbind(
                on_touch_down=self._touch_down,
                on_touch_move=self._touch_move,
                on_touch_up=self._touch_up,
                on_keyboard=self._keyboard,
                on_request_close=self._request_close,
            )
            if self._event is not None:
                self._event.cancel()
            if self._escape_before is not None:
                Config.set("kivy", "exit_on_escape", self._escape_before)
            self.armed = False
        self.attract.stop(self.clock())

    # --- visits (a locked kiosk shows a visitor only their own games) ----------------

    def shown_on_home(self, game_id: int) -> bool:
        """Whether Home lists this game: every game unless locked; locked, only this
        visit's games (staff see all after "Every game" on the admin page)."""
        return not self.config.locked or self.staff_view or game_id in self.visit

    def game_shown(self, game_id: int) -> None:
        """A real game (started, resumed, a lesson) is on screen: it is this visit's."""
        self.visit.add(game_id)

    @property
    def visit_idle_s(self) -> float:
        timeout = self.config.idle_timeout_s
        return timeout if timeout > 0 else VISIT_IDLE_S

    def end_visit(self) -> None:
        """The visitor left (idle): their game is closed and listed no more."""
        self.visit.clear()
        self.staff_view = False
        if not self.attract.active and self.kiosk.manager.current != "home":
            self._close_admin()
            self.kiosk.go_home()
        elif self.kiosk.manager.current == "home":
            self.kiosk.go_home()  # the list without the visit's games

    def staff_games(self) -> None:
        """From the admin page: Home with every game, until a minute without a touch."""
        if self.admin is None:
            return
        self.staff_view = True
        self._close_admin()
        self.kiosk.go_home()

    # --- input ------------------------------------------------------------------------

    def note_input(self) -> bool:
        """Any input. True if it ended the demo (Home is shown; do nothing else with it)."""
        self._replan_soon()
        now = self.clock()
        if self.attract.active:
            self._end_demo(now)
            return True
        self.attract.input(now)
        return False

    def _touch_down(self, _window: object, touch: MotionEvent) -> bool:
        learn = self._learn_touched(touch)
        against = self._learn_touched(touch, self.overlay.against_button)
        if self.note_input():
            if learn is not None:  # "Learn <game> in 10 minutes" on the demo
                self.kiosk.start_lesson(learn)
            elif against is not None:  # "Play <game> against the companion"
                self.kiosk.play_against_companion(against)
            return True
        if self._on_title(touch):
            self.press.down(touch.x, touch.y, self.clock())
        return False

    def _touch_move(self, _window: object, touch: MotionEvent) -> bool:
        self.attract.idle.touch(self.clock())
        self.press.move(touch.x, touch.y)
        return False

    def _touch_up(self, _window: object, _touch: object) -> bool:
        self.attract.idle.touch(self.clock())
        self.press.up()
        self._replan_soon()
        return False

    def _learn_touched(self, touch: MotionEvent, widget: KButton | None = None) -> str | None:
        """The demoed game when ``touch`` is on the demo's Learn button (or ``widget``),
        else None."""
        play = self.kiosk.play
        if not self.attract.active or play is None or not self.overlay.touched(touch, widget):
            return None
        return str(play.rules.name)

    def _keyboard(self, _window: object, key: int, *_args: object, **_kwargs: object) -> bool:
        if self.note_input():
            return True
        return self.config.locked and key == ESCAPE

    def _request_close(self, *_args: object, **_kwargs: object) -> bool:
        """True refuses: a locked kiosk closes only through the admin page's Exit."""
        return self.config.locked and not self.exiting

    def _on_title(self, touch: MotionEvent) -> bool:
        screen = self.kiosk.manager.current_screen
        if screen is None or screen.name in ADMIN_SCREENS:
            return False
        widget = title_widget(screen)
        if widget is None or widget.get_root_window() is None:
            return False
        return bool(widget.collide_point(*widget.to_widget(touch.x, touch.y)))

    # --- the clock --------------------------------------------------------------------

    def _on_time(self) -> bool:
        """Something runs on time now: the demo's moves, a held press on the title, the
        calibration walk, the PIN pad's lock-out countdown."""
        return (
            self.attract.active
            or self.press.holding
            or (self.admin is not None and self.admin.calibrating)
            or self.kiosk.manager.current in ADMIN_SCREENS  # it closes itself when idle
            or self.staff_view
        )

    def _plan(self, *_args: object) -> None:
        """Schedule the next tick: every TICK_S while something runs on time, else once,
        when the idle clock expires (the demo starts), else none. A still kiosk is not
        woken four times a second to find nothing to do (idle means idle)."""
        if self._event is not None:
            self._event.cancel()
            self._event = None
        if not self.armed:
            return
        if self._on_time():
            wait = TICK_S
        else:
            dues = [self.attract.idle.due]
            if self.config.locked and self.visit:  # the visit ends when idle (end_visit)
                dues.append(self.attract.idle.last_input + self.visit_idle_s)
            due = min((d for d in dues if d is not None), default=None)
            if due is None:
                return
            wait = max(0.0, due - self.clock())
        self._event = Clock.schedule_once(self._clock_tick, wait)

    def _replan_soon(self) -> None:
        """After an input: plan again once its handlers ran (a tap that opened the PIN pad
        or started the calibration is then seen)."""
        Clock.schedule_once(self._plan, 0)

    def _clock_tick(self, _dt: float) -> None:
        self.tick(self.clock())
        self._plan()

    def tick(self, now: float) -> TickResult:
        """Everything time-driven: the gesture, idle → demo, demo moves, the PIN countdown."""
        if self.press.fired(now):
            self.request_admin()
        if (
            self.kiosk.manager.current in ADMIN_SCREENS
            and self.attract.idle.idle_for(now) >= ADMIN_IDLE_S
        ):
            self.leave_admin()  # locks itself: the next visit needs the PIN again
        idle = self.attract.idle.idle_for(now)
        if self.staff_view and idle >= ADMIN_IDLE_S:
            self.staff_view = False
            if self.kiosk.manager.current == "home":
                self.kiosk.go_home()
        if self.config.locked and self.visit and idle >= self.visit_idle_s:
            self.end_visit()
        result = self.attract.tick(now)
        if self.admin is not None:
            self.admin.tick(now)
        if (
            self.pad is not None
            and self.kiosk.manager.current == "pin"
            and int(now) != self._pad_second
        ):
            self._pad_second = int(now)
            self.pin_screen.refresh()  # the lock-out countdown
        return result

    # --- the demo ---------------------------------------------------------------------

    def _make_driver(self) -> DemoDriver:
        from kiosk.presenters.demo import DemoDriver

        return DemoDriver(
            self.games,
            seed=self.kiosk.seed,
            step_s=self.config.demo_step_s,
            outcome_s=self.config.demo_outcome_s,
            on_game=self._show_demo_game,
            on_input=self.note_input,
        )

    def start_demo(self, *, force: bool = False) -> None:
        """Start the demo now: at boot (``force``) or from the admin page."""
        if not force and self.admin is None:
            return
        self._close_admin()
        self.attract.start(self.clock())
        self._plan()

    def _show_demo_game(self, play: DemoPlayPresenter) -> None:
        self._close_admin()
        Window.release_all_keyboards()  # a name field left half-typed: no keyboard over the demo
        self.kiosk.show_game(play.session, play)
        self.overlay.show(self.kiosk.play_screen, play.rules.name, play.rules.title)

    def _end_demo(self, now: float) -> None:
        self.attract.stop(now)
        self.overlay.hide()
        self.kiosk.drop_demo()
        self.kiosk.go_home()

    # --- admin ------------------------------------------------------------------------

    def request_admin(self) -> None:
        """The hidden gesture, a table button or the Admin button (unlocked only)."""
        if self.attract.active:
            return
        current = self.kiosk.manager.current
        if current not in ADMIN_SCREENS:
            self._return_to = current
        if not self.config.locked:
            self._open_admin()
            return
        from kiosk.presenters.admin import PinPad

        self.pad = PinPad(self.pins, "unlock")
        self._after_unlock = None  # this PIN is for the admin page
        self._show_pad()

    @property
    def unlocking_for_action(self) -> bool:
        """The PIN pad is up for one action (an export), not for the admin page."""
        return self._after_unlock is not None and self.kiosk.manager.current == "pin"

    def unlock_for(self, action: Callable[[], None]) -> bool:
        """A locked kiosk asks for the admin PIN before ``action`` (an export): True when
        the pad is shown (``action`` runs after the right PIN, on the screen it came
        from); False when ``action`` may run now (unlocked, admin open, or just unlocked)."""
        if not self.config.locked or self.admin is not None or self._unlocked_action:
            return False
        current = self.kiosk.manager.current
        if current not in ADMIN_SCREENS:
            self._return_to = current
        from kiosk.presenters.admin import PinPad

        self.pad = PinPad(self.pins, "unlock")
        self._after_unlock = action
        self._show_pad()
        return True

    def _show_pad(self) -> None:
        assert self.pad is not None
        self.pin_screen.bind_pad(self.pad)
        self.kiosk.manager.current = "pin"

    def pin_submitted(self) -> None:
        pad = self.pad
        if pad is None:
            return
        result = pad.submit()
        action = self._after_unlock
        if result == "unlocked" and action is not None:
            self._after_unlock = self.pad = None
            self._leave_to_previous()
            self._unlocked_action = True
            try:
                action()
            finally:
                self._unlocked_action = False
        elif result == "unlocked":
            self._open_admin()
        elif result == "changed":
            self._open_admin(notice=pad.message)
        else:
            self.pin_screen.refresh()

    def pin_cancelled(self) -> None:
        pad, self.pad = self.pad, None
        self._after_unlock = None
        if pad is not None and pad.purpose == "change" and self.admin is not None:
            self.kiosk.manager.current = "admin"
            return
        self._leave_to_previous()

    def _leave_to_previous(self) -> None:
        if self._return_to == "home" or self._return_to not in self.kiosk.manager.screen_names:
            self.kiosk.go_home()
        else:
            self.kiosk.manager.current = self._return_to

    def _open_admin(self, notice: str = "") -> None:
        from kiosk.presenters.admin import AdminPresenter, RigLeds

        self.pad = None
        if self.leds is None:
            rig = self.kiosk.rig
            if rig is not None and rig.animator is not None and rig.layout is not None:
                self.leds = RigLeds(rig)
        if self.admin is None:
            self.admin = AdminPresenter(
                self.config, demo_games=self.games, diagnose=self.diagnose, leds=self.leds
            )
        self.admin.notice = notice
        self.admin_screen.bind_presenter(self.admin)
        self.kiosk.manager.current = "admin"

    def _close_admin(self) -> None:
        """End the admin session: the next visit needs the PIN again."""
        if self.admin is not None:
            self.admin.stop_calibration()
        self.admin = None
        self.pad = None
        self._after_unlock = None
        if self.kiosk.manager.current in ADMIN_SCREENS:
            self.kiosk.manager.current = "home"

    def leave_admin(self) -> None:
        self._close_admin()
        self.kiosk.go_home()

    def change_pin(self) -> None:
        if self.admin is None:  # only from the admin page
            return
        from kiosk.presenters.admin import PinPad

        self.pad = PinPad(self.pins, "change")
        self._show_pad()

    def toggle_calibration(self) -> None:
        if self.admin is None:
            return
        if self.admin.calibrating:
            self.admin.stop_calibration()
        else:
            self.admin.start_calibration(self.clock())

    def exit_app(self) -> None:
        """Exit, from the admin page only (locked: after the PIN)."""
        if self.admin is None:
            return
        self.exiting = True
        self.on_exit()

"""The shop's admin screens: the PIN pad and the admin page (layout in kv/admin.kv).

Both only copy view models from :mod:`kiosk.presenters.admin` into widgets and forward
taps; what they may do is decided by :class:`kiosk.shop.ShopMode`.
"""

from __future__ import annotations

from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.admin import AdminPresenter, AdminView, PinPad, PinPadView
from kiosk.screens import KioskScreen, load_kv
from kiosk.widgets.basic import WrapLabel, button

# These screens' and the demo banner's rules: read when the shop first needs one of them.
load_kv("admin.kv")

PAD_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "Del", "0", "OK")
SEVERITY_COLOURS = {"ok": theme.OK, "warning": theme.WARN, "problem": theme.DANGER_TEXT}


class DemoBanner(Label):  # type: ignore[misc]
    """The "DEMO — touch to play" strip across the play screen while the demo runs."""


class PinScreen(KioskScreen):
    """Digits, Del, OK and Cancel; the dots show how many digits were typed."""

    pad: PinPad | None = None

    def on_kv_post(self, base_widget: Widget) -> None:
        keys = self.ids.pad_keys
        for key in PAD_KEYS:
            keys.add_widget(
                button(
                    key,
                    lambda k=key: self._key(k),
                    role="accent" if key == "OK" else "normal",
                    font_size=theme.FONT_TITLE,
                )
            )

    def bind_pad(self, pad: PinPad) -> None:
        self.pad = pad
        self.refresh()

    def _key(self, key: str) -> None:
        if self.pad is None or self.kiosk is None:
            return
        if key == "OK":
            self.kiosk.shop.pin_submitted()
            return
        if key == "Del":
            self.pad.erase()
        else:
            self.pad.press(int(key))
        self.refresh()

    def refresh(self) -> None:
        if self.pad is not None:
            self.show(self.pad.view())

    def show(self, view: PinPadView) -> None:
        ids = self.ids
        ids.title.text = view.title
        ids.prompt.text = view.prompt
        ids.dots.text = view.dots
        ids.message.text = view.message
        ids.message.color = theme.DANGER_TEXT if view.error else theme.OK
        for key in ids.pad_keys.children:
            if key.text == "OK":
                key.disabled = not view.ok_enabled
            elif key.text == "Del":
                key.disabled = view.mode == "no_pin" or not view.dots
            else:
                key.disabled = not view.digits_enabled
        ids.pad_keys.opacity = 0 if view.mode == "no_pin" else 1

    def cancel(self) -> None:
        if self.kiosk is not None:
            self.kiosk.shop.pin_cancelled()


class AdminScreen(KioskScreen):
    """Exit, hardware status, LED brightness and calibration, the demo, the PIN."""

    presenter: AdminPresenter | None = None
    confirm_exit = False

    def bind_presenter(self, presenter: AdminPresenter) -> None:
        if self.presenter is not None:
            self.presenter.unsubscribe(self.refresh)
        self.presenter = presenter
        presenter.subscribe(self.refresh)
        self.confirm_exit = False
        self.refresh()

    def refresh(self) -> None:
        if self.presenter is not None:
            self.show(self.presenter.view())

    def show(self, view: AdminView) -> None:
        ids = self.ids
        findings = ids.findings
        findings.clear_widgets()
        for line in view.findings:
            findings.add_widget(
                WrapLabel(
                    text=f"[{line.severity}] {line.text}",
                    font_size=theme.FONT_SMALL,
                    color=SEVERITY_COLOURS.get(line.severity, theme.TEXT),
                )
            )
        settings = ids.settings
        settings.clear_widgets()
        for text in view.settings:
            settings.add_widget(WrapLabel(text=text, font_size=theme.FONT_SMALL))
        if view.brightness is None:
            ids.brightness.text = "LEDs: no strip"
        else:
            ids.brightness.text = f"LED brightness {view.brightness}%"
        ids.dimmer.disabled = view.brightness is None or view.brightness <= 0
        ids.brighter.disabled = view.brightness is None or view.brightness >= 100
        ids.calibrate.disabled = not view.can_calibrate
        ids.calibrate.text = "Stop calibration" if view.calibration else "Calibrate LEDs"
        notice = view.calibration or view.notice
        ids.notice.text = notice
        ids.notice.opacity = 1 if notice else 0
        ids.exit.text = "Tap again to exit" if self.confirm_exit else "Exit app"

    # --- taps (one line each: the shop mode decides) -----------------------------------

    def check_hardware(self) -> None:
        if self.presenter is not None:
            self.presenter.check_hardware()

    def step_brightness(self, direction: int) -> None:
        if self.presenter is not None:
            self.presenter.step_brightness(direction)

    def toggle_calibration(self) -> None:
        if self.kiosk is not None:
            self.kiosk.shop.toggle_calibration()

    def exit_pressed(self) -> None:
        """Two taps: an exit must not happen by brushing the button."""
        if not self.confirm_exit:
            self.confirm_exit = True
            self.refresh()
            return
        self.confirm_exit = False
        if self.kiosk is not None:
            self.kiosk.shop.exit_app()

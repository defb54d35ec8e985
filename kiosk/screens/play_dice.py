"""The play screen's dice panel: the prompt, the face buttons, "Roll in software" —
made once, relabelled for each request (a face tap changes one label, not the panel)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.play_view import DicePanel
from kiosk.screens.play_actions import Act
from kiosk.screens.play_parts import column
from kiosk.widgets.basic import KButton, WrapLabel, button
from kiosk.widgets.lists import WidgetPool, show_children


class DiceBox:
    """The dice panel; ``act`` calls the presenter on screen, ``roll_tray`` rolls the
    simulated tray's dice."""

    def __init__(self, act: Act, roll_tray: Callable[[], None]) -> None:
        self.act = act
        self.box = column()
        self.prompt = WrapLabel(font_size=theme.FONT_BODY)
        self.entered = WrapLabel(color=theme.ACCENT)
        self.faces = GridLayout(cols=6, size_hint_y=None, spacing=theme.SPACING)
        self.faces.bind(minimum_height=self.faces.setter("height"))
        self.face_buttons = WidgetPool(self.faces, self._face_button)
        self.row = BoxLayout(size_hint_y=None, height=theme.BUTTON_HEIGHT, spacing=theme.SPACING)
        self.roll = button(
            "Roll in software",
            lambda: act(lambda p: p.dice.roll_in_software()),
            role="accent",
        )
        self.clear = button("Clear", lambda: act(lambda p: p.dice.clear_faces()), size_hint_x=0.4)
        # Simulated hardware: roll the "electronic" dice of the simulated tray, which
        # reach the game through the pty and the real serial reader.
        self.tray = button(
            "Roll the simulated tray",
            roll_tray,
            size_hint_y=None,
            height=theme.BUTTON_HEIGHT,
        )

    def _face_button(self) -> KButton:
        # The smallest touch target: a d6's two rows must fit the column beside the board
        # under the last roll and the prompt.
        face = KButton(size_hint_y=None, height=theme.TOUCH_MIN, font_size=theme.FONT_LARGE)
        face.bind(on_release=self._face_tapped)
        return face

    def _face_tapped(self, widget: KButton) -> None:
        self.act(lambda p: p.dice.tap_face(widget.face))

    def show(self, dice: DicePanel, *, per_row: int, tray: bool) -> None:
        self.prompt.text = dice.prompt
        parts: list[Widget] = [self.prompt]
        if dice.entered:
            self.entered.text = "Entered: " + " ".join(str(v) for v in dice.entered)
            parts.append(self.entered)
        if dice.faces:
            # Balanced rows: a d6 is 2 rows of 3, not 4 + 2.
            rows = -(-len(dice.faces) // per_row)
            self.faces.cols = -(-len(dice.faces) // rows)
            for widget, face in zip(
                self.face_buttons.show(len(dice.faces)), dice.faces, strict=True
            ):
                widget.text = str(face)
                widget.face = face
            parts.append(self.faces)
        show_children(self.row, [self.roll, self.clear] if dice.entered else [self.roll])
        parts.append(self.row)
        if tray:
            parts.append(self.tray)
        show_children(self.box, parts)

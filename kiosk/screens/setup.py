"""Setup: players (names, seat order, colours) and the game's options with rulings."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.textinput import TextInput

from kiosk import theme
from kiosk.presenters.common import humanize
from kiosk.presenters.setup import OptionView, SetupPresenter, SetupView
from kiosk.screens import KioskScreen
from kiosk.widgets.basic import KLabel, KToggle, SmallLabel, Stepper, Swatch, WrapLabel, button

ROW = theme.BUTTON_HEIGHT


class SetupScreen(KioskScreen):
    presenter: SetupPresenter | None = None

    def bind_presenter(self, presenter: SetupPresenter) -> None:
        self.presenter = presenter
        self.ids.scroll.scroll_y = 1
        self.refresh()

    def on_leave(self, *_args: Any) -> None:
        # Its ≈190 widgets and their textures are rebuilt on the next visit anyway; the
        # kiosk hands the freed memory back once the window is still (kiosk/memory.py).
        self.ids.body.clear_widgets()

    def _do(self, intent: Any) -> None:
        intent()
        self.refresh()

    def refresh(self) -> None:
        if self.presenter is not None:
            self.show(self.presenter.view())

    def show(self, view: SetupView) -> None:
        assert self.presenter is not None
        presenter = self.presenter
        self.ids.title.text = view.title
        banner = self.ids.banner
        banner.text = view.banner.text if view.banner else ""
        banner.height = 52 if view.banner else 0
        banner.opacity = 1 if view.banner else 0
        body = self.ids.body
        scroll_y = self.ids.scroll.scroll_y
        body.clear_widgets()
        body.add_widget(
            KLabel(
                text=f"Players ({view.player_hint})",
                size_hint_y=None,
                height=34,
                color=theme.TEXT_DIM,
            )
        )
        for player in view.players:
            row = BoxLayout(size_hint_y=None, height=ROW, spacing=theme.SPACING)
            row.add_widget(
                Swatch(colour=theme.rgb_to_rgba(player.colour), size_hint_x=None, width=28)
            )
            name = TextInput(
                text=player.name,
                multiline=False,
                font_size=theme.FONT_LARGE,
                padding=(10, 14),
                background_color=theme.SURFACE_HIGH,
                foreground_color=theme.TEXT,
                cursor_color=theme.ACCENT,
                write_tab=False,
            )
            name.bind(text=lambda _w, text, seat=player.seat: presenter.rename(seat, text))
            row.add_widget(name)
            up = button(
                "Move up",
                lambda seat=player.seat: self._do(lambda: presenter.move_up(seat)),
                size_hint_x=None,
                width=130,
            )
            up.disabled = player.seat == 0
            row.add_widget(up)
            remove = button(
                "Remove",
                lambda seat=player.seat: self._do(lambda: presenter.remove_player(seat)),
                size_hint_x=None,
                width=120,
            )
            remove.disabled = not player.can_remove
            row.add_widget(remove)
            body.add_widget(row)
        if view.can_add_player:
            body.add_widget(
                button(
                    "+ Add player",
                    lambda: self._do(presenter.add_player),
                    size_hint_y=None,
                    height=ROW,
                )
            )
        if view.options:
            body.add_widget(
                KLabel(
                    text="Options (defaults follow the rulings)",
                    size_hint_y=None,
                    height=40,
                    color=theme.TEXT_DIM,
                )
            )
        for option in view.options:
            body.add_widget(self._option(option))
        self.ids.scroll.scroll_y = scroll_y

    def _option(self, option: OptionView) -> Any:
        presenter = self.presenter
        assert presenter is not None
        box = GridLayout(cols=1, size_hint_y=None, spacing=2, padding=(0, 4))
        box.bind(minimum_height=box.setter("height"))
        head = BoxLayout(size_hint_y=None, height=ROW, spacing=theme.SPACING)
        ruling = f"   [{option.ruling}]" if option.ruling else ""
        changed = "  (changed)" if option.changed else ""
        head.add_widget(KLabel(text=f"{option.label}{ruling}{changed}", bold=True))
        if option.kind == "switch":
            head.add_widget(
                button(
                    option.value_text,
                    lambda: self._do(lambda: presenter.toggle(option.name)),
                    role="accent" if option.value else "normal",
                    size_hint_x=None,
                    width=120,
                )
            )
        elif option.kind == "stepper":
            Stepper(
                head,
                lambda d: self._do(lambda: presenter.step(option.name, d)),
                button_width=64,
                value_width=60,
            ).show(
                option.value_text,
                can_decrease=option.minimum is None or option.value > option.minimum,
                can_increase=option.maximum is None or option.value < option.maximum,
            )
        elif option.kind == "list" and option.optional:
            head.add_widget(
                button(
                    "Automatic" if option.automatic else "By hand",
                    lambda: self._do(lambda: presenter.toggle(option.name)),
                    role="normal" if option.automatic else "accent",
                    size_hint_x=None,
                    width=150,
                )
            )
        elif option.kind == "fixed":
            head.add_widget(
                KLabel(
                    text="from a file" if option.value is None else option.value_text,
                    size_hint_x=None,
                    width=200,
                    halign="right",
                    color=theme.TEXT_DIM,
                )
            )
        box.add_widget(head)
        for element in option.elements:
            row = BoxLayout(size_hint_y=None, height=ROW, spacing=theme.SPACING)
            row.add_widget(
                KLabel(
                    text=element.label, size_hint_x=None, width=130, font_size=theme.FONT_SMALL + 1
                )
            )
            for choice, label in zip(element.choices, element.choice_labels, strict=True):
                row.add_widget(
                    button(
                        label,
                        lambda i=element.index, c=choice: self._do(
                            lambda: presenter.choose_element(option.name, i, c)
                        ),
                        role="accent" if choice == element.value else "normal",
                        font_size=theme.FONT_SMALL + 1,
                    )
                )
            box.add_widget(row)
        if option.kind == "choice":
            choices = GridLayout(
                cols=min(3, len(option.choices)), size_hint_y=None, spacing=theme.SPACING
            )
            choices.bind(minimum_height=choices.setter("height"))
            for choice in option.choices:
                toggle = KToggle(
                    text=humanize(str(choice)),
                    group=f"option-{option.name}",
                    state="down" if choice == option.value else "normal",
                    size_hint_y=None,
                    height=ROW,
                    font_size=theme.FONT_SMALL + 1,
                )
                toggle.bind(
                    on_release=lambda _w, c=choice: self._do(
                        lambda: presenter.choose(option.name, c)
                    )
                )
                choices.add_widget(toggle)
            box.add_widget(choices)
        if option.description:
            box.add_widget(SmallLabel(text=option.description))
        box.add_widget(WrapLabel(text="", height=4))
        return box

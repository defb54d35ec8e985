"""Setup: players (names, seat order, colours) and the game's options with rulings."""

from __future__ import annotations

from collections.abc import Callable

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.rules import MAX_NAME_LENGTH
from kiosk import theme
from kiosk.presenters.setup import (
    OptionGroupView,
    OptionView,
    PlayerRow,
    SetupPresenter,
    SetupView,
)
from kiosk.screens import KioskScreen, load_kv
from kiosk.widgets.basic import (
    KButton,
    KLabel,
    KToggle,
    SmallLabel,
    Stepper,
    Swatch,
    WrapLabel,
    button,
)
from kiosk.widgets.keyboard import NameInput, keyboard_top, lift_above_keyboard
from kiosk.widgets.lists import WidgetPool, show_children

# This screen's layout: read with its module, when Setup is first shown (not at launch).
load_kv("setup.kv")

ROW = theme.BUTTON_HEIGHT
#: The body's padding (setup.kv); its bottom grows by the keyboard's height while typing.
BODY_PADDING = (0, 0, 14, 0)
FIRST_FRAME_OPTIONS = 2
"""Option boxes made in the frame that opens Setup; the rest come in the next frame (the
house rules' boxes only once "More rules" is opened).
Kolossus has 21 options, ≈190 widgets: made at once they held the tap on its title for
≈0.25 s of this machine's CPU, 1–2.5 s of a Pi's, while the screen shows its players and
no more than the first two options. Made a few a frame instead, each frame moved every
box made before and Kivy laid each out again (≈50 M instructions a frame)."""


def _option_shape(option: OptionView) -> object:
    """What an option's widgets are made from; texts and states are set in place."""
    return (
        option.name,
        option.kind,
        option.optional,
        tuple(len(e.choices) for e in option.elements),
        len(option.choices),
        option.description,
    )


class OptionBox:
    """One option's widgets: a head row (label, its control, "About"), one row per entry
    of a list option, a row of choices, the description when asked for. ``show`` updates
    them in place."""

    def __init__(self, screen: SetupScreen, option: OptionView) -> None:
        name = option.name
        self.box = GridLayout(cols=1, size_hint_y=None, spacing=2, padding=(0, 4))
        self.box.bind(minimum_height=self.box.setter("height"))
        head = BoxLayout(size_hint_y=None, height=ROW, spacing=theme.SPACING)
        self.label = KLabel(bold=True)
        head.add_widget(self.label)
        #: The head row's control: an on/off button (a switch, an optional list), or
        #: the value of a fixed option.
        self.toggle: KButton | None = None
        self.fixed: KLabel | None = None
        self.stepper: Stepper | None = None
        if option.kind == "switch":
            self.toggle = button(
                "", lambda: screen.do(lambda p: p.toggle(name)), size_hint_x=None, width=200
            )
        elif option.kind == "stepper":
            self.stepper = Stepper(
                head,
                lambda d: screen.do(lambda p: p.step(name, d)),
                button_width=64,
                value_width=200,
            )
            self.stepper.value.font_size = theme.FONT_BODY  # a player's name fits
        elif option.kind == "list" and option.optional:
            self.toggle = button(
                "", lambda: screen.do(lambda p: p.toggle(name)), size_hint_x=None, width=150
            )
        elif option.kind == "fixed":
            self.fixed = KLabel(size_hint_x=None, width=250, halign="right", color=theme.TEXT_DIM)
        for control in (self.toggle, self.fixed):
            if control is not None:
                head.add_widget(control)
        self.about_button = button(
            "About",
            lambda: screen.do(lambda p: p.toggle_about(name)),
            size_hint_x=None,
            width=96,
            font_size=theme.FONT_SMALL + 1,
        )
        head.add_widget(self.about_button)
        self.box.add_widget(head)
        self.elements: list[tuple[KLabel, list[KButton]]] = []
        for element in option.elements:
            row = BoxLayout(size_hint_y=None, height=ROW, spacing=theme.SPACING)
            label = KLabel(size_hint_x=None, width=130, font_size=theme.FONT_SMALL + 1)
            row.add_widget(label)
            buttons = []
            for _ in element.choices:
                # labelled in ``show``; a long name or weapon takes two lines
                widget = KButton(font_size=theme.FONT_SMALL + 1, max_lines=2)
                widget.bind(
                    on_release=lambda w: screen.do(
                        lambda p: p.choose_element(name, w.element, w.choice)
                    )
                )
                row.add_widget(widget)
                buttons.append(widget)
            self.elements.append((label, buttons))
            self.box.add_widget(row)
        self.choices: list[KToggle] = []
        if option.kind == "choice":
            choices = GridLayout(
                cols=min(4, len(option.choices)), size_hint_y=None, spacing=theme.SPACING
            )
            choices.bind(minimum_height=choices.setter("height"))
            for _ in option.choices:
                toggle = KToggle(
                    group=f"option-{name}-{id(self)}",
                    size_hint_y=None,
                    height=ROW,
                    font_size=theme.FONT_SMALL + 1,
                )
                toggle.bind(on_release=lambda w: screen.do(lambda p: p.choose(name, w.choice)))
                choices.add_widget(toggle)
                self.choices.append(toggle)
            self.box.add_widget(choices)
        self.about = SmallLabel(text="")
        self.box.add_widget(WrapLabel(text="", height=4))

    def show(self, option: OptionView) -> None:
        changed = "  (changed)" if option.changed else ""
        self.label.text = f"{option.label}{changed}"
        if option.kind == "switch" and self.toggle is not None:
            self.toggle.text = option.value_text
            self.toggle.role = "accent" if option.value else "normal"
        elif self.stepper is not None:
            self.stepper.show(
                option.value_text,
                can_decrease=option.can_decrease,
                can_increase=option.can_increase,
            )
        elif option.kind == "list" and self.toggle is not None:
            self.toggle.text = "Automatic" if option.automatic else "By hand"
            self.toggle.role = "normal" if option.automatic else "accent"
        elif self.fixed is not None:
            self.fixed.text = option.value_text
        self.about_button.role = "accent" if option.about_open else "normal"
        self.about.text = option.about
        if option.about_open and self.about.parent is None:
            self.box.add_widget(self.about, index=1)  # above the closing gap
        elif not option.about_open and self.about.parent is not None:
            self.box.remove_widget(self.about)
        for (label, buttons), element in zip(self.elements, option.elements, strict=True):
            label.text = element.label
            for widget, choice, text in zip(
                buttons, element.choices, element.choice_labels, strict=True
            ):
                widget.text = text
                widget.shorten = False  # after the text: KButton's rule sets it anew
                widget.element = element.index
                widget.choice = choice
                widget.role = "accent" if choice == element.value else "normal"
        for toggle, choice, text in zip(
            self.choices, option.choices, option.choice_labels, strict=True
        ):
            toggle.text = text
            toggle.choice = choice
            toggle.state = "down" if choice == option.value else "normal"


class PlayerRowView:
    """A player's row: colour, name field, who plays the seat (a person or the
    companion at a level, one tap each: in the games the companion plays), "Move up",
    "Remove" (for any seat)."""

    def __init__(self, screen: SetupScreen) -> None:
        self.seat = 0
        self.row = BoxLayout(size_hint_y=None, height=ROW, spacing=theme.SPACING)
        self.swatch = Swatch(size_hint_x=None, width=28)
        self.name = NameInput(
            MAX_NAME_LENGTH,
            font_size=theme.FONT_LARGE,
            padding=(10, 14),
            background_color=theme.SURFACE_HIGH,
            foreground_color=theme.TEXT,
            cursor_color=theme.ACCENT,
            write_tab=False,
        )
        self.name.bind(text=lambda _w, text: screen.rename(self.seat, text))
        self.name.bind(focus=screen.name_focused)
        self.up = button(
            "Move up",
            lambda: screen.do(lambda p: p.move_up(self.seat)),
            size_hint_x=None,
            width=130,
        )
        self.remove = button(
            "Remove",
            lambda: screen.do(lambda p: p.remove_player(self.seat)),
            size_hint_x=None,
            width=120,
        )
        self.who = button(
            "Person",
            lambda: screen.do(lambda p: p.cycle_seat(self.seat)),
            size_hint_x=None,
            width=200,
            font_size=theme.FONT_SMALL + 1,
        )

    def show(self, player: PlayerRow) -> None:
        self.seat = player.seat
        self.swatch.colour = theme.rgb_to_rgba(player.colour)
        if self.name.text != player.name:
            self.name.text = player.name
        self.up.disabled = player.seat == 0
        self.remove.disabled = not player.can_remove
        self.who.text = player.seat_text
        self.who.role = "normal" if player.seat_text == "Person" else "accent"
        who = [self.who] if player.can_companion else []
        show_children(self.row, [self.swatch, self.name, *who, self.up, self.remove])


class SetupScreen(KioskScreen):
    """Built on entering (one game's players and options), updated in place on each tap,
    and dropped on leaving (its ≈190 widgets; see :meth:`on_leave`)."""

    presenter: SetupPresenter | None = None
    _updating = False

    def on_kv_post(self, base_widget: Widget) -> None:
        self._more = Clock.create_trigger(self._make_more, 0)
        self._body_height = 0.0
        self.ids.body.bind(height=self._keep_top)
        self._drop()

    def _keep_top(self, _body: object, height: float) -> None:
        """The list grew or shrank (a description or "More rules" opened, a player
        added): what shows at the top of the window stays there, as on paper."""
        scroll = self.ids.scroll
        old = self._body_height
        self._body_height = height
        if old <= scroll.height or height <= scroll.height:
            return
        top = (1 - scroll.scroll_y) * (old - scroll.height)
        scroll.scroll_y = max(0.0, min(1.0, 1 - top / (height - scroll.height)))

    def _drop(self) -> None:
        self._rows: WidgetPool[PlayerRowView] | None = None
        self._options: dict[object, OptionBox] = {}
        self._fixed: dict[str, Widget] = {}
        self._shown: tuple[SetupView, list[Widget]] | None = None  # the view, what precedes options

    @property
    def building(self) -> bool:
        """Whether option boxes are still to be made (in the frame after the first)."""
        return bool(self._more.is_triggered)

    def bind_presenter(self, presenter: SetupPresenter) -> None:
        self.presenter = presenter
        self.ids.scroll.scroll_y = 1
        self._options = {}  # another game: other options
        self.refresh()

    def on_leave(self, *_args: object) -> None:
        self.drop_widgets()

    def drop_widgets(self) -> None:
        """Drop the ≈190 widgets and their textures (made again on the next visit); the
        kiosk hands the freed memory back once the window is still (kiosk/memory.py)."""
        self._more.cancel()
        self.ids.body.clear_widgets()
        self._drop()

    def do(self, change: Callable[[SetupPresenter], object]) -> None:
        """Make ``change`` to the presenter (one of its methods) and show the result."""
        if self.presenter is not None:
            change(self.presenter)
        self.refresh()

    def name_focused(self, field: NameInput, focused: bool) -> None:
        """A name field took the focus: once the docked keyboard is up (the next frame),
        the list gets the keyboard's height of room below and the field is scrolled
        above the keyboard; the room goes when the field lets go."""
        if focused:
            Clock.schedule_once(lambda _dt: self._clear_keyboard(field), 0)
        elif not any(row.name.focus for row in self._row_views()):
            self.ids.body.padding = BODY_PADDING

    def _row_views(self) -> list[PlayerRowView]:
        return [] if self._rows is None else list(self._rows.widgets)

    def _clear_keyboard(self, field: NameInput) -> None:
        top = keyboard_top(Window)
        if not field.focus or top <= 0 or field.get_root_window() is None:
            return
        left, top_pad, right, _bottom = BODY_PADDING
        self.ids.body.padding = (left, top_pad, right, top)
        self.ids.body.do_layout()
        self.ids.scroll.update_from_scroll()
        lift_above_keyboard(self.ids.scroll, field, top)

    def rename(self, seat: int, name: str) -> None:
        if self.presenter is not None and not self._updating:
            self.presenter.rename(seat, name)

    def refresh(self) -> None:
        if self.presenter is not None:
            self.show(self.presenter.view())

    def _label(self, key: str, height: int) -> KLabel:
        label = self._fixed.get(key)
        if label is None:
            label = self._fixed[key] = KLabel(size_hint_y=None, height=height, color=theme.TEXT_DIM)
        return label

    def _switch(
        self, key: str, toggle: Callable[[SetupPresenter], None], on: bool, name: str, what: str
    ) -> KButton:
        """A whole-width on/off button (made once, as ``key``) that calls ``toggle``."""
        switch = self._fixed.get(key)
        if switch is None:
            switch = self._fixed[key] = button(
                "", lambda: self.do(toggle), size_hint_y=None, height=theme.BUTTON_HEIGHT
            )
        switch.text = f"{name}: {'on' if on else 'off'}\n{what}"
        switch.role = "accent" if on else "normal"
        return switch

    def show(self, view: SetupView) -> None:
        self.ids.title.text = view.title
        banner = self.ids.banner
        banner.text = view.banner.text if view.banner else ""
        banner.height = 52 if view.banner else 0
        banner.opacity = 1 if view.banner else 0
        scroll_y = self.ids.scroll.scroll_y
        if self._rows is None:
            self._rows = WidgetPool(None, lambda: PlayerRowView(self))
        teach = self._switch(
            "teach",
            SetupPresenter.toggle_teach,
            view.teach,
            "Teach me the rules",
            "A pause at each rule the first time it matters",
        )
        guided = self._switch(
            "guided",
            SetupPresenter.toggle_guided,
            view.guided,
            "Guided setup",
            "The table's setup step by step, on the lights too",
        )
        players = self._label("players", 34)
        players.text = f"Players ({view.player_hint})"
        shown: list[Widget] = [teach, guided, players]
        self._updating = True  # names set here are the presenter's own
        try:
            for row, player in zip(self._rows.show(len(view.players)), view.players, strict=True):
                row.show(player)
                shown.append(row.row)
        finally:
            self._updating = False
        if view.can_add_player:
            add = self._fixed.get("add")
            if add is None:
                add = self._fixed["add"] = button(
                    "+ Add player",
                    lambda: self.do(SetupPresenter.add_player),
                    size_hint_y=None,
                    height=ROW,
                )
            shown.append(add)
        self._shown = (view, shown)
        self._place_options(view, shown, update=True, limit=FIRST_FRAME_OPTIONS)
        self.ids.scroll.scroll_y = scroll_y

    def _fold(self, view: SetupView) -> BoxLayout:
        """The "More rules" row: opens or folds the house rules, says whether they are as
        printed, and (when some are changed) a button that sets them back."""
        row = self._fixed.get("fold")
        if row is None:
            row = self._fixed["fold"] = BoxLayout(
                size_hint_y=None, height=ROW, spacing=theme.SPACING
            )
            self._fixed["more"] = button("", lambda: self.do(SetupPresenter.toggle_more))
            self._fixed["printed"] = button(
                "Rules as printed",
                lambda: self.do(SetupPresenter.as_printed),
                size_hint_x=None,
                width=230,
            )
        more, printed = self._fixed["more"], self._fixed["printed"]
        more.text = view.more_text
        more.role = "accent" if view.more_open else "normal"
        show_children(row, [more, printed] if view.house_rules_changed else [more])
        return row

    def _heading(self, key: str, title: str) -> object:
        label = self._label(f"group-{key}", 40)
        label.text = title
        label.bold = True
        return label

    def _make_more(self, _dt: float) -> None:
        """The option boxes the frame that opened Setup left to make."""
        if self._shown is not None:
            self._place_options(*self._shown, update=False, limit=None)

    def _place_options(
        self, view: SetupView, before: list[Widget], *, update: bool, limit: int | None
    ) -> None:
        """Show ``before`` then the options under their groups' headings, the house
        rules under "More rules" when it is open, making at most ``limit`` new option
        boxes (the rest in the next frame); ``update``: show each box's values anew."""
        shown = list(before)
        made = 0
        groups: list[OptionGroupView | None] = list(view.groups)
        if view.more:
            groups.append(None)  # the "More rules" row
            if view.more_open:
                groups.extend(view.more)
        for group in groups:
            if group is None:
                shown.append(self._fold(view))
                continue
            shown.append(self._heading(group.key, group.title))
            for option in group.options:
                shape = _option_shape(option)
                box = self._options.get(shape)
                if box is None:
                    if made == limit:
                        self._more()
                        continue
                    box = self._options[shape] = OptionBox(self, option)
                    made += 1
                    box.show(option)
                elif update:
                    box.show(option)
                shown.append(box.box)
        show_children(self.ids.body, shown)

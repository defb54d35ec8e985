"""Driving the real Kivy kiosk in a test: starting a game, tapping cells and actions,
filling forms, playing random moves, photographing and checking what a screen shows
(texts that do not fit, widgets off screen or too small to touch).

Imports Kivy: only the kiosk tests use it, after tests/kiosk/conftest.py set Kivy up."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from companion.bot import RandomBot
from companion.games import GAME_MODULES
from kiosk.app import Kiosk
from kiosk.theme import HEIGHT, TOUCH_MIN, WIDTH
from tests.helpers.kivy_internals import wrapped_lines
from tests.kiosk.helpers import screenshot_dir
from tests.kiosk.ui import (
    buttons,
    find_button,
    frames,
    laid_out,
    open_kiosk,
    tap,
    tap_at,
    tap_button,
)


def shoot(kiosk: Kiosk, name: str) -> Path:
    """Lay out, check the screen, and save it."""
    frames(3)
    check_layout(kiosk)
    path = IMAGES / f"screen-{name}.png"
    kiosk.manager.export_to_png(str(path))
    assert path.stat().st_size > 5000, "blank screenshot"
    return path


def play_randomly(kiosk: Kiosk, count: int, seed: int = 3) -> None:
    play = kiosk.play
    assert play is not None
    bot = RandomBot(seed)
    for _ in range(count):
        if play.session.outcome is not None:
            return
        action = bot.choose(play.rules, play.state)
        assert action is not None
        play.submit(action)
        while play.fix.step is not None:
            play.fix.next()


def advance_to(kiosk: Kiosk, phase: str, bot_seed: int = 8) -> None:
    play = kiosk.play
    assert play is not None
    bot = RandomBot(bot_seed)
    for _ in range(300):
        if getattr(play.state, "phase", None) == phase and play.fix.step is None:
            return
        while play.fix.step is not None:
            play.fix.next()
        play.submit(bot.choose(play.rules, play.state))
    pytest.fail(f"never reached {phase}")


def tap_cell(kiosk: Kiosk, cell: str) -> None:
    board = kiosk.play_screen.board
    assert board is not None
    frames(2)
    tap_at(*board.cell_centre(cell))


def started_kiosk(tmp_path: Path, game: str, names: list[str], seed: int = 3) -> Kiosk:
    kiosk = open_kiosk(tmp_path, seed=seed)
    kiosk.open_setup(game)
    assert kiosk.setup is not None
    kiosk.setup.names[:] = names
    kiosk.start_game()
    return kiosk


def start(kiosk: Kiosk, title: str) -> None:
    tap_button(kiosk, title)
    assert kiosk.manager.current == "setup"
    tap_button(kiosk, "Start game")
    assert kiosk.manager.current == "play"


def tap_action(kiosk: Kiosk, label: str, index: int | None = None) -> None:
    """Scroll the action menu until the row ``label`` shows, as a finger does, and tap it
    (``index``: the row of that action in the menu, where several say the same words).

    The menu is a RecycleView: only the rows on screen exist as buttons.
    """
    actions = kiosk.play_screen.actions
    actions.scroll_y = 1.0
    frames(1)
    for _ in range(100):
        found = [
            b
            for b in buttons(kiosk)
            if b.text == label and (index is None or getattr(b, "index", None) == index)
        ]
        if found:
            tap(found[0])
            return
        if actions.scroll_y <= 0:
            break
        span = max(1.0, actions.layout_manager.height - actions.height)
        actions.scroll_y = max(0.0, actions.scroll_y - 0.8 * actions.height / span)
        frames(1)
    raise AssertionError(f"no action {label!r} in the menu")


def play_by_touch(kiosk: Kiosk, payload: dict[str, Any]) -> None:
    """Press what a player presses to play ``payload`` on the current play screen."""
    play = kiosk.play
    assert play is not None
    view = play.view()
    while view.fix is not None:  # the table must match before the next move
        assert find_button(kiosk, "Done", exact=True)
        tap_button(kiosk, "Done", exact=True)
        view = play.view()
    kind = payload["type"]
    if view.form is not None and view.form.type != kind:
        tap_button(kiosk, "Cancel", exact=True)
        view = play.view()
    if view.form is None:
        group = next(g for g in view.groups if g.key == kind)
        if group.plays and group.payload == payload:  # a group of one action plays it
            tap_button(kiosk, group.button_text, exact=True)
            return
        if view.group != kind:
            tap_button(kiosk, group.button_text, exact=True)
            view = play.view()
        # The menu names the cells as people read them (an island's space labels).
        label = play.names().text(play.queries.kept.label(play.state, payload))
        row = next((i for i, a in enumerate(view.actions) if a.payload == payload), None)
        if row is not None and view.actions[row].label == label:
            tap_action(kiosk, label, row)
            return
        tap_button(kiosk, view.form_label)
        view = play.view()
    assert view.form is not None and view.form.type == kind
    for field in view.form.fields:
        target = value_at(payload, field.path)
        for _ in range(40):
            current = next(f for f in play.view().form.fields if f.key == field.key)  # type: ignore[union-attr]
            if current.value == target:
                break
            if current.kind == "stepper":
                row_buttons = field_buttons(kiosk, current.label)
                tap(row_buttons["+" if (current.value or -1) < target else "−"])
            elif current.kind == "switch":
                tap(field_buttons(kiosk, current.label)[current.value_text])
            else:
                index = current.choices.index(target)
                text = current.choice_labels[index] if current.choice_labels else str(target)
                tap(field_buttons(kiosk, current.label)[text])
        else:
            pytest.fail(f"could not set {field.key} to {target}")
    tap_button(kiosk, "Submit", exact=True)


def cut_texts(kiosk: Kiosk, where: str) -> list[str]:
    """Every visible text on the current screen that does not fit its widget, once the
    screen is laid out (the window need not be drawn for that)."""
    laid_out(2)
    problems: list[str] = []
    for widget in kiosk.manager.current_screen.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text.strip() or not shown(widget):
            continue
        name = f"{where}: {widget.text[:70]!r}"
        if "…" in widget.text:
            problems.append(f"{name} is shortened")
            continue
        width, height = widget.text_size
        if width is None:  # not wrapped: its one line must fit its width
            widget.texture_update()
            if widget.texture_size[0] > widget.width + 2:
                problems.append(f"{name} is wider than its {widget.width:.0f} px")
        else:
            needed, lines = needed_height(widget, width)
            room = height if height is not None else widget.height
            allowed = widget.max_lines or lines
            if lines > allowed or needed > room + 2:
                problems.append(
                    f"{name} needs {lines} lines, {needed:.0f} px; has {room:.0f} px"
                    + (f", {allowed} lines" if widget.max_lines else "")
                )
        rect = clip(widget)
        if rect is not None and (
            rect[0] < -1 or rect[2] > WIDTH + 1 or rect[1] < -1 or rect[3] > HEIGHT + 1
        ):
            problems.append(f"{name} lies outside the window")
    return problems + overfull_columns(kiosk, where)


IMAGES = screenshot_dir()


def check_layout(kiosk: Kiosk) -> None:
    screen = kiosk.manager.current_screen
    for widget in screen.walk(restrict=True):
        if not visible(widget) or widget.height == 0:
            continue
        if isinstance(widget, Button):
            assert widget.width >= TOUCH_MIN and widget.height >= TOUCH_MIN, (
                f"{widget.text!r} is only {widget.width:.0f}×{widget.height:.0f} px"
            )
        if isinstance(widget, Button | Label) and not in_scroll(widget):
            x, y = widget.to_window(*widget.pos)
            assert x >= -1 and x + widget.width <= WIDTH + 1, f"{widget.text!r} sticks out"
            assert y >= -1 and y + widget.height <= HEIGHT + 1, f"{widget.text!r} sticks out"


def value_at(payload: dict[str, Any], path: tuple[Any, ...]) -> Any:
    node: Any = payload
    for part in path:
        node = node[part]
    return node


def field_buttons(kiosk: Kiosk, label: str) -> dict[str, Any]:
    from kiosk.widgets.basic import KLabel

    for widget in kiosk.play_screen.ids.act.walk(restrict=True):
        if isinstance(widget, KLabel) and widget.text == label and widget.parent is not None:
            return {c.text: c for c in widget.parent.children if hasattr(c, "on_release")}
    raise AssertionError(f"no form row {label!r}")


def needed_height(label: Any, width: float) -> tuple[float, int]:
    """The height and lines ``label``'s whole text takes when wrapped at ``width``."""
    core = CoreLabel(
        text=label.text,
        font_size=label.font_size,
        font_name=label.font_name,
        bold=label.bold,
        text_size=(width, None),
        halign=label.halign,
        padding=label.padding,
        line_height=label.line_height,
    )
    core.refresh()
    return float(core.texture.height), wrapped_lines(core)


def overfull_columns(kiosk: Kiosk, where: str) -> list[str]:
    """Every shown column of fixed-height rows whose rows need more height than it has:
    they would spill over what lies above it (the header) or below it."""
    problems = []
    for widget in kiosk.manager.current_screen.walk(restrict=True):
        rows = widget.children
        if (
            not isinstance(widget, BoxLayout)
            or widget.orientation != "vertical"
            or not rows
            or not shown(widget)
            or any(row.size_hint_y is not None for row in rows)
        ):
            continue
        padding = widget.padding[1] + widget.padding[3]
        need = sum(row.height for row in rows) + widget.spacing * (len(rows) - 1) + padding
        if need > widget.height + 1:
            texts = [r.text[:30] for r in rows if isinstance(r, Label)]
            problems.append(
                f"{where}: a column needs {need:.0f} px, has {widget.height:.0f} px {texts}"
            )
    return problems


REAL_GAMES = tuple(name for name in GAME_MODULES if name != "toy_pig")  # toy: tests only


def shown(widget: Any) -> bool:
    node = widget
    while node is not None:
        if getattr(node, "opacity", 1) == 0 or getattr(node, "height", 1) == 0:
            return False
        parent = getattr(node, "parent", None)
        node = None if parent is node else parent
    return True


def clip(widget: Any) -> Rect | None:
    """The part of ``widget`` on screen: clipped by its scroll views, None if none."""
    x, y = widget.to_window(*widget.pos)
    rect = (x, y, x + widget.width, y + widget.height)
    node = widget.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            sx, sy = node.to_window(*node.pos)
            rect = (
                max(rect[0], sx),
                max(rect[1], sy),
                min(rect[2], sx + node.width),
                min(rect[3], sy + node.height),
            )
        node = node.parent
    return rect if rect[2] - rect[0] > 1 and rect[3] - rect[1] > 1 else None


def play_views(kiosk: Kiosk, game: str, moves: int = 96) -> Iterator[str]:
    """Put the play screen in each of its states; yields a name for each.

    Between the states checked the screen is unsubscribed (moves are played headless,
    redrawing after every move would take most of the run) and redrawn before each check.
    """
    play = kiosk.play
    screen = kiosk.play_screen
    assert play is not None
    bot = RandomBot(7)

    def shown(name: str) -> str:
        play.subscribe(screen.refresh)
        screen.refresh()
        return name

    dice_shown = fixes_shown = 0
    for step in range(moves):
        if play.session.outcome is not None:
            yield shown(f"{game} outcome")
            return
        view = play.view()
        if view.fix is not None and fixes_shown < 2:
            fixes_shown += 1
            yield shown(f"{game} fix step")
        if step % 16 == 0:
            yield shown(f"{game} move {step}")
            for group in view.groups[1:3]:
                play.action_menu.choose_group(group.key)
                yield f"{game} move {step} group {group.key}"
                if play.view().formable and play.action_menu.open_form():
                    yield f"{game} move {step} form {group.key}"
                    play.forms.cancel()
        if view.dice is not None and view.dice.faces and dice_shown < 2:
            dice_shown += 1
            yield shown(f"{game} move {step} dice")
        if step == 3:
            play.submit({"type": "no_such_action"})
            yield shown(f"{game} refusal banner")
            play.dismiss_banner()
        play.unsubscribe(screen.refresh)
        while play.fix.step is not None:
            play.fix.next()
        action = bot.choose(play.rules, play.state)
        if action is None:
            break
        play.submit(action)
    play.subscribe(screen.refresh)


def visible(widget: object) -> bool:
    node = widget
    while node is not None:
        if getattr(node, "opacity", 1) == 0:
            return False
        parent = getattr(node, "parent", None)
        node = None if parent is node else parent
    return True


def in_scroll(widget: object) -> bool:
    from kivy.uix.scrollview import ScrollView

    node = getattr(widget, "parent", None)
    while node is not None and node is not getattr(node, "parent", None):
        if isinstance(node, ScrollView):
            return True
        node = getattr(node, "parent", None)
    return False


Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in window coordinates


def drawn_over(board: Any, cell: str) -> tuple[Any, Any]:
    """What the board's canvas draws over ``cell``'s square now: its look layer (ring or
    fill, focus, step number) and its text layer (pieces, levels, an island's marks),
    each None where the cell shows none.

    Found in the canvas by where the square is drawn: each shown cell is drawn as its
    colour, its square or disc (centred on :meth:`BoardWidget.cell_centre`) and then a
    group holding a slot for its look layer and a slot for its text layer.
    """
    cx, cy = board.cell_centre(cell)
    groups = [board.canvas.before]
    while groups:
        children = list(groups.pop().children)
        groups += [child for child in children if type(child).__name__ == "InstructionGroup"]
        for at, shape in enumerate(children):
            if not hasattr(shape, "size") or type(shape).__name__ == "InstructionGroup":
                continue
            (x, y), (width, height) = shape.pos, shape.size
            if abs(x + width / 2 - cx) > 0.5 or abs(y + height / 2 - cy) > 0.5:
                continue
            # The square's group follows it before any other shape (a smooth disc adds
            # instructions of its own; the board's background has a cell's shape next).
            over = None
            for after in children[at + 1 :]:
                if type(after).__name__ == "InstructionGroup":
                    over = after
                    break
                if hasattr(after, "size"):
                    break
            if over is not None and len(over.children) == 2:
                look, texts = over.children
                return (
                    look.children[0] if look.children else None,
                    texts.children[0] if texts.children else None,
                )
    raise KeyError(f"no square drawn for {cell}")


def scheduled_by(owner: object) -> list[Any]:
    """The Kivy clock events due to call one of ``owner``'s methods (what will wake the
    loop for it): each with its ``timeout`` and whether it repeats (``loop``)."""
    from kivy.clock import Clock

    return [
        event
        for event in Clock.get_events()
        if getattr(event.get_callback(), "__self__", None) is owner
    ]

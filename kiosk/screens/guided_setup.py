"""Guided setup: one step of the table's setup at a time, the board lit like the LEDs.

Shown after "Start game" when the setup screen's "Guided setup" is on (and again when a
game whose setup was not finished is resumed). The board on the left shows the same
highlights the LED strip gets; the column on the right says what to do, the rule it
rests on, and offers Back and Done (one tap per step). "Skip setup" goes to play.
"""

from __future__ import annotations

from kivy.uix.widget import Widget

from kiosk.lesson_flow import GuidedStep
from kiosk.presenters.guided_setup import GuidedSetupPresenter
from kiosk.screens import KioskScreen, load_kv
from kiosk.widgets.board import BoardWidget

# This screen's layout: read with its module, when guided setup is first shown.
load_kv("guided_setup.kv")


class GuidedSetupScreen(KioskScreen):
    """Copies the presenter's view into its labels; taps go to ``Kiosk.guide``."""

    presenter: GuidedSetupPresenter | None = None
    board: BoardWidget | None = None

    def on_kv_post(self, base_widget: Widget) -> None:
        self.ids.board_area.bind(height=self._fit_board)

    def bind_presenter(self, presenter: GuidedSetupPresenter) -> None:
        self.presenter = presenter
        self.refresh()

    def do(self, step: GuidedStep) -> None:
        if self.kiosk is not None:
            self.kiosk.guide(step)

    def refresh(self) -> None:
        presenter = self.presenter
        if presenter is None:
            return
        view = presenter.view()
        ids = self.ids
        ids.title.text = view.heading  # "title": the shop's long press for admin too
        ids.progress.text = view.progress
        ids.step_title.text = view.title
        ids.step_text.text = view.text
        ids.ruling.text = f"The rule: {view.ruling}" if view.ruling else ""
        ids.next.text = view.notice or view.next
        ids.back.disabled = not view.can_back
        ids.done.text = view.done_label
        board_view = presenter.board_view()
        area = ids.board_area
        if board_view is None:
            area.clear_widgets()
        else:
            if self.board is None:
                self.board = BoardWidget()
            if self.board.parent is None:
                area.add_widget(self.board)
            self.board.show(board_view)
        self._fit_board()

    def _fit_board(self, *_: object) -> None:
        """A square board as high as the body (card games: no board, the text is wide)."""
        area = self.ids.board_area
        area.width = area.height if area.children else 0

"""Scores: the per-round table, a line chart, the end-of-game summary and the export."""

from __future__ import annotations

from pathlib import Path

from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.scores import ScoresView
from kiosk.screens import KioskScreen, load_kv
from kiosk.widgets import chart  # noqa: F401  (the ScoreChart of this screen's kv rule)
from kiosk.widgets.basic import KLabel, Swatch, WrapLabel
from kiosk.widgets.lists import WidgetPool, show_children
from kiosk.widgets.qr import QrCode, qr_available

# This screen's layout: read with its module, when Scores is first shown (not at launch).
load_kv("scores.kv")


def _cell(text: str, **looks: object) -> dict[str, object]:
    return {"text": text, **looks}


class ScoresScreen(KioskScreen):
    """Its labels are made once and relabelled each time the scores are shown."""

    def on_kv_post(self, base_widget: Widget) -> None:
        self._summary = WidgetPool(self.ids.summary, lambda: WrapLabel())
        # Cells and legend names wrap and grow (a 16-letter name in an 85 px column).
        self._cells = WidgetPool(self.ids.table, lambda: WrapLabel(valign="middle"))
        self._swatches = WidgetPool(None, lambda: Swatch(size_hint_x=None, width=18))
        self._names = WidgetPool(None, self._legend_name)

    def on_leave(self, *_args: object) -> None:
        """The enlarged QR code closes with this screen (Home, the demo, a game)."""
        qr = self.ids.get("qr")
        if isinstance(qr, QrCode):
            qr.close_enlarged()

    @staticmethod
    def _legend_name() -> KLabel:
        name = KLabel(font_size=theme.FONT_SMALL)
        name.shorten = False
        name.max_lines = 2
        return name

    def show(self, view: ScoresView) -> None:
        ids = self.ids
        ids.title.text = view.title
        ids.measure.text = f"{view.measure} by round"
        for i, (label, line) in enumerate(
            zip(self._summary.show(len(view.summary)), view.summary, strict=True)
        ):
            label.text = line
            label.font_size = theme.FONT_LARGE if i == 0 else theme.FONT_BODY
            label.bold = i == 0
        self._table(view)
        ids.chart.show(view.series)
        swatches = self._swatches.show(len(view.series))
        names = self._names.show(len(view.series))
        legend: list[Widget] = []
        for swatch, name, series in zip(swatches, names, view.series, strict=True):
            swatch.colour = theme.rgb_to_rgba(series.colour)
            name.text = series.name
            legend += [swatch, name]
        show_children(ids.legend, legend)
        info = view.export_error or ""
        if view.export_path and not view.export_error:
            info = f"Saved exports/{Path(view.export_path).name}"
            if view.export_link and not qr_available():
                info += "\nBG Stats link ready (a QR code needs the 'segno' package)."
        ids.export_info.text = info
        ids.export_info.color = theme.WARN if view.export_error else theme.TEXT_DIM
        qr = self.ids.get("qr")
        if isinstance(qr, QrCode):
            qr.show(view.export_link)

    def _table(self, view: ScoresView) -> None:
        blank = [_cell("") for _ in view.columns]
        cells = [
            _cell(view.measure, color=theme.TEXT_DIM, font_size=theme.FONT_SMALL),
            *(
                _cell(name, bold=True, halign="center", font_size=theme.FONT_SMALL)
                for name in view.columns
            ),
        ]
        if view.hidden_rows:
            cells.append(
                _cell(
                    f"(+{view.hidden_rows} earlier)",
                    font_size=theme.FONT_SMALL,
                    color=theme.TEXT_DIM,
                )
            )
            cells += blank
        for label, values in view.rows:
            cells.append(_cell(label, font_size=theme.FONT_SMALL, color=theme.TEXT_DIM))
            cells += [_cell(value, halign="center") for value in values]
        if not view.rows:
            cells.append(_cell("No rounds scored yet."))
            cells += blank
        table = self.ids.table
        table.cols = 1 + len(view.columns)
        table.cols_minimum = {0: 170}
        for widget, cell in zip(self._cells.show(len(cells)), cells, strict=True):
            widget.text = cell["text"]
            widget.color = cell.get("color", theme.TEXT)
            widget.font_size = cell.get("font_size", theme.FONT_BODY)
            widget.bold = cell.get("bold", False)
            widget.halign = cell.get("halign", "left")

"""Scores: the per-round table, a line chart, the end-of-game summary and the export."""

from __future__ import annotations

from pathlib import Path

from kiosk import theme
from kiosk.presenters.scores import ScoresView
from kiosk.screens import KioskScreen
from kiosk.widgets.basic import KLabel, Swatch, WrapLabel
from kiosk.widgets.qr import QrCode, qr_available


class ScoresScreen(KioskScreen):
    def show(self, view: ScoresView) -> None:
        ids = self.ids
        ids.title.text = view.title
        ids.measure.text = f"{view.measure} by round"
        summary = ids.summary
        summary.clear_widgets()
        for i, line in enumerate(view.summary):
            summary.add_widget(
                WrapLabel(
                    text=line,
                    font_size=theme.FONT_LARGE if i == 0 else theme.FONT_BODY,
                    bold=i == 0,
                )
            )
        table = ids.table
        table.clear_widgets()
        table.cols = 1 + len(view.columns)
        table.cols_minimum = {0: 170}
        table.add_widget(
            KLabel(
                text=view.measure,
                size_hint_y=None,
                height=32,
                color=theme.TEXT_DIM,
                font_size=theme.FONT_SMALL,
            )
        )
        for name in view.columns:
            table.add_widget(
                KLabel(
                    text=name,
                    size_hint_y=None,
                    height=32,
                    bold=True,
                    halign="center",
                    font_size=theme.FONT_SMALL,
                )
            )
        if view.hidden_rows:
            table.add_widget(
                KLabel(
                    text=f"(+{view.hidden_rows} earlier)",
                    size_hint_y=None,
                    height=30,
                    font_size=theme.FONT_SMALL,
                    color=theme.TEXT_DIM,
                )
            )
            for _ in view.columns:
                table.add_widget(KLabel(text="", size_hint_y=None, height=30))
        for label, values in view.rows:
            table.add_widget(
                KLabel(
                    text=label,
                    size_hint_y=None,
                    height=30,
                    font_size=theme.FONT_SMALL,
                    color=theme.TEXT_DIM,
                )
            )
            for value in values:
                table.add_widget(KLabel(text=value, size_hint_y=None, height=30, halign="center"))
        if not view.rows:
            table.add_widget(KLabel(text="No rounds scored yet.", size_hint_y=None, height=30))
            for _ in view.columns:
                table.add_widget(KLabel(text="", size_hint_y=None, height=30))
        ids.chart.show(view.series)
        legend = ids.legend
        legend.clear_widgets()
        for series in view.series:
            legend.add_widget(
                Swatch(colour=theme.rgb_to_rgba(series.colour), size_hint_x=None, width=18)
            )
            legend.add_widget(KLabel(text=series.name, font_size=theme.FONT_SMALL))
        info = ""
        if view.export_path:
            info = f"Saved exports/{Path(view.export_path).name}"
            if view.export_link and not qr_available():
                info += "\nBG Stats link ready (a QR code needs the 'segno' package)."
        ids.export_info.text = info
        qr = self.ids.get("qr")
        if isinstance(qr, QrCode):
            qr.show(view.export_link)

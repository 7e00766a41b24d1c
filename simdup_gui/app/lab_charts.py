"""The accuracy lab's table model and charts, drawn from ``core.presenters.lab`` data in the
current light or dark scheme (``core.presenters.colours``)."""

from __future__ import annotations

from PySide6.QtCharts import (QBarCategoryAxis, QBarSeries, QBarSet, QChart, QChartView,
                              QLineSeries, QLogValueAxis, QValueAxis)
from PySide6.QtCore import QAbstractTableModel, QMargins, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen

from simdup_gui.core.lab.experiment import LabReport
from simdup_gui.core.presenters import colours
from simdup_gui.core.presenters.lab import (CHANCE_FLOOR, COLUMNS, Series, ScoreTable, SizeChart,
                                            headers)

RAW_ROLE = Qt.ItemDataRole.UserRole  # the unformatted number behind a cell
_PEN_STYLES = {"solid": Qt.PenStyle.SolidLine, "dash": Qt.PenStyle.DashLine,
               "dot": Qt.PenStyle.DotLine}


class AccuracyModel(QAbstractTableModel):
    """One row per (bits, k) over a plain list of Scores; the best k per size is bold."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.table = ScoreTable()

    def set_report(self, report: LabReport | None) -> None:
        self.beginResetModel()
        self.table = ScoreTable(report)
        self.endResetModel()

    def score(self, row: int):
        return self.table.rows[row]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.table.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role != Qt.ItemDataRole.DisplayRole or orientation != Qt.Orientation.Horizontal:
            return None
        return headers()[section]

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        if role == RAW_ROLE:
            return self.table.raw(row, col)
        if role == Qt.ItemDataRole.DisplayRole:
            return self.table.text(row, col)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and self.table.is_best(row):
            f = QFont()
            f.setBold(True)
            return f
        if role == Qt.ItemDataRole.BackgroundRole and self.table.drowned(row):
            return QColor(colours.current().drowned_row)
        if role == Qt.ItemDataRole.ForegroundRole and self.table.drowned(row):
            return QColor(colours.current().row_text)  # readable on it, whatever the palette
        return None


def style_chart(chart: QChart) -> None:
    """Qt's light or dark chart theme, as the current scheme is (it recolours the series:
    the lab fills the charts again after)."""
    dark = colours.current().name == "dark"
    chart.setTheme(QChart.ChartTheme.ChartThemeDark if dark else QChart.ChartTheme.ChartThemeLight)
    chart.setBackgroundBrush(QColor(colours.current().chart_bg))
    chart.setBackgroundRoundness(0)


def make_chart(title: str = "") -> QChart:
    c = QChart()
    style_chart(c)
    c.setTitle(title)
    c.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
    c.setMargins(QMargins(4, 4, 4, 4))
    c.setBackgroundRoundness(0)
    return c


def make_view(chart: QChart, min_w: int = 240, min_h: int = 210) -> QChartView:
    v = QChartView(chart)
    v.setRenderHint(QPainter.RenderHint.Antialiasing)
    v.setMinimumSize(min_w, min_h)
    return v


def clear_chart(chart: QChart) -> None:
    chart.removeAllSeries()
    for ax in chart.axes():
        chart.removeAxis(ax)


def _value_axis(lo: float, hi: float, title: str = "", ticks: int = 0,
                fmt: str = "") -> QValueAxis:
    ax = QValueAxis()
    ax.setRange(lo, hi)
    if title:
        ax.setTitleText(title)
    if ticks:
        ax.setTickCount(ticks)
    if fmt:
        ax.setLabelFormat(fmt)
    return ax


def _line(s: Series) -> QLineSeries:
    ser = QLineSeries()
    ser.setName(s.name)
    pen = QPen(QColor(s.color))
    pen.setWidth(s.width)
    pen.setStyle(_PEN_STYLES[s.style])
    ser.setPen(pen)
    for x, y in s.points:
        ser.append(x, y)
    return ser


def fill_size_chart(chart: QChart, data: SizeChart, k_title: str, chance_title: str) -> None:
    """P, R and F1 against k (left axis), chance matches per file (log, right axis)."""
    ax_k = _value_axis(*data.k_range, title=k_title, ticks=data.k_ticks, fmt="%d")
    ax_v = _value_axis(0, 1.0, ticks=6, fmt="%.1f")
    ax_c = QLogValueAxis()
    ax_c.setTitleText(chance_title)
    ax_c.setRange(CHANCE_FLOOR, data.chance_top)
    ax_c.setLabelFormat("%g")
    ax_c.setBase(10)
    chart.addAxis(ax_k, Qt.AlignmentFlag.AlignBottom)
    chart.addAxis(ax_v, Qt.AlignmentFlag.AlignLeft)
    chart.addAxis(ax_c, Qt.AlignmentFlag.AlignRight)
    for s in data.series:
        ser = _line(s)
        chart.addSeries(ser)
        ser.attachAxis(ax_k)
        ser.attachAxis(ax_c if s.axis == "chance" else ax_v)
    scheme = colours.current()
    chart.setBackgroundBrush(QColor(scheme.drowned_chart if data.drowned else scheme.chart_bg))
    chart.legend().setVisible(False)  # one legend for all four, below them


def fill_bar_chart(chart: QChart, categories: list[str],
                   sets: list[tuple[str, str, list[float]]]) -> None:
    """Bars per category, one set per (name, colour, values); a legend when more than one."""
    series = QBarSeries()
    for name, color, values in sets:
        bs = QBarSet(name)
        bs.setColor(QColor(color))
        for v in values:
            bs.append(v)
        series.append(bs)
    series.setLabelsVisible(len(sets) == 1)  # two sets' labels collide; the headline has them
    series.setLabelsPosition(QBarSeries.LabelsPosition.LabelsOutsideEnd)
    series.setLabelsFormat("@value")
    series.setLabelsPrecision(3)
    chart.legend().setVisible(len(sets) > 1)
    chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
    chart.addSeries(series)
    cats = QBarCategoryAxis()
    cats.append(categories)
    # Laid out first at the view's minimum size, the labels of both axes were elided ("16 ...",
    # "...") and stayed so at full size; they are short, so they are never cut.
    cats.setTruncateLabels(False)
    ax_v = _value_axis(0, 1.1, ticks=12, fmt="%.1f")
    ax_v.setTruncateLabels(False)
    chart.addAxis(cats, Qt.AlignmentFlag.AlignBottom)
    chart.addAxis(ax_v, Qt.AlignmentFlag.AlignLeft)
    series.attachAxis(cats)
    series.attachAxis(ax_v)


def fill_xy_chart(chart: QChart, curves: list[Series], x_title: str, y_title: str) -> None:
    """Curves on 0-1 axes, points shown (precision-recall)."""
    ax_x = _value_axis(0, 1.0, title=x_title)
    ax_y = _value_axis(0, 1.0, title=y_title)
    chart.addAxis(ax_x, Qt.AlignmentFlag.AlignBottom)
    chart.addAxis(ax_y, Qt.AlignmentFlag.AlignLeft)
    for s in curves:
        ser = _line(s)
        ser.setPointsVisible(True)
        chart.addSeries(ser)
        ser.attachAxis(ax_x)
        ser.attachAxis(ax_y)

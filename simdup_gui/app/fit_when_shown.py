"""Columns fitted to new rows when their tab is next shown, not while it is hidden."""

from __future__ import annotations


class FitsWhenShown:
    """A widget (mixed in before its Qt class) whose table's columns are fitted to new rows
    when it is next shown, at once if it is: fitting a hidden tab's columns after every
    scan took the window's thread 13-24 ms on the 768 MB tree (the Problems and Excerpts
    tabs, benchmarks/show_groups.py and gui_stalls.py). ``fit_pending``: new rows not
    fitted to yet."""

    fit_pending = False

    def fitted_table(self):
        """The table whose columns are fitted (the widget itself unless it holds one)."""
        return self

    def fit_when_shown(self) -> None:
        self.fit_pending = True
        if self.isVisible():
            self._fit_now()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if self.fit_pending:
            self._fit_now()

    def _fit_now(self) -> None:
        self.fit_pending = False
        table = self.fitted_table()
        table.resizeColumnsToContents()
        header = table.horizontalHeader()
        if header.stretchLastSection():  # fitted on show, the last column kept its fitted
            header.setStretchLastSection(False)  # width and no longer reached the table's
            header.setStretchLastSection(True)  # right edge: stretched again

"""Lists that wrap between their entries, never inside one: hands, belts, tableaux and announcements.

Rich wraps text at spaces, so ``salmon nigiri`` or ``[3] maki 2`` could be cut across two lines of a
narrow table column and read as two things. :class:`Entries` tells Rich's table layout the widest entry
(the least a column may get) and the whole list (the most it wants), then packs whole entries into
lines of whatever width it is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text


def as_text(item: str | Text) -> Text:
    """Returns ``item`` as a :class:`Text`; plain strings are taken literally (no markup)."""
    return item if isinstance(item, Text) else Text(item)


def pack(items: Sequence[Text], width: int, sep: str, prefix: Text | None = None) -> list[Text]:
    """Packs ``items`` into lines of at most ``width`` cells, breaking only between items.

    An item wider than ``width`` gets a line of its own (the terminal then has to cut it: nothing fits).
    Continuation lines are indented under the first item when a prefix leaves room for it and for the
    widest item (cells, so a Chinese character counts two).
    """
    lines: list[Text] = []
    line = prefix.copy() if prefix is not None else Text()
    indent = prefix.cell_len if prefix is not None else 0
    if indent > width // 2 or any(item.cell_len > width - indent for item in items):
        indent = 0  # a long prefix (``Ход 9 (последняя карта): ``) must not squeeze an entry onto two lines
    start = line.cell_len
    mark = sep.rstrip()  # ends a line that the list goes on after, so it reads as unfinished
    for n, item in enumerate(items):
        fresh = line.cell_len == start
        # room for this item, and for the mark after it unless it is the last one
        need = item.cell_len + (0 if fresh else len(sep)) + (len(mark) if n < len(items) - 1 else 0)
        if not fresh and line.cell_len + need > width:
            line.append(mark)
            lines.append(line)
            line = Text(" " * indent)
            start = indent
            fresh = True
        elif fresh and start > indent and start + item.cell_len > width:
            lines.append(line)  # the prefix alone: the first entry does not fit after it
            line = Text(" " * indent)
            start = indent
        if not fresh:
            line.append(sep)
        line.append_text(item)
    if line.cell_len > start or not lines:
        lines.append(line)
    return lines


class Entries:
    """A list of entries (strings or :class:`Text`) that Rich lays out without splitting an entry.

    ``sep`` goes between entries on a line; ``prefix`` (e.g. ``"Your hand: "``) starts the first line
    and sets the indent of the others; ``empty`` is shown for an empty list.
    """

    def __init__(
        self,
        entries: Iterable[str | Text],
        *,
        sep: str = ", ",
        prefix: str | Text | None = None,
        empty: str = "—",
    ) -> None:
        self.entries = [as_text(e) for e in entries]
        self.sep = sep
        self.prefix = as_text(prefix) if prefix is not None else None
        self.empty = empty

    def _items(self) -> list[Text]:
        return self.entries or [Text(self.empty, style="dim")]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        items = self._items()
        head = self.prefix.cell_len if self.prefix is not None else 0
        widest = max(i.cell_len for i in items)
        total = head + sum(i.cell_len for i in items) + len(self.sep) * (len(items) - 1)
        return Measurement(min(widest + (head if head <= 16 else 0), options.max_width), total).clamp(
            max_width=options.max_width
        )

    def lines(self, width: int) -> list[Text]:
        """Returns the packed lines for ``width`` cells (what is printed)."""
        return pack(self._items(), max(width, 1), self.sep, self.prefix)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        out = Text("\n").join(self.lines(options.max_width))
        out.overflow = "fold"  # only an entry wider than the whole width is ever cut
        yield out

"""A small SVG writer for the printable sheets (render/print_tomb.py, print_treasure.py).

Why our own and so small: the sheets use a handful of elements (rect, line, circle,
path, polygon, text, g), every one with attributes a test reads back (``data-square``),
and the same text must convert cleanly to PDF (render/pdf.py, through svglib), so the
writer sticks to the plain SVG 1.1 that svglib draws: no CSS, no patterns, no filters,
no external reference of any kind (the sheet makes no request elsewhere).

Units are PostScript points (1/72 inch), the PDF's own, so a page of ``width`` by
``height`` points prints at exactly that size.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final
from xml.sax.saxutils import escape, quoteattr

#: Paper sizes in points (ISO 216 A4, US Letter), width by height, portrait.
PAPERS: Final = {"a4": (595.276, 841.89), "letter": (612.0, 792.0)}
#: Bitstream Vera Sans is what the PDF embeds (it ships with ReportLab, render/pdf.py);
#: DejaVu Sans is its metric twin in most systems' browsers.
FONT: Final = "Bitstream Vera Sans, DejaVu Sans, Verdana, sans-serif"
INK: Final = "#000000"

Attr = str | float | int | None


def _num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros (short, stable text)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attrs(attrs: dict[str, Attr]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        text = _num(value) if isinstance(value, float) else str(value)
        parts.append(f" {key.rstrip('_').replace('_', '-')}={quoteattr(text)}")
    return "".join(parts)


@dataclass
class Svg:
    """Elements appended in drawing order; ``group`` nests them.

    Attribute names are written with ``_`` for ``-`` (``stroke_width``), and a trailing
    ``_`` is dropped (``class_``)."""

    parts: list[str] = field(default_factory=list)

    def add(self, tag: str, content: str | None = None, /, **attrs: Attr) -> None:
        """One element; ``content`` is its text, escaped."""
        if content is None:
            self.parts.append(f"<{tag}{_attrs(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{_attrs(attrs)}>{escape(content)}</{tag}>")

    def open(self, tag: str = "g", **attrs: Attr) -> None:
        self.parts.append(f"<{tag}{_attrs(attrs)}>")

    def close(self, tag: str = "g") -> None:
        self.parts.append(f"</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, **attrs: Attr) -> None:
        attrs.setdefault("fill", "none")
        self.add("rect", x=float(x), y=float(y), width=float(w), height=float(h), **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 1.0, **attrs: Attr) -> None:
        attrs.setdefault("stroke", INK)
        self.add("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), stroke_width=float(width), **attrs)

    def circle(self, cx: float, cy: float, r: float, **attrs: Attr) -> None:
        attrs.setdefault("fill", "none")
        self.add("circle", cx=float(cx), cy=float(cy), r=float(r), **attrs)

    def path(self, d: str, **attrs: Attr) -> None:
        attrs.setdefault("fill", "none")
        self.add("path", d=d, **attrs)

    def polygon(self, points: Iterable[tuple[float, float]], **attrs: Attr) -> None:
        attrs.setdefault("fill", "none")
        self.add("polygon", points=" ".join(f"{_num(x)},{_num(y)}" for x, y in points), **attrs)

    def text(self, x: float, y: float, words: str, size: float = 8.0, *, bold: bool = False,
             anchor: str = "start", **attrs: Attr) -> None:
        """Text with its baseline at ``y``; ``anchor`` is start, middle or end."""
        attrs.setdefault("fill", INK)
        self.add("text", words, x=float(x), y=float(y), font_family=FONT, font_size=float(size),
                 font_weight="bold" if bold else None, text_anchor=None if anchor == "start" else anchor, **attrs)

    def extend(self, other: Svg) -> None:
        self.parts.extend(other.parts)


def document(width: float, height: float, body: Svg, title: str, **attrs: Attr) -> str:
    """A standalone SVG document of ``width`` by ``height`` points."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(width)}pt" '
            f'height="{_num(height)}pt" viewBox="0 0 {_num(width)} {_num(height)}"{_attrs(attrs)}>')
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', head, f"<title>{escape(title)}</title>",
                      f'<rect x="0" y="0" width="{_num(width)}" height="{_num(height)}" fill="#ffffff"/>',
                      *body.parts, "</svg>", ""])


__all__ = ["FONT", "INK", "PAPERS", "Svg", "document"]

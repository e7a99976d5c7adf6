"""Printable SVG pages to one vector PDF, with its font embedded.

Why svglib and ReportLab: ReportLab is the long-kept pure-Python PDF writer, and svglib
turns an SVG into ReportLab's own drawing, line for line, so the PDF is the very sheet
the SVG shows (no second drawing to keep in step) and stays vector: crisp at any size.

The font is Bitstream Vera Sans, which ships inside ReportLab (``reportlab/fonts``,
under the Bitstream Vera licence, which allows embedding and redistribution); it is
embedded in the PDF as a subset, so the sheet prints the same on any printer. PDF's
standard Helvetica would not be embedded. Nothing is fetched: the SVG refers to no file,
and every family the sheets name is registered here, so svglib never asks fontconfig.

Both libraries are the ``print`` extra (``pip install 'mummy[print]'``); without them
:func:`pdf_document` raises :class:`PrintUnavailable` saying so.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Final

from mummy import __version__

#: The sheets' font family (render/svg.py FONT, first name) and ReportLab's names for it.
FAMILY: Final = "Bitstream Vera Sans"
FONT_FILES: Final = {"normal": ("MummyVera", "Vera.ttf"), "bold": ("MummyVera-Bold", "VeraBd.ttf")}


class PrintUnavailable(RuntimeError):
    """The PDF libraries are not installed (the ``print`` extra)."""


def _libraries() -> tuple[Any, Any, Any, Any]:
    try:
        import reportlab  # type: ignore[import-untyped]
        from reportlab.graphics import renderPDF  # type: ignore[import-untyped]
        from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]
        from svglib.svglib import svg2rlg
    except ImportError:
        raise PrintUnavailable("PDF output needs svglib and ReportLab: pip install 'mummy[print]' "
                               "(or write an .svg file)") from None
    return reportlab, renderPDF, Canvas, svg2rlg


def font_map() -> Any:
    """svglib's font map with the sheets' family bound to ReportLab's bundled Vera TTFs."""
    reportlab, *_ = _libraries()
    from svglib.fonts import FontMap

    fonts = Path(reportlab.__file__).parent / "fonts"
    fmap = FontMap()
    for weight, (name, file) in FONT_FILES.items():
        registered, _ = fmap.register_font(FAMILY, str(fonts / file), weight=weight, rlgFontName=name)
        if registered is None:
            raise PrintUnavailable(f"ReportLab's font {file} could not be loaded from {fonts}")
    return fmap


def pdf_document(pages: list[str], title: str) -> bytes:
    """The PDF of ``pages`` (SVG documents, one a page, each page the size of its SVG)."""
    _, render_pdf, canvas_class, svg2rlg = _libraries()
    fmap = font_map()
    out = io.BytesIO()
    # The canvas's first font is the sheets' own, not Helvetica, which would be named unembedded.
    canvas = canvas_class(out, invariant=1, pageCompression=1, initialFontName=FONT_FILES["normal"][0])
    canvas.setTitle(title)
    canvas.setAuthor("mummy")
    canvas.setCreator(f"mummy {__version__} (svglib, ReportLab)")
    canvas.setSubject("A printable sheet for paper play")
    for page in pages:
        drawing = svg2rlg(io.BytesIO(page.encode("utf-8")), font_map=fmap)
        if drawing is None:
            raise ValueError("svglib could not read a page's SVG")
        canvas.setPageSize((drawing.width, drawing.height))
        drawing.initialFontName = FONT_FILES["normal"][0]  # not Helvetica, even where unused
        render_pdf.draw(drawing, canvas, 0, 0)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


__all__ = ["FAMILY", "PrintUnavailable", "font_map", "pdf_document"]

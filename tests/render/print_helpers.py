"""Reading printed sheets back for the tests: SVG as XML, PDF with pypdf, and the SVG as
Chromium draws it (for the test that compares the drawing itself with the map)."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, need_browser

SVG_NS = "{http://www.w3.org/2000/svg}"


def parse_svg(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


def tag(element: ET.Element) -> str:
    return element.tag.removeprefix(SVG_NS)


def with_attr(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in e.attrib]


def points(value: str) -> float:
    """An SVG length in points ('595.28pt')."""
    assert value.endswith("pt"), value
    return float(value[:-2])


def read_pdf(data: bytes) -> Any:
    pypdf = pytest.importorskip("pypdf")
    return pypdf.PdfReader(io.BytesIO(data))


def unembedded_fonts(page: Any) -> list[str]:
    """The fonts a PDF page uses without their program inside the file."""
    missing = []
    fonts = page["/Resources"].get("/Font", {})
    for font in fonts.values():
        font = font.get_object()
        descriptors = [d.get_object()["/FontDescriptor"] for d in font.get("/DescendantFonts", [])]
        if "/FontDescriptor" in font:
            descriptors.append(font["/FontDescriptor"])
        if not descriptors or not all(any(k in d.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                                      for d in descriptors):
            missing.append(str(font.get("/BaseFont")))
    return missing


def sheet_transform(root: ET.Element) -> tuple[float, float, float]:
    """The Tomb sheet's translate and scale (its group of class 'sheet')."""
    group = next(e for e in root.iter() if e.get("class") == "sheet")
    match = re.fullmatch(r"translate\(([\d.]+) ([\d.]+)\) scale\(([\d.]+)\)", group.get("transform", ""))
    assert match, group.get("transform")
    return float(match[1]), float(match[2]), float(match[3])


def screenshot_svg(svg: str, scale: float) -> bytes:
    """The SVG drawn by Chromium at ``scale`` device pixels per CSS pixel, as PNG bytes;
    skipped without a browser unless MUMMY_REQUIRE_BROWSER=1."""
    need_browser()
    from playwright.sync_api import sync_playwright

    body = svg.split("?>", 1)[1]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(device_scale_factor=scale, viewport={"width": 900, "height": 1200})
            # The sheet asks for nothing: any request is a fault.
            requests: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            page.set_content(f"<html><body style='margin:0'>{body}</body></html>")
            shot = page.screenshot(timeout=120_000)
        finally:
            browser.close()
    assert not [u for u in requests if not u.startswith(("about:", "data:"))], requests
    return shot

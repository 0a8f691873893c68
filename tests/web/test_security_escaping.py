"""Names and other free text are shown as text, never run as markup.

The server renders no HTML with a player's text in it: the pages are the
same static file for everyone, names travel only inside JSON. The page's
scripts build elements with text nodes (``static/dom.js``); the few places
that set HTML are checked here, statically: only the card SVG the page draws
itself and the rules the server renders from the package's Markdown (raw
HTML escaped). A browser check is in tests/e2e/test_security_names.py.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from kartentisch.web.api_catalog import markdown_html

#: Names that would run script if any page put them into HTML (24 characters at most).
XSS_NAMES = [
    "<img src=x onerror=a()>",
    "<script>alert(1)",
    '"><svg onload=alert(1)>',
    "</title><b>x&amp;",
    "';alert(1)//",
]
STATIC = Path(str(files("kartentisch.web") / "static"))
#: Code that turns a string into markup or script, and where it may appear.
DANGEROUS = re.compile(
    r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|"
    r"set(?:Timeout|Interval)\(\s*[\"'`]|\.srcdoc|createContextualFragment|DOMParser"
)
ALLOWED = {
    # h(tag, {html: …}): only for SVG the page draws itself (checked below).
    ("dom.js", 'else if (key === "html") el.innerHTML = value;'),
    # The rules, rendered on the server from the package's Markdown, raw HTML escaped.
    ("rules.js", "article.innerHTML = await response.text();"),
}


def scripts() -> list[Path]:
    found = sorted(STATIC.rglob("*.js"))
    assert len(found) >= 8
    return found


def test_markup_is_set_only_where_it_is_safe() -> None:
    for path in scripts():
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            code = line.strip().split(" // ")[0]
            if DANGEROUS.search(code) and not code.startswith("//"):
                assert (path.name, code) in ALLOWED, f"{path.name}:{number}: {code}"


def test_html_attributes_hold_only_the_pages_own_card_svg() -> None:
    uses = 0
    for path in scripts():
        text = path.read_text("utf-8")
        for match in re.finditer(r"\bhtml:\s*([^,}]*)", text):
            value = match.group(1).strip()
            assert re.match(r"(cardSVG|backSVG)\(", value), f"{path.name}: html: {value}"
            uses += 1
    assert uses >= 5


def test_card_svg_escapes_its_text() -> None:
    cards = (STATIC / "cards.js").read_text("utf-8")
    # Every interpolation into the SVG is a checked rank, suit or number, or escaped.
    for value in re.findall(r"\$\{([^}]*)\}", cards):
        assert not re.search(r"\b(title|code|text|name)\b", value) or value.startswith(
            "escapeXML("
        ), value
    assert "const CODE = /^(10|[2-9JQKA])([CSHD])$/;" in cards


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_card_svg_escapes_hostile_text_when_run(tmp_path: Path) -> None:
    module = tmp_path / "cards.js"
    module.write_text((STATIC / "cards.js").read_text("utf-8"), encoding="utf-8")
    # cards.js takes the court cards' letters from the page's catalog (i18n.js)
    (tmp_path / "i18n.js").write_text((STATIC / "i18n.js").read_text("utf-8"), encoding="utf-8")
    (tmp_path / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    script = (
        f"import {{ cardSVG, backSVG }} from {json.dumps(module.as_uri())};"
        f"const names = {json.dumps(XSS_NAMES)};"
        "console.log(JSON.stringify(["
        "  ...names.map((n) => cardSVG('QC', n)),"
        "  ...names.map((n) => cardSVG(n, n)),"
        "  ...names.map((n) => backSVG(n)),"
        "]));"
    )
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    for svg in json.loads(result.stdout):
        assert svg.startswith("<svg") and svg.endswith("</svg>")
        # Well-formed markup of the card's own elements only; the names are escaped text.
        assert re.fullmatch(r'(<[a-z]+(\s+[A-Za-z:-]+="[^"<>]*")*\s*/?>|</[a-z]+>|[^<>]+)+', svg)
        assert set(re.findall(r"</?([A-Za-z]+)", svg)) <= {
            "svg",
            "title",
            "rect",
            "g",
            "text",
            "path",
        }


def test_toasts_and_banners_are_text() -> None:
    dom = (STATIC / "dom.js").read_text("utf-8")
    assert "box.textContent = text;" in dom
    # h() appends every child that is not a node as a text node.
    assert "document.createTextNode(String(child))" in dom


def test_the_rules_html_escapes_raw_html() -> None:
    html = markdown_html("# Rules\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>")
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;" in html and "&lt;img" in html


def _names_in(value: Any) -> list[str]:
    text = json.dumps(value, ensure_ascii=False)
    return [name for name in XSS_NAMES if name in text]


def test_hostile_names_reach_the_page_only_as_json(client: TestClient) -> None:
    seats = [{"kind": "you"}, *[{"kind": "open"}] * 4, {"kind": "bot"}]
    created = client.post(
        "/api/tables", json={"game": "slobberhannes", "name": XSS_NAMES[0], "seats": seats}
    ).json()
    table_id = created["id"]
    for name in XSS_NAMES[1:]:
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": name})
        assert joined.status_code == 200, joined.text
    # The pages are the same static file whoever plays: no name is ever in them.
    index = (STATIC / "index.html").read_text("utf-8")
    for path in ("/", f"/t/{table_id}", "/rules/slobberhannes"):
        page = client.get(path)
        assert page.text == index
        assert _names_in(page.text) == []
    # The API carries the names exactly, as JSON that no browser renders as a page.
    shown = client.get(f"/api/tables/{table_id}")
    assert shown.headers["content-type"] == "application/json"
    assert shown.headers["x-content-type-options"] == "nosniff"
    assert [s["name"] for s in shown.json()["table"]["seats"]][:5] == XSS_NAMES
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello"})
        state = ws.receive_json()
        assert state["view"]["names"][:5] == XSS_NAMES
    record = client.get(f"/api/tables/{table_id}/record")
    assert record.headers["content-type"] == "application/json"
    assert record.headers["content-disposition"] == (
        f'attachment; filename="slobberhannes-{table_id}.json"'
    )
    assert re.fullmatch(r"[\w-]+", table_id)
    assert set(_names_in(record.json())) == set(XSS_NAMES)
    # Refusals that repeat what was sent are JSON too.
    refused = client.post("/api/tables", json={"game": "<script>alert(1)</script>"})
    assert refused.headers["content-type"] == "application/json"
    assert "<script>" in refused.json()["error"]["message"]


@pytest.fixture
def client(tmp_path: Path) -> Any:
    from kartentisch.web.app import create_app
    from kartentisch.web.tables import ServerSettings

    settings = ServerSettings(bot_delay=3600, grace=None)
    with TestClient(create_app(None, data_dir=tmp_path, settings=settings)) as test_client:
        yield test_client

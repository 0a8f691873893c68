"""Correspondence tables in a real browser: two accounts play a Doppelkopf table over days.

The server runs with its wall clock read from a file (``--clock-file``): the test
moves it a day on by writing the file and sending SIGUSR1, and never waits for
time to pass. Its mails go to an SMTP server in the test (aiosmtpd), which puts
each into a queue. The page's notifications are recorded by a wrapper of
``window.Notification`` added before the page's scripts (the permission granted
to the browser context).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import re
import signal
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from web.servers import ServerProcess
from web.smtp import Inbox, smtp_server

from .conftest import ARTIFACTS, SIZES, WAIT_MS, PageErrors, open_page, shot
from .pages import act, catalog, fill, play_one

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PASSWORD = "a good password"
HOUR = 3600
#: The server's clock when the test starts: days ahead of the browser's, so that a page
#: counting deadlines down from its own clock would show days too many.
T0 = (int(time.time()) // 60 + 3 * 24 * 60) * 60
#: How long a mail is waited for (the server sends it in a task of its own).
MAIL_WAIT = 60.0

#: Before the page's scripts: every notification it shows is kept in ``window.__notes``
#: (title, body, tag), and ``window.__setHidden(true)`` makes ``document.hidden`` true.
RECORD_NOTIFICATIONS = """
(() => {
  window.__notes = [];
  let hidden = false;
  window.__setHidden = (value) => { hidden = Boolean(value); };
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
  const Real = window.Notification;
  if (!Real) return;
  function Recorded(title, options) {
    const { body = "", tag = "" } = options || {};
    window.__notes.push({ title: String(title), body: String(body), tag: String(tag) });
    try {
      return new Real(title, options);
    } catch (error) {
      return {};
    }
  }
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  Recorded.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Recorded;
})();
"""
NOTES = "() => window.__notes"
#: A Doppelkopf page's answer to its declaration question ("Gesund"), or the first
#: answer of a bar: an Armut taken or not, the cards passed in its exchange (a suggestion).
ANSWER = (
    ".dk-question button[data-action=gesund], .dk-actions button.primary:not([disabled]), "
    ".dk-actions button[data-action^='give '], .dk-actions button[data-action^='return ']"
)
#: Each person's address, as a reverse proxy trusted by the server names it: people
#: come from addresses of their own, and the lobby's requests are limited per address.
ADDRESSES = (f"10.9.{n // 250}.{n % 250 + 2}" for n in itertools.count())
#: The server options of both servers of the module.
OPTIONS = [
    "--max-waiting-tables",
    "100",
    "--signup-burst",
    "50",
    "--forwarded-allow-ips",
    "127.0.0.1",
]


class Mailbox(Inbox):
    """The inbox, with the mails for other moves kept aside while one is waited for."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: list[EmailMessage] = []

    def wait_for(self, to: str, deadline_ms: int) -> EmailMessage:
        """The mail to ``to`` telling of the move due by ``deadline_ms``, waited for (mails
        for other moves, such as the first one while its person was still joining, are
        kept aside)."""
        when = deadline_text(deadline_ms)
        end = time.monotonic() + MAIL_WAIT
        while True:
            for mail in self._seen:
                if mail["To"] == to and when in mail.get_content():
                    self._seen.remove(mail)
                    return mail
            left = end - time.monotonic()
            if left <= 0:
                got = [(m["To"], m["Subject"]) for m in self._seen]
                raise AssertionError(f"no mail to {to} for the move due {when}; got {got}")
            try:
                self._seen.append(self.mails.get(timeout=left))
            except queue.Empty:
                continue


def deadline_text(ms: int) -> str:
    """A deadline as the mails write it."""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")


class Clock:
    """The server's wall clock: the file it reads, and the signal that it moved."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.server: ServerProcess | None = None
        self.set(T0)

    def set(self, seconds: int) -> None:
        # (written aside and moved in place: the server never reads a half-written file)
        fresh = self.path.with_suffix(".new")
        fresh.write_text(str(seconds), encoding="ascii")
        os.replace(fresh, self.path)
        if self.server is not None and self.server.proc is not None:
            self.server.proc.send_signal(signal.SIGUSR1)


@pytest.fixture(scope="module")
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    with smtp_server(box) as (_, port):
        yield box, port


@pytest.fixture(scope="module")
def clock(tmp_path_factory: pytest.TempPathFactory) -> Clock:
    return Clock(tmp_path_factory.mktemp("clock") / "now")


@pytest.fixture(scope="module")
def server(
    browser: Browser,
    tmp_path_factory: pytest.TempPathFactory,
    mailbox: tuple[Mailbox, int],
    clock: Clock,
) -> Iterator[ServerProcess]:
    """A server mailing through the test's SMTP server, on the test's clock."""
    _, port = mailbox
    server = ServerProcess(
        tmp_path_factory.mktemp("corr-server"),
        options=[
            *OPTIONS,
            "--smtp-host", "127.0.0.1", "--smtp-port", str(port), "--smtp-security", "none",
            "--clock-file", str(clock.path),
        ],
    )  # fmt: skip
    server.start()
    clock.server = server
    try:
        yield server
    finally:
        clock.server = None
        server.stop()


@pytest.fixture(scope="module")
def plain_server(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A server that sends no mail, on the real clock."""
    server = ServerProcess(tmp_path_factory.mktemp("plain-server"), options=OPTIONS)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def _person(
    browser: Browser, page_errors: PageErrors, label: str, server: ServerProcess
) -> Iterator[Page]:
    """A tab (as :func:`open_page`) whose notifications are allowed and recorded."""
    with open_page(browser, page_errors, label) as page:
        page.context.set_extra_http_headers({"X-Forwarded-For": next(ADDRESSES)})
        page.context.grant_permissions(["notifications"], origin=server.url)
        page.context.add_init_script(RECORD_NOTIFICATIONS)
        yield page


def _sign_up(page: Page, server: ServerProcess, name: str, lang: str) -> None:
    page.goto(f"{server.url}/signup?lang={lang}")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    page.locator("#top .account-label", has_text=name).wait_for(state="attached")


def _save_mail(page: Page, server: ServerProcess, address: str, lang: str) -> None:
    texts = catalog(server, lang)
    page.goto(f"{server.url}/account?lang={lang}")
    page.locator("#mail-form[data-loaded]").wait_for()
    page.fill("#mail-address", address)
    page.check("#mail-notify")
    page.locator("#mail-form button[type=submit]").click()
    page.locator(".mail-state", has_text=fill(texts["corr.mail_on"], email=address)).wait_for()


def _game_title(server: ServerProcess, game: str, lang: str) -> str:
    games = server.get("/api/games")["games"]
    title: str = next(g for g in games if g["name"] == game)["titles"][lang]
    return title


def _table_state(page: Page) -> dict[str, str]:
    state: dict[str, str] = page.eval_on_selector(
        "#app", "a => ({turn: a.dataset.turn || '', you: a.dataset.you || ''})"
    )
    return state


def _wait_for_a_person_to_move(page: Page, people: set[int]) -> int:
    """At the table: wait until one of ``people``'s seats is to move (the bots moved); it."""
    wanted = sorted(str(p) for p in people)
    page.wait_for_function(
        "(seats) => seats.includes(document.getElementById('app').dataset.turn || '')", arg=wanted
    )
    return int(_table_state(page)["turn"])


def _version(page: Page) -> int:
    version: int = page.eval_on_selector("#app", "a => Number(a.dataset.version || -1)")
    return version


def _what_to_do(page: Page) -> str:
    """What this page may do: ``answer`` (the declaration question's "Gesund", or the
    bar's first answer), ``card`` (a playable card), or ``gone`` when the move is not its
    own (any more: an answer the table gives for it by itself, such as a round with nothing
    to declare, passes at once)."""
    what: str = page.wait_for_function(
        """(answer) => {
          const a = document.getElementById('app');
          if (a.dataset.turn !== a.dataset.you) return 'gone';
          if (document.querySelector(answer)) return 'answer';
          if (document.querySelector('.hand-card.playable')) return 'card';
          return false;
        }""",
        arg=ANSWER,
    ).json_value()
    return what


def _whose_move(pages: dict[str, Page], seat: dict[str, int]) -> str:
    """Whose move is due once the bots (and the answers the table gives by itself) are
    done: the person whose page offers a move."""
    watch = next(iter(pages.values()))
    end = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < end:
        turn = _wait_for_a_person_to_move(watch, set(seat.values()))
        name = next(n for n, s in seat.items() if s == turn)
        pages[name].wait_for_function(
            "(v) => Number(document.getElementById('app').dataset.version) >= v",
            arg=_version(watch),
        )
        if _what_to_do(pages[name]) != "gone":
            return name
    raise AssertionError("no person's move came")


def _move(page: Page, other: int) -> None:
    """Make this page's move, and again while the move comes back to it (an Armut's
    exchange …), until the move of the other person, at ``other``, is due."""
    mine = int(_table_state(page)["you"])
    moved = False
    end = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < end:
        what = _what_to_do(page)
        if what == "answer":
            act(page, page.locator(ANSWER).first)
            moved = True
        elif what == "card":
            play_one(page)
            moved = True
        if _wait_for_a_person_to_move(page, {mine, other}) == other:
            assert moved, "the table moved for this person by itself"
            return
    raise AssertionError("the move did not pass to the other person")


def _lobby(page: Page, server: ServerProcess, lang: str) -> None:
    """Load the lobby and wait until its "your turn" list came."""
    page.goto(f"{server.url}/?lang={lang}")
    page.locator(".turns[data-count]").wait_for()


def _turn_entry(page: Page, table_id: str) -> Any:
    return page.locator(f".turn-list li[data-table='{table_id}']")


def test_two_accounts_play_a_correspondence_table_over_days(
    server: ServerProcess,
    browser: Browser,
    page_errors: PageErrors,
    mailbox: tuple[Mailbox, int],
    clock: Clock,
) -> None:
    box, _ = mailbox
    langs = {"Anna": "de", "Bernd": "en"}
    texts = {name: catalog(server, lang) for name, lang in langs.items()}
    addresses = {"Anna": "anna@example.org", "Bernd": "bernd@example.org"}
    page_errors.allowed.append("status of 400")  # the address refused on purpose
    with (
        _person(browser, page_errors, "anna: ", server) as anna,
        _person(browser, page_errors, "bernd: ", server) as bernd,
    ):
        pages = {"Anna": anna, "Bernd": bernd}
        for name, tab in pages.items():
            _sign_up(tab, server, name, langs[name])
        # Bernd's first address is refused by the server: its message shows in the form.
        bernd.goto(f"{server.url}/account?lang=en")
        bernd.locator("#mail-form[data-loaded]").wait_for()
        assert bernd.locator(".mail-state").inner_text() == texts["Bernd"]["corr.mail_off"]
        assert bernd.locator(".mail-no-server").is_hidden()  # (this server sends mail)
        bernd.fill("#mail-address", "bernd@localhost")  # (no dot in the domain)
        bernd.locator("#mail-form button[type=submit]").click()
        refused = texts["Bernd"]["error.bad_email"]
        bernd.locator("#mail-form .form-error", has_text=refused).wait_for()
        for name, tab in pages.items():
            _save_mail(tab, server, addresses[name], langs[name])
        # (saved: the page shows it again after a reload)
        anna.reload()
        anna.locator("#mail-form[data-loaded]").wait_for()
        assert anna.input_value("#mail-address") == addresses["Anna"]
        assert anna.is_checked("#mail-notify")

        # Anna opens a correspondence Doppelkopf table: 24 h a move, a seat for Bernd, two bots.
        de = texts["Anna"]
        anna.goto(f"{server.url}/?lang=de")
        anna.select_option("#game", "doppelkopf")
        hours = anna.locator("#move-hours")
        assert hours.is_visible()
        assert anna.locator("#timer").is_visible()
        hours.select_option("24")
        assert anna.locator("#timer").is_hidden()  # (no turn timer beside it)
        assert anna.locator("#deadline-standin").is_visible()
        assert not anna.is_checked("#deadline-standin")
        anna.locator(".seat-setup select").nth(1).select_option("open")
        anna.click("form.create button[type=submit]")
        anna.wait_for_url(re.compile(r"/t/[\w-]+$"))
        table_url = anna.url
        table_id = table_url.rsplit("/", 1)[1]
        note = fill(de["corr.table_note"], time=fill(de["corr.hours"], n=24))
        anna.locator(".waiting .corr-note", has_text=note).wait_for()
        shot(anna, "corr-waiting-de")

        bernd.goto(table_url)
        bernd.get_by_role("button", name=texts["Bernd"]["lobby.join"]).click()
        for tab in (anna, bernd):
            tab.wait_for_selector(".dk-game")
        seat = {name: int(_table_state(tab)["you"]) for name, tab in pages.items()}
        assert seat == {"Anna": 0, "Bernd": 1}
        anna.locator(".game .corr-note", has_text=note).wait_for()
        # Whose move is due once the bots have moved: X, then Y, then X …
        x = _whose_move(pages, seat)
        y = next(name for name in seat if name != x)
        game = {name: _game_title(server, "doppelkopf", lang) for name, lang in langs.items()}

        # Both leave the table: X's lobby lists the move, Y's nothing.
        _lobby(pages[x], server, langs[x])
        _lobby(pages[y], server, langs[y])
        _turn_entry(pages[x], table_id).wait_for()
        assert pages[y].locator(".turns").get_attribute("data-count") == "0"
        assert pages[y].evaluate(NOTES) == []  # (the first reading tells nothing)

        # Day 1, two hours on: X opens the lobby, sees 22 h left, opens the table and moves.
        clock.set(T0 + 2 * HOUR)
        tx = texts[x]
        _lobby(pages[x], server, langs[x])
        entry = _turn_entry(pages[x], table_id)
        left = fill(tx["corr.left"], time=fill(tx["corr.hours"], n=22))
        assert left in entry.inner_text(), entry.inner_text()
        assert game[x] in entry.inner_text()
        entry.get_by_role("link").click()
        pages[x].wait_for_url(re.compile(rf"/t/{table_id}$"))
        pages[x].wait_for_selector(".dk-game")
        # The move's deadline: its date and what is left, counted from the server's clock.
        timer = pages[x].locator(".status .timer.corr-deadline")
        timer.wait_for()
        assert left in timer.inner_text(), timer.inner_text()
        shot(pages[x], f"corr-doppelkopf-{langs[x]}")
        _move(pages[x], seat[y])

        # Y, away from the table (in the lobby), gets a mail in their account's language
        # with the table's link, and the lobby shows a notification of the new move.
        ty = texts[y]
        mail = box.wait_for(addresses[y], (T0 + 26 * HOUR) * 1000)
        assert mail["Subject"] == fill(ty["mail.turn_subject"], game=game[y])
        body = mail.get_content()
        assert f"{server.url}/t/{table_id}" in body
        assert f"{server.url}/account" in body
        assert fill(ty["mail.turn_body"].splitlines()[0], name=y) in body  # "Hello Bernd,"
        _turn_entry(pages[y], table_id).wait_for()
        pages[y].wait_for_function("() => window.__notes.length > 0")
        notes = pages[y].evaluate(NOTES)
        assert notes[0]["title"] == fill(ty["corr.notify_title"], game=game[y])
        assert notes[0]["tag"] == table_id
        left_y = fill(ty["corr.left"], time=fill(ty["corr.hours"], n=24))
        assert left_y in _turn_entry(pages[y], table_id).inner_text()
        # X's list no longer holds the table.
        _lobby(pages[x], server, langs[x])
        assert pages[x].locator(".turns").get_attribute("data-count") == "0"

        # Day 2, a day on (the move still in its time): Y loads the lobby, opens the
        # table and moves; X, whose page is the lobby, is mailed and notified.
        clock.set(T0 + 25 * HOUR)
        _lobby(pages[y], server, langs[y])
        entry = _turn_entry(pages[y], table_id)
        assert fill(ty["corr.left"], time=fill(ty["corr.hours"], n=1)) in entry.inner_text()
        entry.get_by_role("link").click()
        pages[y].wait_for_selector(".dk-game")
        _move(pages[y], seat[x])
        mail = box.wait_for(addresses[x], (T0 + 49 * HOUR) * 1000)
        assert mail["Subject"] == fill(tx["mail.turn_subject"], game=game[x])
        assert f"{server.url}/t/{table_id}" in mail.get_content()
        pages[x].wait_for_function("() => window.__notes.length > 0")
        assert pages[x].evaluate(NOTES)[0]["title"] == fill(tx["corr.notify_title"], game=game[x])

        # At the table, a page hidden (another tab in front) is told when its move comes.
        pages[y].evaluate("() => window.__setHidden(true)")
        _lobby(pages[x], server, langs[x])
        _turn_entry(pages[x], table_id).get_by_role("link").click()
        pages[x].wait_for_selector(".dk-game")
        _move(pages[x], seat[y])
        pages[y].wait_for_function("() => window.__notes.length > 0")
        told = pages[y].evaluate(NOTES)
        assert told[0]["title"] == fill(ty["corr.notify_title"], game=game[y])
        assert told[0]["tag"] == table_id

        # Past its deadline (T0 + 49 h: no bot moves for Y here) Y's move shows as overdue.
        clock.set(T0 + 80 * HOUR)
        _lobby(pages[y], server, langs[y])
        late = _turn_entry(pages[y], table_id)
        late.wait_for()
        assert "overdue" in (late.get_attribute("class") or "")
        overdue = fill(ty["corr.overdue"], time=fill(ty["corr.hours"], n=31))
        assert overdue in late.inner_text(), late.inner_text()
        shot(pages[y], f"corr-lobby-overdue-{langs[y]}")
    unexpected = page_errors.unexpected()
    assert not unexpected, "the pages reported errors:\n" + "\n".join(unexpected)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["de", "en", "ru"])
def test_the_correspondence_screens_in_every_language(
    plain_server: ServerProcess, browser: Browser, lang: str, size: str
) -> None:
    """The lobby with its "your turn" list, a correspondence table and the mail form,
    looked at in every language and size (on a server that sends no mail): no text of
    another language."""
    server = plain_server
    texts = catalog(server, lang)
    english = catalog(server, "en")
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        extra_http_headers={"X-Forwarded-For": next(ADDRESSES)},
    )
    context.set_default_timeout(WAIT_MS)
    try:
        page = context.new_page()
        name = f"Corr{lang.upper()}{size[0]}"
        _sign_up(page, server, name, lang)
        # The lobby's new-table form: the correspondence choice for a person logged in.
        page.goto(f"{server.url}/?lang={lang}")
        page.select_option("#game", "slobberhannes")
        page.select_option("#move-hours", "48")
        page.check("#deadline-standin")
        assert page.locator(".corr-hint").is_visible()
        page.select_option("#game", "slapjack")  # (played in real time: no such choice)
        assert page.locator("#move-hours").is_hidden()
        page.select_option("#game", "slobberhannes")
        assert page.locator("#move-hours").is_visible()
        page.locator("form.create").screenshot(path=str(_artifact(f"corr-form-{lang}-{size}")))
        page.click("form.create button[type=submit]")
        page.wait_for_url(re.compile(r"/t/[\w-]+$"))
        table_id = page.url.rsplit("/", 1)[1]
        # The table: a correspondence table with 2 days a move, a bot for the late.
        note = fill(texts["corr.table_note"], time=fill(texts["corr.days.few"], n=2))
        page.locator(".corr-note", has_text=note).wait_for()
        assert texts["corr.standin_short"] in page.locator(".corr-note").inner_text()
        page.wait_for_function(
            "() => { const a = document.getElementById('app');"
            " return a.dataset.turn !== '' && a.dataset.turn === a.dataset.you; }"
        )
        page.locator(".status .timer.corr-deadline").wait_for()
        _no_english(page, lang, texts, english)
        shot(page, f"corr-table-{lang}-{size}")
        # The lobby: the move owed, and the button that asks for notifications.
        page.goto(f"{server.url}/?lang={lang}")
        _turn_entry(page, table_id).wait_for()
        page.locator(".turns .notify-ask", has_text=texts["corr.notify_button"]).wait_for()
        _no_english(page, lang, texts, english)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        shot(page, f"corr-lobby-{lang}-{size}")
        # The own profile lists it too.
        page.goto(f"{server.url}/players/{name}?lang={lang}")
        _turn_entry(page, table_id).wait_for()
        # The account's mail form, saved, on a server that does not send mail.
        page.goto(f"{server.url}/account?lang={lang}")
        page.locator("#mail-form[data-loaded]").wait_for()
        page.fill("#mail-address", f"{name.lower()}@example.org")
        page.check("#mail-notify")
        page.locator("#mail-form button[type=submit]").click()
        page.locator(".mail-state", has_text=f"{name.lower()}@example.org").wait_for()
        assert page.locator(".mail-no-server", has_text=texts["corr.mail_no_server"]).is_visible()
        _no_english(page, lang, texts, english)
        # (the toast "saved" gone at once, not to cover the form in the picture)
        page.evaluate(
            "() => { const t = document.getElementById('toast');"
            " t.style.transition = 'none'; t.className = ''; }"
        )
        shot(page, f"corr-account-{lang}-{size}")
    finally:
        context.close()


def _artifact(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"


def _no_english(page: Page, lang: str, texts: dict[str, str], english: dict[str, str]) -> None:
    """No correspondence text of the page is the English one on a German or Russian page."""
    if lang == "en":
        return
    body = page.locator("body").inner_text()
    for key, text in english.items():
        if not key.startswith("corr.") or texts.get(key) == text:
            continue
        plain = re.sub(r"\{\w+\}", "\0", text).split("\0")
        for part in (p.strip(" .·:") for p in plain):
            if len(part) > 3:
                assert part not in body, f"{lang}: English {key} ({part!r}) on the page"

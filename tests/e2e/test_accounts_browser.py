"""Accounts in a real browser: a guest signs up and keeps the table played, logs out and in,
a wrong password is refused in the page, a table is opened under the account's name."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from .conftest import SIZES, WAIT_MS, PageErrors, ServerProcess, open_page, shot
from .pages import catalog, fill, play_one

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PASSWORD = "a good password"


def _sign_up(page: Page, server: ServerProcess, name: str, lang: str) -> None:
    texts = catalog(server, lang)
    page.goto(f"{server.url}/signup?lang={lang}")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    page.locator("#top .account-label", has_text=name).wait_for()
    assert texts["nav.login"] not in page.locator("#top").inner_text()


def test_a_guest_signs_up_keeps_the_table_and_logs_out_and_in(
    server: ServerProcess, page: Page, page_errors: PageErrors
) -> None:
    de = catalog(server, "de")
    page_errors.allowed.append("status of 401")  # the wrong password, answered 401
    # A guest opens a table from the lobby (a seat token is kept in this browser).
    page.goto(f"{server.url}/?lang=de")
    page.fill("#name", "Gast")
    page.select_option("#game", "slobberhannes")
    page.click("form.create button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table_id = page.url.rsplit("/", 1)[1]

    page.get_by_role("link", name=de["nav.login"]).click()
    page.wait_for_url(re.compile(r"/login"))
    page.get_by_role("link", name=de["account.signup"]).click()
    page.wait_for_url(re.compile(r"/signup"))
    claim = page.locator("label.check", has_text=de["account.claim.one"].split("(")[0].strip())
    assert claim.is_visible() and page.is_checked("#account-claim")
    page.fill("#account-name", "Greta")
    page.fill("#account-password", "short")  # the browser's own check says it first
    assert page.evaluate("document.querySelector('#account-password').validity.tooShort")
    page.fill("#account-password", PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    page.locator("#top .account-label", has_text="Greta").wait_for()
    page.locator("#toast", has_text="Greta").wait_for()
    assert "1" in page.locator("#toast").inner_text()  # the table is hers now
    # The claimed seat: the table's record names Greta's account's seat.
    me = page.evaluate("fetch('/api/me').then(r => r.json())")
    assert me["account"]["name"] == "Greta"
    assert table_id

    # The lobby's name is the account's, and cannot be changed there.
    page.goto(f"{server.url}/?lang=de")
    assert page.input_value("#name") == "Greta" and page.is_disabled("#name")

    # Log out on the account page, log in again; a wrong password is refused in the page.
    page.locator("#top a.account-link").click()
    page.wait_for_url(re.compile(r"/account"))
    page.click("#logout")
    page.get_by_role("link", name=de["nav.login"]).wait_for()
    page.goto(f"{server.url}/login?lang=de")
    page.fill("#account-name", "greta")
    page.fill("#account-password", "not the password")
    page.locator("#login-form button[type=submit]").click()
    page.locator(".form-error", has_text=de["error.login_failed"]).wait_for()
    page.fill("#account-password", PASSWORD)
    page.locator("#login-form button[type=submit]").click()
    page.locator("#top .account-label", has_text="Greta").wait_for()


def test_changing_the_password_in_the_page(
    server: ServerProcess, page: Page, page_errors: PageErrors
) -> None:
    en = catalog(server, "en")
    page_errors.allowed.append("status of 403")  # the wrong current password
    _sign_up(page, server, "Pavel", "en")
    page.goto(f"{server.url}/account?lang=en")
    page.fill("#password-old", "wrong one!")
    page.fill("#password-new", "another good one")
    page.locator("#password-form button[type=submit]").click()
    page.locator(".form-error", has_text=en["error.wrong_password"]).wait_for()
    page.fill("#password-old", PASSWORD)
    page.fill("#password-new", "another good one")
    page.locator("#password-form button[type=submit]").click()
    page.locator("#toast", has_text=en["account.password_changed"]).wait_for()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["de", "en", "ru"])
def test_the_account_screens_in_every_language(
    server: ServerProcess, browser: Browser, lang: str, size: str
) -> None:
    """The log-in, sign-up and account screens, looked at: no text of another language."""
    texts = catalog(server, lang)
    english = catalog(server, "en")
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(WAIT_MS)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/login?lang={lang}")
        page.locator("h1", has_text=texts["account.login_title"]).wait_for()
        shot(page, f"account-login-{lang}-{size}")
        page.goto(f"{server.url}/signup?lang={lang}")
        page.locator("h1", has_text=texts["account.signup_title"]).wait_for()
        body = page.locator("main").inner_text()
        assert texts["account.name_rules"].split(":")[0] in body
        if lang != "en":
            for key in ("account.signup_title", "account.guest_note", "account.password"):
                assert english[key] not in body, key
        shot(page, f"account-signup-{lang}-{size}")
        page.goto(f"{server.url}/?lang={lang}")
        page.locator(".lobby-chat h2", has_text=texts["chat.lobby_title"]).wait_for()
        assert texts["chat.lobby_login"] in page.locator(".lobby-chat").inner_text()
        shot(page, f"lobby-{lang}-{size}")
        # The page must not scroll sideways on a phone.
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
    finally:
        context.close()


def _person(browser: Browser, page_errors: PageErrors, label: str) -> Any:
    return open_page(browser, page_errors, label)


def test_a_rated_table_of_two_accounts_changes_both_ratings(
    server: ServerProcess, browser: Browser, page_errors: PageErrors
) -> None:
    """Sign up twice, open a rated Slobberhannes table with two bots, play it to its end
    in both pages, and see both ratings on the profiles, the chart drawn."""
    en = catalog(server, "en")
    with (
        _person(browser, page_errors, "anna: ") as anna,
        _person(browser, page_errors, "bernd: ") as bernd,
    ):
        _sign_up(anna, server, "Annika", "en")
        _sign_up(bernd, server, "Bernhard", "en")
        anna.goto(f"{server.url}/?lang=en")
        anna.select_option("#game", "slobberhannes")
        anna.locator(".seat-setup select").nth(1).select_option("open")
        anna.locator("summary", has_text=en["lobby.rule_options"]).click()
        anna.fill("#opt-target", "1")  # the match ends with the first penalty point
        anna.check("#rated")
        anna.click("form.create button[type=submit]")
        anna.wait_for_url(re.compile(r"/t/[\w-]+$"))
        table_url = anna.url
        bernd.goto(table_url)
        bernd.get_by_role("button", name=en["lobby.join"]).click()
        bernd.wait_for_selector(".hand-card")
        anna.wait_for_selector(".hand-card")
        # Both play their cards until the match is over: whoever's turn the table
        # shows plays; while a bot is to move, the next state is waited for.
        seats = {int(p.eval_on_selector("#app", "a => a.dataset.you")): p for p in (anna, bernd)}
        while not anna.locator(".result").count():
            version = anna.eval_on_selector("#app", "a => Number(a.dataset.version)")
            turn = anna.eval_on_selector("#app", "a => a.dataset.turn")
            tab = seats.get(int(turn)) if turn else None
            if tab is not None:
                tab.wait_for_function(
                    f"() => Number(document.getElementById('app').dataset.version) >= {version}"
                )
                if tab.locator(".hand-card.playable").count():
                    play_one(tab)
                    continue
            anna.wait_for_function(
                f"() => Number(document.getElementById('app').dataset.version) > {version}"
                " || document.querySelector('.result') !== null"
            )
        bernd.locator(".result").wait_for()
        for tab, name in ((anna, "Annika"), (bernd, "Bernhard")):
            tab.goto(f"{server.url}/players/{name}?lang=en")
            tab.locator(".rating-chart polyline").wait_for()
            figures = tab.locator("table.figures").first.inner_text()
            assert "Slobberhannes" in figures
            rating = int(figures.split("Slobberhannes")[1].split()[0].rstrip("?"))
            assert rating != 1000, f"{name}'s rating did not move"
        shot(anna, "profile-after-rated-table-en")
        anna.goto(f"{server.url}/leaderboard/slobberhannes?lang=en")
        board = anna.locator("table.figures").inner_text()
        assert "Annika" in board and "Bernhard" in board


def test_chat_at_the_table_shows_a_script_as_text(
    server: ServerProcess, browser: Browser, page_errors: PageErrors
) -> None:
    """Two people at a table chat: a message with markup is shown as text, a quick
    phrase in each reader's own language, a muted author's messages hidden."""
    de, ru = catalog(server, "de"), catalog(server, "ru")
    seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
    created = server.post(
        "/api/tables",
        {"game": "slobberhannes", "name": "Ann", "seats": seats, "options": {"target": 100}},
    )
    table = f"{server.url}/t/{created['id']}"
    with _person(browser, page_errors, "ann: ") as ann, _person(browser, page_errors, "bo: ") as bo:
        ann.goto(f"{table}?lang=de#seat={created['seat']}&token={created['token']}")
        bo.goto(f"{table}?lang=ru")
        bo.evaluate("localStorage.setItem('kt.name', 'Bo')")
        bo.get_by_role("button", name=ru["lobby.join"]).click()
        for tab in (ann, bo):
            tab.wait_for_selector(".hand-card")
            tab.locator("details.chat").evaluate("d => { d.open = true; }")
        script = "<img src=x onerror=alert(1)><script>alert(2)</script>"
        ann.fill(".chat-input", script)
        ann.locator(".chat-form button[type=submit]").click()
        line = bo.locator(".chat-line .chat-text", has_text="<script>alert(2)</script>")
        line.wait_for()
        assert line.inner_text() == script
        assert bo.locator(".chat-messages img, .chat-messages script").count() == 0
        bo.locator(".chat-quick button[data-phrase=well_played]").click()
        ann.locator(".chat-text", has_text=de["chat.phrase.well_played"]).wait_for()
        bo.locator(".chat-text", has_text=ru["chat.phrase.well_played"]).wait_for()
        shot(bo, "chat-ru-desktop")
        # Ann mutes Bo: his next words do not reach her page.
        ann.locator(".chat-line", has_text="Bo").locator(".chat-mute").click()
        bo.fill(".chat-input", "are you there?")
        bo.locator(".chat-form button[type=submit]").click()
        said = bo.locator(".chat-line", has_text="are you there?")
        said.wait_for()
        number = int(said.get_attribute("data-id") or 0)
        # Ann's page has the message (it came), and does not show it.
        ann.wait_for_function(
            f"() => Number(document.querySelector('details.chat').dataset.last) >= {number}"
        )
        assert ann.locator(".chat-text", has_text="are you there?").count() == 0
        shot(ann, "chat-de-desktop")


def test_a_friend_request_and_an_invitation(
    server: ServerProcess, browser: Browser, page_errors: PageErrors
) -> None:
    en = catalog(server, "en")
    with (
        _person(browser, page_errors, "fa: ") as anna,
        _person(browser, page_errors, "fb: ") as bernd,
    ):
        _sign_up(anna, server, "Frieda", "en")
        _sign_up(bernd, server, "Fritz", "en")
        anna.goto(f"{server.url}/friends?lang=en")
        anna.fill("#friend-name", "fritz")
        anna.locator("form.friend-ask button[type=submit]").click()
        anna.locator(".outgoing", has_text="Fritz").wait_for()
        bernd.goto(f"{server.url}/friends?lang=en")
        bernd.locator(".incoming", has_text="Frieda").locator("button.accept").click()
        bernd.locator(".friend-list .friend", has_text="Frieda").wait_for()
        # Frieda opens a table with a free seat and invites Fritz from its waiting room.
        anna.goto(f"{server.url}/?lang=en")
        anna.select_option("#game", "slobberhannes")
        anna.locator(".seat-setup select").nth(1).select_option("open")
        anna.click("form.create button[type=submit]")
        anna.wait_for_url(re.compile(r"/t/[\w-]+$"))
        box = anna.locator("form.invite-friend")
        box.wait_for()
        assert anna.locator("#invite-friend").input_value() == "Fritz"
        box.locator("button[type=submit]").click()
        anna.locator("#toast", has_text=fill(en["friends.invite_sent"], name="Fritz")).wait_for()
        shot(anna, "friends-invite-en")
        bernd.goto(f"{server.url}/friends?lang=en")
        invitation = bernd.locator(".invitation", has_text="Frieda")
        invitation.wait_for()
        shot(bernd, "friends-en")
        invitation.get_by_role("link", name=en["friends.to_table"]).click()
        bernd.get_by_role("button", name=en["lobby.join"]).click()
        bernd.wait_for_selector(".hand-card")

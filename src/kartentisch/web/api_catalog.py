"""What the server offers to read: its games, their rules and rule sets, the page's texts.

``GET /api/games`` (the games, presets, options, bot levels and the tables' defaults),
``GET /api/rules/{game}/{lang}`` (the rules as Markdown, or HTML with ``?format=html``),
``GET /api/rules/{game}/schema`` and ``POST /api/rules/{game}/check`` (rule sets,
:mod:`kartentisch.rulesets`: what an editor needs, a document checked) and
``GET /api/i18n/{lang}`` (the page's JSON catalog).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from kartentisch.errors import KartentischError, RulesError
from kartentisch.games import GAMES, get_game, rules_text
from kartentisch.i18n import LANGUAGES
from kartentisch.rulesets import (
    dump_rules,
    parse_rules,
    rules_from_dict,
    rules_games,
    rules_schema,
    rules_texts,
)
from kartentisch.web.adapter import TABLE_GAMES, table_game_type
from kartentisch.web.context import AppContext
from kartentisch.web.i18n import catalog, request_language
from kartentisch.web.lobby import rules_refusal
from kartentisch.web.responses import error_response, read_body
from kartentisch.web.seats import TableError

__all__ = ["catalog_routes", "markdown_html"]


def catalog_routes(ctx: AppContext) -> list[BaseRoute]:
    """The routes of the games, rules, rule sets and catalogs."""
    manager = ctx.manager
    take = ctx.take
    rules_rate = ctx.rates.rules

    async def games(request: Request) -> Response:
        rules = [{"name": n, "titles": dict(get_game(n).titles)} for n in GAMES]
        server = manager().settings
        # What a table does when nothing else is chosen (the lobby shows it).
        defaults = {
            "away": "standin",
            "grace_seconds": server.grace,
            "ready_seconds": server.ready_seconds,
        }
        return JSONResponse(
            {
                "games": [table_game_type(n).describe() for n in TABLE_GAMES],
                "rules": rules,
                "rule_sets": list(rules_games()),
                "defaults": defaults,
            }
        )

    async def rules(request: Request) -> Response:
        game = request.path_params["game"]
        lang = request.path_params["lang"]
        try:
            text = rules_text(game, lang, "web")
        except KartentischError:
            error = TableError("no_rules", 404, game=game[:40], lang=lang[:10])
            return error_response(request, error)
        if request.query_params.get("format") == "html":
            return HTMLResponse(markdown_html(text))
        return Response(text, media_type="text/markdown; charset=utf-8")

    def rule_set_game(request: Request) -> str:
        """The game of a rule-set request's path, which must have rule sets (else 404)."""
        game = request.path_params["game"]
        try:
            name = get_game(game).name
        except KartentischError:
            name = ""
        if name not in rules_games():
            raise TableError("no_rule_sets", 404, game=game[:40])
        return name

    async def rule_set_schema(request: Request) -> Response:
        """What an editor of the game's rule sets needs, with its texts in ``?lang=``."""
        try:
            await take(request, rules_rate, "too_many_rule_requests")
            game = rule_set_game(request)
        except TableError as exc:
            return error_response(request, exc)
        return JSONResponse(
            {**rules_schema(game), "texts": rules_texts(game, request_language(request))}
        )

    async def rule_set_check(request: Request) -> Response:
        """A rule-set document (``{"text": …}`` or ``{"rules": {…}}``) checked and normalized."""
        try:
            await take(request, rules_rate, "too_many_rule_requests")
            game = rule_set_game(request)
            body = await read_body(request)
            if not isinstance(body, dict) or len(body) != 1 or not {"text", "rules"} & set(body):
                raise TableError(
                    "bad_request",
                    detail='the body must be {"text": "<a rule set>"} or {"rules": {…}}',
                )
            try:
                if "text" in body:
                    if not isinstance(body["text"], str):
                        raise TableError("bad_request", detail='"text" must be a string')
                    checked = parse_rules(body["text"], game=game)
                else:
                    checked = rules_from_dict(body["rules"], game=game)
            except RulesError as exc:
                raise rules_refusal(exc) from None
        except TableError as exc:
            return error_response(request, exc)
        document = checked.to_dict()
        shown = {
            "game": checked.game,
            "preset": checked.preset,
            "name": checked.name,
            "description": checked.description,
            "options": document["options"],
            "values": checked.values(),
        }
        return JSONResponse({"rules": shown, "toml": dump_rules(checked), "json": document})

    async def i18n(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            error = TableError("unknown_language", 404, lang=lang[:10])
            return error_response(request, error)
        return JSONResponse(
            {"lang": lang, "messages": catalog(lang)},
            headers={"cache-control": "no-cache"},
        )

    return [
        Route("/api/games", games),
        # (before the rules' route, whose {lang} would take "schema")
        Route("/api/rules/{game}/schema", rule_set_schema),
        Route("/api/rules/{game}/check", rule_set_check, methods=["POST"]),
        Route("/api/rules/{game}/{lang}", rules),
        Route("/api/i18n/{lang}", i18n),
    ]


def markdown_html(text: str) -> str:
    """Markdown (CommonMark and tables) as HTML; raw HTML in it is escaped, not passed on."""
    from markdown_it import MarkdownIt

    # Raw HTML in the Markdown is escaped, not passed through.
    html: str = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return html

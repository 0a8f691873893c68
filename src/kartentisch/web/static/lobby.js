// The lobby: create a table, see the open ones, join or watch.

import { me } from "./account.js";
import { lobbyChat } from "./chat.js";
import { api, askName, h, saveSeat, setRulesGame, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { handedNote, ruleEditor, takeHandedRules } from "./ruleeditor.js";
import { correspondenceText, moveTime, turnsPanel } from "./turns.js";

let refreshTimer = null;

export function leaveLobby() {
  clearInterval(refreshTimer);
}

/** ``current()`` is false once the page went elsewhere meanwhile: then nothing is drawn. */
export async function showLobby(root, navigate, current = () => true) {
  const { games, defaults, rule_sets: ruleSets } = await api("/api/games");
  if (!current()) return;
  // Rules handed over by the replay viewer ("play with these rules"): read once.
  const handed = takeHandedRules();
  const form = createForm(games, navigate, defaults || {}, ruleSets || [], handed);
  const list = h("section.panel.tables", {}, h("h2", {}, t("lobby.open_tables")), h("p.muted", {}, "…"));
  const chat = lobbyChat(Boolean(me.account));
  // A person logged in: the moves owed at correspondence tables, told as they come.
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const turns = me.account ? turnsPanel((name) => (byName[name] ? gameTitle(byName[name]) : name), { notify: true }) : null;
  // (on a phone the list comes first, above the form: style.css places it beside it otherwise)
  root.replaceChildren(h("div.lobby", {}, turns?.panel, form, h("div.lobby-side", {}, list, chat.panel)));
  const refresh = () => Promise.all([
    refreshList(list, navigate).catch(() => {}),
    chat.poll().catch(() => {}),
    turns?.refresh().catch(() => {}),
  ]);
  await refresh();
  if (!current()) return;
  refreshTimer = setInterval(refresh, 5000);
}

function gameTitle(game) {
  return game.titles?.[lang] || game.name;
}

/** "30 seconds", or a dash for "never". */
function seconds(n) {
  return n === null || n === undefined ? "—" : t("lobby.seconds", { n });
}

/**
 * What happens when someone leaves, and between deals: the host's choices (the
 * server's defaults first, sent as nothing) and a line saying what they mean.
 */
function presenceChoices(defaults) {
  const away = h("select", { id: "away" },
    h("option", { value: "standin" }, t("lobby.away_standin")),
    h("option", { value: "pause" }, t("lobby.away_pause")));
  const grace = h("select", { id: "grace" },
    h("option", { value: "" }, seconds(defaults.grace_seconds)),
    [10, 30, 60, 120, 300].filter((n) => n !== defaults.grace_seconds).map((n) => h("option", { value: n }, seconds(n))));
  const ready = h("select", { id: "ready" },
    h("option", { value: "" }, defaults.ready_seconds === null || defaults.ready_seconds === undefined
      ? t("lobby.ready_no_limit") : t("lobby.ready_limit", { time: seconds(defaults.ready_seconds) })),
    [15, 30, 60, 120].filter((n) => n !== defaults.ready_seconds).map((n) => h("option", { value: n }, t("lobby.ready_limit", { time: seconds(n) }))),
    defaults.ready_seconds === null ? null : h("option", { value: 0 }, t("lobby.ready_no_limit")));
  const hint = h("p.muted.presence-hint", { "aria-live": "polite" });
  const graceRow = h("label", {}, h("span", {}, t("lobby.grace")), grace);
  const readyRow = h("label", {}, h("span", {}, t("lobby.ready")), ready);
  let realtime = false;
  const update = () => {
    graceRow.style.display = away.value === "standin" ? "" : "none";
    readyRow.style.display = realtime ? "none" : "";
    const wait = grace.value === "" ? defaults.grace_seconds : Number(grace.value);
    const lines = [away.value === "standin" ? t("lobby.hint_standin", { grace: seconds(wait) }) : t("lobby.hint_pause")];
    if (!realtime) {
      const limit = ready.value === "" ? defaults.ready_seconds : Number(ready.value) || null;
      lines.push(limit === null || limit === undefined ? t("lobby.hint_ready_no_limit") : t("lobby.hint_ready", { time: seconds(limit) }));
    }
    hint.textContent = lines.join(" ");
  };
  for (const el of [away, grace, ready]) el.addEventListener("change", update);
  return {
    rows: [h("label", {}, h("span", {}, t("lobby.away")), away), graceRow, readyRow, hint],
    setGame(game) {
      realtime = Boolean(game.realtime);
      update();
    },
    fill(body) {
      body.away = away.value;
      if (away.value === "standin" && grace.value !== "") body.grace_seconds = Number(grace.value);
      if (!realtime && ready.value !== "") body.ready_seconds = Number(ready.value);
    },
  };
}

/** The hours a correspondence table gives each move (the lobby's choices). */
const MOVE_HOURS = [12, 24, 48, 72, 168];

/**
 * A correspondence table (a person logged in, a turn-based game): the time for each
 * move, and whether a bot moves for a person whose time is up.
 */
function correspondenceChoice() {
  const hours = h("select", { id: "move-hours" },
    h("option", { value: "" }, t("corr.off")),
    MOVE_HOURS.map((n) => h("option", { value: n }, t("corr.per_move", { time: moveTime(n * 3600) }))));
  const standin = h("input", { id: "deadline-standin", type: "checkbox" });
  const hoursRow = h("label", {}, h("span", {}, t("corr.label")), hours);
  const standinRow = h("label.check.corr-standin", {}, standin, h("span", {}, t("corr.standin")));
  const hint = h("p.muted.corr-hint", {}, t("corr.hint"));
  let allowed = false;
  const listeners = [];
  const update = () => {
    hoursRow.style.display = allowed ? "" : "none";
    standinRow.style.display = allowed && hours.value ? "" : "none";
    hint.style.display = allowed && hours.value ? "" : "none";
    for (const f of listeners) f();
  };
  hours.addEventListener("change", update);
  return {
    rows: [hoursRow, standinRow, hint],
    on: () => allowed && hours.value !== "",
    onchange: (f) => listeners.push(f),
    setGame(game) {
      // Slap games are played in real time; guests cannot be mailed nor listed.
      allowed = Boolean(me.account) && !game.realtime;
      update();
    },
    fill(body) {
      body.move_hours = Number(hours.value);
      if (standin.checked) body.deadline_standin = true;
    },
  };
}

function createForm(games, navigate, defaults, ruleSets, handed) {
  let game = games.find((g) => g.name === handed?.rules.game) || games[0];
  // A person logged in plays under the account's name.
  const nameInput = h("input", { id: "name", maxlength: 24, value: me.account?.name || localStorage.getItem("kt.name") || "", required: true, autocomplete: "nickname", disabled: Boolean(me.account), title: me.account ? t("lobby.account_name") : null });
  const gameSelect = h("select", { id: "game" }, games.map((g) => h("option", { value: g.name }, gameTitle(g))));
  gameSelect.value = game.name;
  const presetSelect = h("select", { id: "preset" });
  const seatsInput = h("input", { id: "seats", type: "number" });
  const seatRows = h("ol.seat-setup");
  const timer = h("select", { id: "timer" }, h("option", { value: "" }, t("lobby.no_timer")), [15, 30, 60, 120].map((s) => h("option", { value: s }, t("lobby.seconds", { n: s }))));
  const options = h("div.options");
  const optionsBox = h("details", {}, h("summary", {}, t("lobby.rule_options")), options);
  const presetRow = h("label", {}, h("span", {}, t("lobby.preset")), presetSelect);
  // A game with rule sets: the rule editor (ruleeditor.js), one per game, kept while the
  // page stays; the table's own options (a session's length) beside it.
  const editors = new Map();
  let editor = null;
  const editorBox = h("div.rules-box");
  const tableOptions = h("div.table-options");
  const privateBox = h("input", { id: "private", type: "checkbox" });
  // A rated table changes its players' ratings: offered to a person logged in.
  const ratedBox = h("input", { id: "rated", type: "checkbox" });
  // Hints (the strong bot's suggestion on asking): never at a rated table, not in slap games.
  const hintsBox = h("input", { id: "hints", type: "checkbox" });
  const hintsRow = h("label.check.hints-row", {}, hintsBox, h("span", {}, t("lobby.hints")));
  // Real-time games have no turn timer: a card not turned in time is turned automatically.
  const timerRow = h("label", {}, h("span", {}, t("lobby.turn_timer")), timer);
  const presence = presenceChoices(defaults);
  const corr = correspondenceChoice();

  const seatChoice = (i) => {
    const select = h("select", { "data-seat": i, "aria-label": t("lobby.seat_n", { n: i + 1 }) },
      h("option", { value: "you" }, t("lobby.seat_you")),
      h("option", { value: "open" }, t("lobby.seat_open")),
      game.bot_levels.map((level) => h("option", { value: `bot:${level}` }, t("lobby.seat_bot", { level: t(`level.${level}`) }))),
    );
    select.value = i === 0 ? "you" : `bot:${game.default_bot_level}`;
    return h("li", {}, select);
  };
  const drawSeats = () => {
    const n = Math.max(game.min_seats, Math.min(game.max_seats, Number(seatsInput.value) || game.default_seats));
    seatsInput.value = n;
    const old = [...seatRows.querySelectorAll("select")].map((s) => s.value);
    seatRows.replaceChildren(...Array.from({ length: n }, (_, i) => seatChoice(i)));
    const known = new Set([...seatRows.querySelectorAll("select")[0].options].map((o) => o.value));
    old.slice(0, n).forEach((v, i) => {
      if (known.has(v)) seatRows.querySelectorAll("select")[i].value = v;
    });
    editor?.setPlayers(n);
  };
  seatsInput.addEventListener("change", drawSeats);

  const optionInput = (name, spec) => {
    if (spec.choices) {
      return h("select", { id: `opt-${name}`, "data-option": name }, h("option", { value: "" }, t("lobby.preset_default")),
        spec.choices.map((c) => h("option", { value: JSON.stringify(c) }, t(`option.${name}.${c}`))));
    }
    return h("input", { id: `opt-${name}`, "data-option": name, type: "number", min: spec.min, max: spec.max, placeholder: t("lobby.preset_default") });
  };
  const optionRow = (name, spec) => h("label", {}, h("span", {}, t(`option.${name}`)), optionInput(name, spec));

  /** The rule editor of the game shown (made once a game); without one (the schema
   * could not be had) the game's options as other games have them. */
  const showEditor = async (shown) => {
    if (!editors.has(shown.name)) {
      editors.set(shown.name, ruleEditor(shown.name, {
        players: () => Number(seatsInput.value),
        setPlayers: (n) => {
          seatsInput.value = n;
          drawSeats();
        },
      }));
    }
    editorBox.replaceChildren(h("p.muted", {}, t("lobby.rules.loading")));
    let made;
    try {
      made = await editors.get(shown.name);
    } catch (error) {
      editors.delete(shown.name);
      if (game !== shown) return null;
      editorBox.replaceChildren(h("p.error", {}, error.message));
      presetRow.style.display = "";
      optionsBox.style.display = "";
      return null;
    }
    if (game !== shown) return null;
    editor = made;
    editorBox.replaceChildren(made.element);
    made.setPlayers(Number(seatsInput.value));
    // The game's options that are no rules (Doppelkopf: the session's length).
    const known = new Set(made.names);
    tableOptions.replaceChildren(...Object.entries(shown.options).filter(([name]) => !known.has(name)).map(([name, spec]) => optionRow(name, spec)));
    return made;
  };

  // Presets, seats and rule options follow the game chosen.
  const drawGame = () => {
    game = games.find((g) => g.name === gameSelect.value) || games[0];
    editor = null;
    setRulesGame(game.name);
    presetSelect.replaceChildren(...Object.keys(game.presets).map((p) => h("option", { value: p }, t(`preset.${p}`))));
    seatsInput.min = game.min_seats;
    seatsInput.max = game.max_seats;
    seatsInput.value = game.default_seats;
    seatRows.replaceChildren();
    drawSeats();
    options.replaceChildren();
    timerRow.style.display = game.realtime ? "none" : "";
    hintsRow.style.display = game.realtime ? "none" : "";
    presence.setGame(game);
    corr.setGame(game); // (after the presence rows: it hides them for a correspondence table)
    tableOptions.replaceChildren();
    editorBox.replaceChildren();
    const withRules = ruleSets.includes(game.name);
    presetRow.style.display = withRules ? "none" : "";
    optionsBox.style.display = withRules ? "none" : "";
    for (const [name, spec] of Object.entries(game.options)) options.append(optionRow(name, spec));
    return withRules ? showEditor(game) : Promise.resolve(null);
  };
  gameSelect.addEventListener("change", drawGame);
  // At a correspondence table nobody waits for anybody: no turn timer, no stand-in.
  corr.onchange(() => {
    const on = corr.on();
    timerRow.style.display = game.realtime || on ? "none" : "";
    for (const row of presence.rows) row.style.display = on ? "none" : "";
    if (!on) presence.setGame(game);
  });
  const first = drawGame();
  if (handed) {
    // The rules of a replayed record, through the server's check (a refusal is shown in the editor).
    first.then(async (made) => {
      if (!made) return;
      await made.open(handed.rules, handedNote(handed));
      made.element.scrollIntoView({ block: "start" });
    });
  }

  const submit = async (event) => {
    event.preventDefault();
    const seats = [...seatRows.querySelectorAll("select")].map((s) => {
      const [kind, level] = s.value.split(":");
      return kind === "bot" ? { kind, level } : { kind };
    });
    const read = (box, into) => {
      for (const el of box.querySelectorAll("[data-option]")) {
        if (el.value === "") continue;
        into[el.dataset.option] = el.tagName === "SELECT" ? JSON.parse(el.value) : Number(el.value);
      }
      return into;
    };
    const body = { game: gameSelect.value, seats, name: nameInput.value };
    if (editor) {
      // The editor's rule set; beside it only the table's own options.
      body.rules = editor.rules();
      const own = read(tableOptions, {});
      if (Object.keys(own).length) body.options = own;
    } else {
      body.options = read(options, { preset: presetSelect.value });
    }
    if (corr.on()) corr.fill(body);
    else {
      if (timer.value && !game.realtime) body.turn_seconds = Number(timer.value);
      presence.fill(body);
    }
    if (privateBox.checked) body.private = true;
    if (me.account && ratedBox.checked) body.rated = true;
    if (hintsBox.checked && !game.realtime) body.hints = true;
    if (!me.account) localStorage.setItem("kt.name", nameInput.value);
    try {
      const created = await api(`/api/tables?lang=${lang}`, { method: "POST", body });
      if (created.token) saveSeat(created.id, created.seat, created.token);
      navigate(created.url);
    } catch (error) {
      if (editor && error.code === "bad_rules") editor.showError(error.message);
      toast(error.message, "error");
    }
  };

  return h("form.panel.create", { onsubmit: submit },
    h("h2", {}, t("lobby.new_table")),
    h("label", {}, h("span", {}, t("lobby.your_name")), nameInput),
    h("label", {}, h("span", {}, t("lobby.game")), gameSelect),
    presetRow,
    h("label", {}, h("span", {}, t("lobby.seats")), seatsInput),
    seatRows,
    timerRow,
    corr.rows,
    presence.rows,
    h("label.check", {}, privateBox, h("span", {}, t("lobby.private"))),
    me.account ? h("label.check", {}, ratedBox, h("span", {}, t("lobby.rated"))) : null,
    hintsRow,
    optionsBox,
    tableOptions,
    editorBox,
    h("button.primary", { type: "submit" }, t("lobby.create")),
  );
}

async function refreshList(list, navigate) {
  const { tables } = await api("/api/tables");
  const rows = tables.map((table) => {
    const seats = table.seats.map((s) => (s.kind === "open" ? t("lobby.seat_free") : s.kind === "bot" ? `${s.name} (${t("ui.bot")})` : s.name));
    const actions = [];
    if (table.status === "waiting" && table.open_seats.length) {
      actions.push(h("button", { onclick: () => join(table, navigate) }, t("lobby.join")));
    }
    actions.push(h("button", { onclick: () => navigate(`/t/${table.id}`) }, t("lobby.watch")));
    const away = table.correspondence ? correspondenceText(table.correspondence)
      : table.away === "pause" ? t("lobby.policy_pause") : t("lobby.policy_standin", { time: seconds(table.grace_seconds) });
    return h("li", {},
      h("strong", {}, table.titles?.[lang] || table.game), " · ", t(`status.${table.status}`),
      table.rules_name ? h("div.small.table-rules", {}, t("lobby.rules_named", { name: table.rules_name })) : null,
      h("div.muted", {}, seats.join(", ")),
      h("div.muted.small.table-policy", {}, away),
      h("div.actions", {}, actions));
  });
  list.replaceChildren(h("h2", {}, t("lobby.open_tables")), rows.length ? h("ul.table-list", {}, rows) : h("p.muted", {}, t("lobby.no_tables")),
    h("p.small.row", {}, h("a.leaderboard-link", { href: "/leaderboard", "data-link": "" }, t("lobby.leaderboard")),
      me.account ? h("a.friends-link", { href: "/friends", "data-link": "" }, t("friends.title")) : null));
}

export async function join(table, navigate, seat = null) {
  const name = me.account?.name || localStorage.getItem("kt.name") || (await askName(t("lobby.name_title"), { ok: t("lobby.join"), cancel: t("ui.cancel") }));
  if (!name?.trim()) return;
  try {
    const joined = await api(`/api/tables/${table.id}/join?lang=${lang}`, { method: "POST", body: { name, seat } });
    saveSeat(table.id, joined.seat, joined.token);
    navigate(`/t/${table.id}`);
  } catch (error) {
    toast(error.message, "error");
  }
}

// The lobby's rule editor for games with rule sets (Doppelkopf): a preset and the
// options that differ from it, group by group, as the server's schema describes
// them (GET /api/rules/{game}/schema); exported and imported as rule-set files
// through the server's check (POST /api/rules/{game}/check), which also says
// what does not go together. The replay viewer hands a record's rules over to
// the lobby through sessionStorage (``kt.rules.play``, read once).

import { api, h } from "./dom.js";
import { lang, t } from "./i18n.js";

const HANDOVER = "kt.rules.play";

let games = null;

/** The games that have rule sets (``rule_sets`` of /api/games), asked once a page. */
export function ruleSetGames() {
  games ??= api("/api/games").then((answer) => answer.rule_sets || [], () => []);
  return games;
}

/** Ask the lobby to open its editor with ``rules`` (a rule-set document); ``source``
 * says where they come from: ``{file}`` (a record's file name) or ``{table}`` (its id). */
export function handOverRules(rules, source) {
  sessionStorage.setItem(HANDOVER, JSON.stringify({ rules, ...source }));
}

/** The line the lobby shows for rules handed over. */
export function handedNote(handed) {
  return handed.table ? t("lobby.rules.from_table", { id: handed.table }) : t("lobby.rules.from_file", { file: handed.file || "" });
}

/** The rules handed over by :func:`handOverRules`, once (then forgotten), or null. */
export function takeHandedRules() {
  const raw = sessionStorage.getItem(HANDOVER);
  sessionStorage.removeItem(HANDOVER);
  try {
    const handed = JSON.parse(raw || "null");
    return handed && typeof handed.rules === "object" && typeof handed.rules.game === "string" ? handed : null;
  } catch {
    return null;
  }
}

/** A record's ``options`` (a preset and overrides) as a rule-set document of ``game``. */
export function recordRules(game, options) {
  const { preset, games: _length, ...rest } = options || {};
  const rules = { "kartentisch-rules": 1, game, options: rest };
  if (typeof preset === "string") rules.preset = preset;
  return rules;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The file name of an exported rule set: its name made safe, or ``doppelkopf-rules.toml``. */
export function exportName(name, game) {
  const stem = (name || "").normalize("NFKC").replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return `${stem || `${game}-rules`}.toml`;
}

/** A refused check, as the editor shows it: the server's message, or for a file
 * that is no TOML or JSON at all, where it stopped (the parser's own words are English). */
function refusal(error, file) {
  if (error.reason === "rules_syntax") {
    const { line, column } = error.params || {};
    return line ? t("lobby.rules.syntax_at", { file, line, column }) : t("lobby.rules.syntax", { file });
  }
  return file ? t("lobby.rules.not_loaded", { file, message: error.message }) : error.message;
}

/**
 * The editor of ``game``'s rule sets. ``players()`` is the number of seats chosen
 * in the form, ``setPlayers(n)`` chooses it (the option ``players`` follows the seats).
 * Resolves to ``{element, names, rules(), check(), load(rules), open(doc, note),
 * setPlayers(n), showError(text)}``: ``names`` the options it edits, ``rules()`` its
 * rule-set document, ``open`` fills it from a document through the server's check.
 */
export async function ruleEditor(game, { players, setPlayers }) {
  const schema = await api(`/api/rules/${encodeURIComponent(game)}/schema?lang=${lang}`);
  const texts = schema.texts;
  const options = schema.options;
  const state = { preset: schema.default_preset, name: "", description: "", values: {} };
  const base = () => schema.presets[state.preset];
  const title = (o) => texts.options[o.name]?.title || o.name;
  /** A value in words: a choice's or a flag's name, a number, the kinds of a list. */
  const choiceName = (o, value) => texts.options[o.name]?.values?.[String(value)] ?? String(value);
  const valueName = (o, value) => {
    if (o.kind !== "kinds") return choiceName(o, value);
    return value.length ? value.map((v) => choiceName(o, v)).join(", ") : t("lobby.rules.no_kinds");
  };
  const rows = [];
  const groups = [];

  const presetSelect = h("select#rules-preset", {},
    Object.keys(schema.presets).map((p) => h("option", { value: p }, texts.presets[p] || p)));
  const nameInput = h("input#rules-name", { maxlength: schema.limits.name, autocomplete: "off" });
  const description = h("p.muted.small.rules-description");
  const summary = h("span.rules-summary", { "aria-live": "polite" });
  const resetAll = h("button.small.rules-reset-all", { type: "button", onclick: () => reset() }, t("lobby.rules.reset_all"));
  const message = h("p.rules-message", { role: "status" });
  // (where the rules came from, when another page handed them over)
  const note = h("p.rules-note", { role: "status" });
  const error = h("p.error.rules-error", { role: "alert" });
  const fileInput = h("input#rules-file", { type: "file", accept: ".toml,.json,application/json,application/toml,text/plain", hidden: true });

  /** Every option at the preset's value; ``players`` stays the seats'. */
  const reset = () => {
    state.values = { ...structuredClone(base()), players: players() };
    draw();
  };
  const set = (name, value) => {
    state.values[name] = value;
    draw();
  };
  const draw = () => {
    for (const row of rows) row.update();
    for (const group of groups) group.update();
    const changed = options.filter((o) => !same(state.values[o.name], base()[o.name])).length;
    summary.textContent = changed ? t("lobby.rules.changed", { n: changed }) : t("lobby.rules.unchanged", { preset: texts.presets[state.preset] });
    resetAll.hidden = !changed;
    presetSelect.value = state.preset;
    nameInput.value = state.name;
    description.textContent = state.description;
    description.hidden = !state.description;
  };
  const clearNotes = () => {
    note.textContent = "";
    message.textContent = "";
    error.textContent = "";
  };

  presetSelect.addEventListener("change", () => {
    state.preset = presetSelect.value;
    clearNotes();
    reset();
  });
  nameInput.addEventListener("input", () => { state.name = nameInput.value; });

  // -- one option ---------------------------------------------------------------------
  const optionRow = (o) => {
    const id = `rule-${o.name}`;
    const help = texts.options[o.name]?.help || "";
    const helpText = h("p.rules-help.small", { id: `${id}-help`, hidden: true }, help);
    const helpToggle = help
      ? h("button.small.rules-help-toggle", {
        type: "button", "aria-expanded": "false", "aria-controls": `${id}-help`,
        "aria-label": t("lobby.rules.help_for", { option: title(o) }), title: t("lobby.rules.help_for", { option: title(o) }),
        onclick: () => {
          helpText.hidden = !helpText.hidden;
          helpToggle.setAttribute("aria-expanded", String(!helpText.hidden));
        },
      }, "?")
      : null;
    const mark = h("span.rules-changed-mark", {}, t("lobby.rules.differs"));
    const resetOne = h("button.small.rules-reset", {
      type: "button",
      onclick: () => {
        if (o.name === "players") setPlayers(base().players);
        else set(o.name, structuredClone(base()[o.name]));
      },
    }, "↺");
    let input;
    let update;
    const label = o.kind === "kinds" ? h("span.rules-title", { id: `${id}-title` }, title(o)) : h("label.rules-title", { for: id }, title(o));
    if (o.kind === "flag") {
      const box = h("input", { id, type: "checkbox", "data-rule": o.name });
      const said = h("span", {});
      box.addEventListener("change", () => set(o.name, box.checked));
      input = h("label.rules-flag", {}, box, said);
      update = () => {
        box.checked = Boolean(state.values[o.name]);
        said.textContent = valueName(o, box.checked);
      };
    } else if (o.kind === "choice") {
      const select = h("select", { id, "data-rule": o.name },
        o.choices.map((c) => h("option", { value: JSON.stringify(c) }, valueName(o, c))));
      select.addEventListener("change", () => set(o.name, JSON.parse(select.value)));
      input = select;
      update = () => { select.value = JSON.stringify(state.values[o.name]); };
    } else if (o.kind === "whole") {
      const number = h("input", { id, type: "number", min: o.min, max: o.max, step: 1, inputmode: "numeric", "data-rule": o.name });
      number.addEventListener("change", () => {
        const wanted = Math.round(Number(number.value));
        const n = Number.isFinite(wanted) && number.value !== "" ? Math.max(o.min, Math.min(o.max, wanted)) : base()[o.name];
        if (o.name === "players") setPlayers(n);
        else set(o.name, n);
        number.value = state.values[o.name];
      });
      input = o.name === "players"
        ? h("div.rules-players", {}, number, h("span.muted.small", {}, t("lobby.rules.players_seats")))
        : number;
      update = () => { number.value = state.values[o.name]; };
    } else { // kinds: a list of distinct choices (the solo kinds)
      const boxes = o.choices.map((c) => h("input", { type: "checkbox", value: c, "data-kind": c }));
      const read = () => o.choices.filter((c, i) => boxes[i].checked);
      for (const box of boxes) box.addEventListener("change", () => set(o.name, read()));
      input = h("ul.rules-kinds", { role: "group", "aria-labelledby": `${id}-title`, id, "data-rule": o.name },
        o.choices.map((c, i) => h("li", {}, h("label", {}, boxes[i], h("span", {}, choiceName(o, c))))));
      update = () => {
        const chosen = new Set(state.values[o.name] || []);
        boxes.forEach((box, i) => { box.checked = chosen.has(o.choices[i]); });
      };
    }
    const row = h("div.rules-option", { "data-rule-option": o.name },
      h("div.rules-head", {}, label, h("span.rules-tools", {}, mark, helpToggle, resetOne)),
      input,
      helpText);
    rows.push({
      update: () => {
        update();
        const differs = !same(state.values[o.name], base()[o.name]);
        row.classList.toggle("changed", differs);
        mark.hidden = !differs;
        resetOne.hidden = !differs;
        const back = t("lobby.rules.reset_one", { value: valueName(o, base()[o.name]) });
        resetOne.title = back;
        resetOne.setAttribute("aria-label", `${title(o)}: ${back}`);
      },
    });
    return row;
  };

  const differs = (o) => !same(state.values[o.name], base()[o.name]);
  const sections = schema.groups.map((group) => {
    const inGroup = options.filter((o) => o.group === group);
    const count = h("span.rules-count");
    const section = h("details.rules-group", { "data-group": group },
      h("summary", {}, h("span", {}, texts.groups[group] || group), count),
      h("div.rules-options", {}, inGroup.map(optionRow)));
    groups.push({
      update: () => {
        const n = inGroup.filter(differs).length;
        count.textContent = n ? t("lobby.rules.group_changed", { n }) : "";
      },
      // (after an import: the groups that hold what differs are opened)
      open: () => {
        if (inGroup.some(differs)) section.open = true;
      },
    });
    return section;
  });

  // -- the server's check: export, import ----------------------------------------------
  const rules = () => {
    const differ = {};
    for (const o of options) {
      if (!same(state.values[o.name], base()[o.name])) differ[o.name] = state.values[o.name];
    }
    const doc = { "kartentisch-rules": schema["kartentisch-rules"], game: schema.game, preset: state.preset };
    const name = state.name.trim();
    if (name) doc.name = name;
    if (state.description) doc.description = state.description;
    doc.options = differ;
    return doc;
  };
  const checkPath = `/api/rules/${encodeURIComponent(schema.game)}/check?lang=${lang}`;
  /** The editor's rules checked by the server: its answer, or null (the refusal shown). */
  const check = async () => {
    try {
      return await api(checkPath, { method: "POST", body: { rules: rules() } });
    } catch (refused) {
      clearNotes();
      error.textContent = refusal(refused, "");
      return null;
    }
  };
  /** Show a check's answer (``rules``: preset, name, description, every value). */
  const load = (checked) => {
    state.preset = checked.preset;
    state.name = checked.name || "";
    state.description = checked.description || "";
    state.values = structuredClone(checked.values);
    if (state.values.players !== players()) setPlayers(state.values.players);
    draw();
  };
  /** Check ``body`` (``{text}`` or ``{rules}``) and show it, and ``done`` in ``where``;
   * on a refusal keep what is shown. */
  const show = async (body, file, done, where = message) => {
    try {
      const checked = await api(checkPath, { method: "POST", body });
      load(checked.rules);
      for (const group of groups) group.open();
      clearNotes();
      where.textContent = done;
      return true;
    } catch (refused) {
      clearNotes();
      error.textContent = refusal(refused, file);
      return false;
    }
  };
  const exportButton = h("button#rules-export", {
    type: "button",
    onclick: async () => {
      const checked = await check();
      if (!checked) return;
      clearNotes();
      const file = exportName(checked.rules.name, schema.game);
      const url = URL.createObjectURL(new Blob([checked.toml], { type: "application/toml" }));
      const link = h("a", { href: url, download: file, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 0);
      message.textContent = t("lobby.rules.exported", { file });
    },
  }, t("lobby.rules.export"));
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files[0];
    fileInput.value = "";
    if (!file) return;
    if (file.size > schema.limits.bytes) {
      clearNotes();
      error.textContent = t("lobby.rules.too_large", { file: file.name, max: schema.limits.bytes });
      return;
    }
    await show({ text: await file.text() }, file.name, t("lobby.rules.imported", { file: file.name }));
  });
  const importButton = h("button#rules-import", { type: "button", onclick: () => fileInput.click() }, t("lobby.rules.import"));

  const element = h("fieldset.rules-editor", { "data-game": schema.game },
    h("legend", {}, t("lobby.rules.title")),
    note,
    h("label", {}, h("span", {}, t("lobby.rules.preset")), presetSelect),
    h("label", {}, h("span", {}, t("lobby.rules.name")), nameInput),
    description,
    h("div.row.rules-status", {}, summary, resetAll),
    h("div.rules-groups", {}, sections),
    h("div.row.rules-files", {}, exportButton, importButton, fileInput),
    message,
    error);
  reset();
  element.dataset.ready = "";
  return {
    element,
    names: options.map((o) => o.name),
    rules,
    check,
    load,
    /** Fill the editor from a rule-set document (through the server's check); ``done``
     * is said at the editor's top. */
    open: (doc, done) => show({ rules: doc }, "", done, note),
    setPlayers(n) {
      state.values.players = n;
      draw();
    },
    showError(text) {
      clearNotes();
      error.textContent = text;
    },
  };
}

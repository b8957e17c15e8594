// judgekb scenario builder: a board and steps from menus; writes the scenario YAML, runs it on
// /api/run, and keeps the whole builder state in the URL fragment as the form changes (a share link is that URL; nothing stored on the server).
(function () {
  "use strict";
  var form = document.getElementById("builder");
  if (!form) return;

  var ZONES = [["in_play", "In play"], ["hand", "Hand"], ["deck", "Deck (top first; the whole deck)"], ["discard", "Discard pile"], ["dead", "Dead pile"],
               ["shadows", "Shadows (facedown, 2nd edition)"]];
  function zonesOf() { return state.edition === "1" ? ZONES.slice(0, 5) : ZONES; }  // shadows are a second-edition area
  var HOUSES = {
    "1": ["Baratheon", "Greyjoy", "Lannister", "Martell", "Stark", "Targaryen", "neutral"],
    "2": [["baratheon", "Baratheon"], ["greyjoy", "Greyjoy"], ["lannister", "Lannister"], ["martell", "Martell"], ["thenightswatch", "The Night's Watch"],
          ["stark", "Stark"], ["targaryen", "Targaryen"], ["tyrell", "Tyrell"], ["neutral", "neutral"]]
  };
  var ICONS = ["military", "intrigue", "power"];
  // the melee title cards (corpus/titles.yaml, titles2.yaml): a game of three or more players uses them (RR Melee
  // Game; 1st ed. Rules of Play, the melee titles); two players have no title, so the menu is shown only then
  var TITLES = { "1": ["Crown Regent", "Hand of the King", "Lord Commander of the Kingsguard", "Master of Coin", "Master of Laws", "Master of Whispers"],
                 "2": ["Crown Regent", "Hand of the King", "Master of Coin", "Master of Laws", "Master of Ships", "Master of Whispers"] };
  function melee() { return state.players.length > 2; }
  var TARGETED = ["str", "kneel", "stand"];  // the reaction effects that need a target character
  var STEP_KINDS = [
    ["challenge", "Challenge declared"], ["defend", "Defenders declared"], ["strength", "STR modified (effect)"],
    ["kill", "Card killed (effect)"], ["kneel", "Card knelt (effect)"], ["stand", "Card stood (effect)"],
    ["remove", "Character removed from the challenge (effect)"], ["control", "Control taken (effect)"],
    ["enter", "Card put into play with ambush, or brought out of shadows"],
    ["claim", "Challenge resolved (claim and keyword choices)"], ["phase", "Phase begins"], ["end_phase", "Phase ends"],
    ["end_round", "Round ends"], ["note", "Note"]
  ];
  var PHASES = { "1": ["plot", "draw", "marshalling", "challenges", "dominance", "standing", "taxation"],
                 "2": ["plot", "draw", "marshaling", "challenges", "dominance", "standing", "taxation"] };
  var UNTIL = ["end of phase", "end of challenge", "end of round", "permanent"];
  // the card texts the engine applies, as a card's `constant` and `cannot` (docs/scenarios.md, "Card fields"): a
  // printed sentence is not read from the card data, so the form offers them (r70 H1, H2).  The first edition applies
  // no constant ability and its own `cannot` words.
  var NO_KNEEL_ROLES = [["", "\u2014 kneels as usual \u2014"], ["an attacker", "an attacker"], ["a defender", "a defender"], ["an attacker or defender", "an attacker or defender"]];
  var NO_KNEEL_IN = [["", "any challenge"], ["military", "a [military] challenge"], ["intrigue", "an [intrigue] challenge"], ["power", "a [power] challenge"]];
  var NO_KNEEL = /^does not kneel when declared as (an attacker|a defender|an attacker or defender)(?: in an? (military|intrigue|power) challenge)?$/;
  var CANNOTS = { "1": ["be killed", "be discarded", "be saved"], "2": ["be killed", "be discarded", "be knelt", "be saved", "be bypassed by stealth"] };
  function noKneelText(role, type) { return "does not kneel when declared as " + role + (type ? " in " + (type === "intrigue" ? "an " : "a ") + type + " challenge" : ""); }

  var state = blank();
  var lineOwner = [];  // YAML line number (1-based) -> element id that wrote it
  var cardCache = {};  // ck(name) -> suggestion from /api/cards
  // a title as a judge types it, read as the server's /card reads it (app.js's names: no apostrophes, a possessive's
  // "'s" as "s" or left out): "Jaqen Hghar" is Jaqen H'ghar; and a phone keyboard's curly apostrophe is the straight one
  var names = window.judgekbNames || { loose: function (t) { return String(t).toLowerCase(); }, keys: function (t) { return [String(t).toLowerCase()]; } };
  function ck(name) { return String(name).replace(/#\d+$/, "").toLowerCase().replace(/[\u2018\u2019`\u00b4]/g, "'"); }
  var stepOwners = [null];  // the ruling's step N -> the id of the form's step that wrote it
  var stepNames = [null];  // the ruling's step N (the YAML's) -> as the form numbers it ("step 3", "the resolution added after step 2")
  // the ruling asks for a choice in the scenario format's words ("(state first_player)"): where the form has the field, it is named
  var ASKED = { "first_player": "choose it in the plot step's \u201cFirst player\u201d menu", "random_winner": "choose it in the plot step's \u201cRandom tie won by\u201d menu",
                "'discard'": "tick them under the taxation step" };
  function inForm(text) {
    return String(text).replace(/\(state ([^)]+)\)/g, function (m, k) { return ASKED[k] ? "(" + ASKED[k] + ")" : m; })
      .replace(/(deadly: a choice is needed .*)$/, "$1 (choose it in the \u201cDeadly kills\u201d menu of the \u201cChallenge resolved\u201d step)");
  }
  function asForm(text) { return inForm(String(text).replace(/\bstep (\d+)\b/g, function (m, n) { return stepNames[+n] || m; })); }
  var typing = {};  // "player:zone" -> a card name typed but not yet added (kept across re-renders)

  function blank() {
    return { edition: "2", title: "", phase: "challenges", players: [player("Player A", true), player("Player B", false)], steps: [] };
  }
  function player(name, first) {
    return { name: name, house: "", plot: { name: "", income: "", initiative: "", claim: "", reserve: "" }, first: first, power: "",
             gold: "", zones: { in_play: [], hand: [], deck: [], discard: [], dead: [], shadows: [] } };
  }
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "class") e.className = attrs[k];
      else if (k.slice(0, 2) === "on") e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  function labelled(text, input) { return el("label", {}, [el("span", { class: "lbl", text: text }), input]); }
  function input(value, onchange, attrs) {
    var i = el("input", Object.assign({ value: value === undefined ? "" : value }, attrs || {}));
    i.addEventListener("input", function () { onchange(i.value); refreshYaml(); });
    i.addEventListener("change", function () { onchange(i.value); renderSoon(); });
    return i;
  }
  function select(options, value, onchange, attrs) {
    var s = el("select", attrs || {});
    options.forEach(function (o) {
      var v = Array.isArray(o) ? o[0] : o, t = Array.isArray(o) ? o[1] : o;
      var opt = el("option", { value: v, text: t }); if (String(v) === String(value)) opt.selected = true; s.appendChild(opt);
    });
    s.addEventListener("change", function () { onchange(s.value); render(); });
    return s;
  }
  function allCards() {
    var out = [];
    state.players.forEach(function (p) { zonesOf().forEach(function (z) { (p.zones[z[0]] || []).forEach(function (c) { out.push({ card: c, player: p, zone: z[0] }); }); }); });
    return out;
  }
  function cardKey(c) { return c.id || c.name; }
  function playerNames() { return state.players.map(function (p) { return p.name; }); }

  // ------------------------------------------------------------------ rendering the form
  // A field's "change" re-renders the form.  It fires as the judge taps the next field, so that field (and the
  // focus) would go with the old form: render() puts the focus back on its twin, and a change renders once the
  // tap has moved the focus.
  var FOCUSABLE = "input, select, textarea";
  function focusKey() {
    var e = document.activeElement;
    if (!e || e === document.body || e.tagName === "BUTTON" || !form.contains(e)) return null;  // a field, not a button that moved things
    var box = e.parentNode && e.parentNode.closest ? e.parentNode.closest("[id]") : null;
    if (e.id || !box) return { id: e.id, i: -1 };
    var key = { id: box.id, i: Array.prototype.indexOf.call(box.querySelectorAll(FOCUSABLE), e) };
    try { key.start = e.selectionStart; key.end = e.selectionEnd; } catch (err) { /* no caret in this kind of field */ }
    return key;
  }
  function refocus(key) {
    if (!key || !key.id) return;
    var box = document.getElementById(key.id);
    var e = box && (key.i < 0 ? box : box.querySelectorAll(FOCUSABLE)[key.i]);
    if (!e || e === document.activeElement) return;
    e.focus({ preventScroll: true });
    try { if (key.start !== undefined && key.start !== null) e.setSelectionRange(key.start, key.end); } catch (err) { /* not a text field */ }
  }
  // A tap on another part of the form fires the typed field's "change" at the pointer's press: rendering then would
  // replace the tapped element before its click (a folded section did not open, a checkbox was not ticked), so while
  // a pointer is down the render waits for the click (or the release, if no click follows).
  // The timers belong to one press: the last tap's release timer, firing while the judge's next tap is held down
  // (a quick typist, a busy phone), would render under that tap and lose it.  Card data arriving from the server
  // (renderSoon, not render) waits for the press in the same way.
  var pointerDown = false, renderWaiting = false, presses = 0;
  function flushRender() { pointerDown = false; if (renderWaiting) { renderWaiting = false; render(); } }
  function flushAfter(ms) { var press = presses; setTimeout(function () { if (press === presses) flushRender(); }, ms); }
  document.addEventListener("pointerdown", function () { presses += 1; pointerDown = true; }, true);
  document.addEventListener("click", function () { flushAfter(0); }, true);  // after the click's own work
  ["pointerup", "pointercancel"].forEach(function (t) { document.addEventListener(t, function () { flushAfter(120); }, true); });
  function renderSoon() { if (pointerDown) renderWaiting = true; else setTimeout(render, 0); }
  var openKeep = {};  // a folded section's key -> it is open: a re-render keeps what the judge opened
  function keepOpen(details, key) {
    details.dataset.keep = key;
    if (openKeep[key]) details.open = true;
    return details;
  }

  function render() {
    var focused = focusKey();
    Array.prototype.forEach.call(form.querySelectorAll("details[data-keep]"), function (d) { openKeep[d.dataset.keep] = d.open; });
    var box = document.getElementById("b-players");
    box.textContent = "";
    document.getElementById("b-edition").value = state.edition;
    document.getElementById("b-title").value = state.title;
    var phase = document.getElementById("b-phase");  // the phase the board is in before the first step (the scenario's `phase`)
    phase.textContent = "";
    PHASES[state.edition].forEach(function (name) { phase.appendChild(el("option", { value: name, text: name + (name === "challenges" ? " (default)" : "") })); });
    phase.value = state.phase;
    state.players.forEach(function (p, pi) { box.appendChild(renderPlayer(p, pi)); });
    var steps = document.getElementById("b-steps");
    steps.textContent = "";
    state.steps.forEach(function (s, si) { steps.appendChild(renderStep(s, si)); });
    var kind = document.getElementById("b-step-kind");
    if (!kind.options.length) STEP_KINDS.forEach(function (k) { kind.appendChild(el("option", { value: k[0], text: k[1] })); });
    Array.prototype.forEach.call(kind.options, function (o) {  // ambush and shadows are second-edition keywords
      if (o.value === "enter") { o.disabled = o.hidden = state.edition === "1"; if (o.disabled && o.selected) kind.value = STEP_KINDS[0][0]; }
    });
    refreshYaml();
    repin();
    refocus(focused);
  }

  function renderPlayer(p, pi) {
    var fs = el("fieldset", { class: "player", id: "p" + pi });
    fs.appendChild(el("legend", { text: "Player " + (pi + 1) }));
    var houseLabel = state.edition === "1" ? "House" : "Faction";
    fs.appendChild(el("div", { class: "row" }, [
      labelled("Name", input(p.name, function (v) { renamePlayer(p, v); }, { "aria-label": "Player " + (pi + 1) + " name", class: "p-name" })),
      labelled(houseLabel, select([["", "—"]].concat(HOUSES[state.edition]), p.house, function (v) { p.house = v; }, { class: "p-house" })),
      melee() ? labelled("Title (melee)", select([["", "— none chosen —"]].concat(TITLES[state.edition]), p.title || "", function (v) { if (v) p.title = v; else delete p.title; }, { class: "p-title" })) : null,
      el("label", {}, [(function () {
        var r = el("input", { type: "radio", name: "first", class: "p-first" }); r.checked = !!p.first;
        r.addEventListener("change", function () { state.players.forEach(function (q) { q.first = q === p; }); render(); });
        return r;
      })(), " first player"]),
      labelled(state.edition === "1" ? "Power on House card" : "Power on faction card", input(p.power, function (v) { p.power = v; }, { inputmode: "numeric", size: 3, class: "p-power" })),
      labelled("Gold in pool", input(p.gold, function (v) { p.gold = v; }, { inputmode: "numeric", size: 3, class: "p-gold" }))
    ]));
    var plot = p.plot, titled = cardCache[ck((plot.name || "").trim())];
    if (titled && titled.name !== plot.name) plot.name = titled.name;  // "a noble cause" is A Noble Cause: the ruling names it so
    var plotRow = el("div", { class: "row plot", id: "p" + pi + "-plot" }, [
      labelled("Plot", cardNameInput(plot.name, function (v) { plot.name = v; }, "plot")),
      labelled("Income", input(plot.income, function (v) { plot.income = v; }, { inputmode: "numeric", size: 2 })),
      labelled("Initiative", input(plot.initiative, function (v) { plot.initiative = v; }, { inputmode: "numeric", size: 2 })),
      labelled("Claim", input(plot.claim, function (v) { plot.claim = v; }, { inputmode: "numeric", size: 2 }))
    ]);
    if (state.edition === "2") plotRow.appendChild(labelled("Reserve", input(plot.reserve, function (v) { plot.reserve = v; }, { inputmode: "numeric", size: 2 })));
    fs.appendChild(plotRow);
    var said = plotNote(p);
    if (said) fs.appendChild(said);
    fs.appendChild(renderZone(p, pi, "in_play", "In play"));
    var others = zonesOf().slice(1), filled = others.filter(function (z) { return p.zones[z[0]].length; }).length;
    var more = el("details", { class: "zones" }, [el("summary", { text: "Hand, deck, discard and dead pile" + (state.edition === "2" ? ", shadows" : "") + (filled ? " (" + others.map(function (z) { return p.zones[z[0]].length; }).reduce(function (a, b) { return a + b; }) + " cards)" : "") })]);
    keepOpen(more, "zones:" + pi);
    if (filled) more.open = true;
    others.forEach(function (z) { more.appendChild(renderZone(p, pi, z[0], z[1])); });
    fs.appendChild(more);
    if (melee() && !p.title) fs.appendChild(el("p", { class: "near title-note", text: "A game of three or more players is a melee: each player bears a title this round. Choose " + p.name + "\u2019s, or the ruling is made with no title." }));
    if (state.players.length > 2) fs.appendChild(el("button", { type: "button", class: "secondary", text: "Remove player", onclick: function () {
      state.players.splice(pi, 1);
      if (!melee()) state.players.forEach(function (q) { delete q.title; });  // two players: no titles (a joust)
      render();
    } }));
    return fs;
  }

  function renderZone(p, pi, zone, title) {
    var wrap = el("div", { class: "zone", "data-zone": zone });
    var list = el("ul", { class: "cards" });
    p.zones[zone].forEach(function (c, ci) { list.appendChild(renderCard(p, pi, zone, c, ci)); });
    // (not the shared input(): its "change" re-renders the form, so tapping Add after typing lost the name)
    var slot = pi + ":" + zone;
    var name = el("input", { list: "b-card-names", autocomplete: "off", placeholder: "card name", "aria-label": p.name + ": add a card to " + title, class: "add-card" });
    name.value = typing[slot] || "";
    name.addEventListener("input", function () { typing[slot] = name.value; suggest(name.value, "card"); });
    function add() {
      var v = name.value.trim(); if (!v) return;
      lookupCard(v).then(function (known) {
        delete typing[slot];
        place(p, zone, known ? known.name : v, known);
        render();
        var again = document.querySelector("#p" + pi + " [data-zone=" + zone + "] .add-card"); if (again) again.focus();
      });
    }
    name.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); add(); } });
    wrap.appendChild(el("h3", { text: title + (p.zones[zone].length ? " (" + p.zones[zone].length + ")" : "") }));
    wrap.appendChild(list);
    wrap.appendChild(el("div", { class: "row" }, [name, el("button", { type: "button", class: "secondary", text: "Add", "aria-label": "Add card to " + title, onclick: add })]));
    if (zone === "deck") wrap.appendChild(deckNote(p));
    return wrap;
  }

  // a deck the scenario lists is the whole deck, one left out is unknown (docs/scenarios.md; the format has no "more
  // cards below"): a judge who listed only the top card for pillage read "eliminated" in the ruling
  function deckNote(p) {
    var n = p.zones.deck.length, ends = state.edition === "2";
    return el("p", { class: n ? "near deck-note" : "muted deck-note" }, [el("strong", { text: "Cards listed here are the whole deck" }),
      " (there is no “more cards below”)" + (n ? ": " + p.name + "’s deck holds only " + (n === 1 ? "this card" : "these " + n + " cards") : "") + ". " +
      (ends ? "A player whose deck runs out is eliminated, so a draw or pillage that takes the last card listed ends the game for them. " : "") +
      "Leave the deck empty when its cards do not matter: it is then unknown" + (ends ? ", and running out of it eliminates no one." : ".")]);
  }

  // a card put in a player's zone: a unique card's second copy in play is its duplicate (RR Duplicates); each other
  // card gets a key of its own (another player's copy is named with its player, a second copy of one's own numbered)
  function place(p, zone, name, known) {
    var printed = known && (known.printings[0] || {}).values || {};
    var same = p.zones[zone].filter(function (c) { return c.name === name; })[0];
    if (zone === "in_play" && same && printed.unique) { same.duplicates = (same.duplicates || []).concat([true]); return cardKey(same); }
    var base = allCards().some(function (x) { return x.card.name === name && x.player !== p; }) ? name + " (" + p.name + ")" : name;
    var n = allCards().filter(function (x) { return x.card.name === name && x.player === p; }).length, key = n ? base + " #" + (n + 1) : base;
    while (allCards().some(function (x) { return cardKey(x.card) === key; })) key = base + " #" + (++n + 1);
    var card = { name: name }; if (key !== name) card.id = key;
    if (known && distinctPrintings(known).length > 1) card.printing = known.printings[0].code;  // the first printing; a menu changes it
    if (!known) nearNames(name);  // a typo is likelier than a homemade card: the nearest titles are offered at once
    p.zones[zone].push(card);
    return key;
  }
  function renderCard(p, pi, zone, c, ci) {
    var id = "p" + pi + "-" + zone + "-" + ci;
    var known = cardCache[ck(c.name)];
    var chosen = known && (known.printings.filter(function (pr) { return pr.code === c.printing; })[0] || known.printings[0]);
    var summary = known ? describe(chosen.values) + (known.printings.length > 1 ? " — " + chosen.set + " " + chosen.number : "") : "not in the card database: give its values";
    var li = el("li", { class: "card", id: id }, [
      el("strong", { text: cardKey(c) }), " ", el("span", { class: "muted", text: summary })
    ]);
    var near = !known && nearCache[ck(c.name)];
    if (near && near.length) {
      var mean = el("p", { class: "near" }, ["Did you mean: "]);
      near.forEach(function (title, i) {
        if (i) mean.appendChild(document.createTextNode(" "));
        mean.appendChild(el("button", { type: "button", class: "link", text: title, onclick: function () {
          var old = cardKey(c);
          p.zones[zone].splice(ci, 1);  // taken off, then added again under its real title, as Add adds a card
          lookupCard(title).then(function (k) { var key = place(p, zone, title, k); rename(old, key || ""); renderSoon(); });
        } }));
      });
      li.appendChild(mean);
    }
    var more = keepOpen(el("details", {}, [el("summary", { text: "values (override the printing)" })]), "values:" + id);
    var row = el("div", { class: "row" }, [
      labelled("STR", input(c.str, function (v) { setOrDrop(c, "str", v); }, { inputmode: "numeric", size: 2 })),
      labelled("Icons", input((c.icons || []).join(" "), function (v) { setList(c, "icons", v); }, { placeholder: "military intrigue power", size: 14 })),
      labelled("Keywords", input((c.keywords || []).join(", "), function (v) { setList(c, "keywords", v, ","); }, { placeholder: "renown, stealth", size: 14 })),
      labelled("Type", select([["", "—"], "character", "location", "attachment", "event", "plot", "agenda"], c.type || "", function (v) { setOrDrop(c, "type", v); })),
      el("label", {}, [(function () { var k = el("input", { type: "checkbox" }); k.checked = !!c.kneeling; k.addEventListener("change", function () { if (k.checked) c.kneeling = true; else delete c.kneeling; render(); }); return k; })(), " knelt"])
    ]);
    more.appendChild(row);
    more.appendChild(cardTexts(c));
    var texts = (c.constant || []).concat((c.cannot || []).map(function (w) { return "cannot " + w; }));
    if (texts.length) li.appendChild(el("span", { class: "muted card-texts-said", text: "text: " + texts.join("; ") + " " }));
    if (known && distinctPrintings(known).length > 1) {  // printings differ: the choice is shown, never hidden
      if (!c.printing) c.printing = known.printings[0].code;  // as Add chooses
      li.appendChild(el("div", { class: "row printing" }, [labelled("Printing (they differ)", select(known.printings.map(function (pr) {
        return [pr.code, pr.set + " " + pr.number + " — " + describe(pr.values)];
      }), c.printing || "", function (v) { if (v) c.printing = String(v); else delete c.printing; }, { class: "card-printing" }))]));
    }
    if (!known && c.str === undefined && zone === "in_play") more.open = true;
    li.appendChild(more);
    if (zone === "in_play" && isAttachment(c)) {  // an attachment is in play attached to a card (RR Attachment Cards)
      if (c.attach_to && !hostOf(c)) delete c.attach_to;  // its card left play or is no longer a card it can go on
      li.appendChild(el("div", { class: "row attach" }, [labelled("Attached to", cardSelect(c.attach_to || "", function (v) { if (v) c.attach_to = v; else delete c.attach_to; },
        function (x) { return x.zone === "in_play" && x.card !== c && !isAttachment(x.card); }))]));
      if (!c.attach_to) li.appendChild(el("p", { class: "error attach-note", text: "Choose the card it is attached to: an attachment is only in play attached to a card." }));
    }
    var carried = zone === "in_play" ? attachedTo(c).map(function (x) { return cardKey(x.card); }) : [];
    if (carried.length) li.appendChild(el("span", { class: "muted attached", text: "with " + carried.join(", ") + " attached " }));
    if ((c.duplicates || []).length) {  // further copies of a unique card, under it (RR Duplicates)
      li.appendChild(el("span", { class: "muted dupes", text: "with " + c.duplicates.length + " duplicate" + (c.duplicates.length > 1 ? "s" : "") + " " }));
      li.appendChild(el("button", { type: "button", class: "link", text: "remove a duplicate", onclick: function () { c.duplicates.pop(); if (!c.duplicates.length) delete c.duplicates; render(); } }));
    }
    li.appendChild(el("button", { type: "button", class: "link", text: "remove", "aria-label": "Remove " + cardKey(c), onclick: function () { p.zones[zone].splice(ci, 1); forget(cardKey(c)); render(); } }));
    return li;
  }

  // the card's texts the engine applies, written as its `constant` and `cannot` lists
  function cardTexts(c) {
    var box = el("div", { class: "card-texts" }, [el("p", { class: "muted", text: "Card text the engine applies (printed text is not read: give it here; " +
      "text one card gives another, such as Benjen Stark\u2019s \u201cEach Ranger character you control cannot be bypassed by stealth\u201d, goes on each card it affects):" })]);
    if (state.edition === "2") {
      var m = NO_KNEEL.exec((c.constant || [])[0] || ""), role = m ? m[1] : "", type = m && m[2] || "";
      var setNoKneel = function (r, t) { if (r) c.constant = [noKneelText(r, t)]; else delete c.constant; };
      box.appendChild(el("div", { class: "row" }, [
        labelled("Does not kneel when declared as", select(NO_KNEEL_ROLES, role, function (v) { setNoKneel(v, type); }, { class: "c-no-kneel" })),
        labelled("in", select(NO_KNEEL_IN, type, function (v) { setNoKneel(role, v); }, { class: "c-no-kneel-in" }))
      ]));
    }
    var checks = el("div", { class: "checks", role: "group", "aria-label": "cannot" });
    CANNOTS[state.edition].forEach(function (w) {
      var k = el("input", { type: "checkbox", value: w }); k.checked = (c.cannot || []).indexOf(w) >= 0;
      k.addEventListener("change", function () {
        var left = (c.cannot || []).filter(function (x) { return x !== w; }).concat(k.checked ? [w] : []);
        if (left.length) c.cannot = left; else delete c.cannot;
        render();
      });
      checks.appendChild(el("label", { class: "check" }, [k, " cannot " + w]));
    });
    box.appendChild(checks);
    return box;
  }
  function cannotBe(key, what) {  // does the card say it cannot be X-ed (its `cannot` list)?
    var x = allCards().filter(function (y) { return cardKey(y.card) === key; })[0];
    return !!x && (x.card.cannot || []).indexOf(what) >= 0;
  }

  // what the card data says of the plot named: its printed values (the plot fields stay blank, a value typed in one
  // wins), or that no plot has that title, with the nearest titles (a typo ran silently with a blank plot's values)
  var plotAsked = {};
  function plotNote(p) {
    var name = (p.plot.name || "").trim(), key = ck(name);
    if (!name || form.dataset.cards !== "1") return null;
    var known = cardCache[key];
    if (known) {
      var v = (known.printings[0] || {}).values || {};
      if (v.type !== "plot") return el("p", { class: "error plot-note", text: known.name + " is not a plot card (it is a" + (/^[aeiou]/.test(v.type || "") ? "n " : " ") + (v.type || "card") + ")." });
      var bits = [["income", v.income], ["initiative", v.initiative], ["claim", v.claim], ["reserve", v.reserve]].filter(function (b) { return b[1] !== undefined && b[1] !== null; });
      return el("p", { class: "muted plot-note", text: "Printed: " + bits.map(function (b) { return b[0] + " " + b[1]; }).join(" · ") + " (a value typed above wins)" });
    }
    if (!plotAsked[key]) {
      plotAsked[key] = true;
      lookupCard(name).then(function (k) {
        if (!k) nearNames(name);
        else if (k.name !== name && p.plot.name.trim() === name) p.plot.name = k.name;  // as the card data spells it: the run reads that
        renderSoon();
      });
      return null;
    }
    var note = el("p", { class: "near plot-note" }, ["Not a plot in the card database: its values are 0 (claim 1, reserve 6) unless typed above. "]);
    var near = nearCache[key] || [];
    if (near.length) note.appendChild(document.createTextNode("Did you mean: "));
    near.forEach(function (title, i) {
      if (i) note.appendChild(document.createTextNode(" "));
      note.appendChild(el("button", { type: "button", class: "link", text: title, onclick: function () { p.plot.name = title; lookupCard(title).then(renderSoon); } }));
    });
    return note;
  }
  var nearCache = {};  // lower-case typed name -> the nearest titles in the card data
  // The card data's answer for this edition.  A reply that arrives after the judge switched edition is the
  // other edition's (on venue wifi it can come late): it is dropped, not cached as this edition's cards,
  // or a printing code of the other edition would be chosen and the run refused.
  function cards(query) {
    var asked = state.edition;
    return fetch("/api/cards?edition=" + asked + query)
      .then(function (r) { return r.ok ? r.json() : []; })
      .then(function (found) { return asked === state.edition ? found : null; });  // null: a stale reply, ignored
  }
  function nearNames(name) {
    cards("&near=1&prefix=" + encodeURIComponent(name))
      .then(function (found) { if (!found) return; nearCache[ck(name)] = found; if (found.length) renderSoon(); }).catch(function () {});
  }
  // every place a step names a card: its lists, single fields, stealth choices (attacker -> target), reactions
  function eachCardRef(change) {  // change(key) -> the key to keep, or "" to drop it
    state.steps.forEach(function (s) {
      ["attackers", "defenders", "cards", "save", "vigilant", "vengeful"].forEach(function (f) {
        if (Array.isArray(s[f])) s[f] = s[f].map(change).filter(Boolean);
      });
      ["target", "intimidate", "card", "onto", "deadly", "infamy"].forEach(function (f) { if (s[f]) s[f] = change(s[f]); });
      if (s.stealth) {
        var moved = {};
        Object.keys(s.stealth).forEach(function (k) { var a = change(k), t = change(s.stealth[k]); if (a && t) moved[a] = t; });
        s.stealth = moved;
      }
      (s.reactions || []).forEach(function (r) { r.card = r.card && change(r.card); r.target = r.target && change(r.target); });
      Object.keys(s.discard || {}).forEach(function (k) { s.discard[k] = s.discard[k].map(change).filter(Boolean); });
    });
  }
  function rehost(change) { allCards().forEach(function (x) { if (x.card.attach_to) { var k = change(x.card.attach_to); if (k) x.card.attach_to = k; else delete x.card.attach_to; } }); }
  function rename(from, to) { var f = function (k) { return k === from ? to : k; }; eachCardRef(f); rehost(f); }  // a renamed card keeps its place
  function forget(key) { var f = function (k) { return k === key ? "" : k; }; eachCardRef(f); rehost(f); }  // a removed card leaves no step naming it
  function distinctPrintings(known) {
    var seen = {}; return known.printings.filter(function (p) { var k = JSON.stringify(p.values); if (seen[k]) return false; seen[k] = 1; return true; });
  }
  function describe(v) {
    var bits = [v.type || ""];
    if (v.str !== undefined) bits.push("STR " + v.str);
    if (v.icons && v.icons.length) bits.push(v.icons.join("/"));
    if (v.keywords && v.keywords.length) bits.push(v.keywords.join(", "));
    if (v.unique) bits.push("unique");
    return bits.filter(Boolean).join(" · ");
  }
  function setOrDrop(obj, key, v) { v = String(v).trim(); if (v === "") delete obj[key]; else obj[key] = /^[+-]?\d{1,6}$/.test(v) ? parseInt(v, 10) : v; }
  function setList(obj, key, v, sep) {
    var items = String(v).split(sep || /[\s,]+/).map(function (s) { return s.trim(); }).filter(Boolean);
    if (items.length) obj[key] = items; else delete obj[key];
  }
  function renamePlayer(p, v) {
    var old = p.name; p.name = v;
    state.steps.forEach(function (s) {
      ["attacker", "against", "player", "first_player", "random_winner"].forEach(function (k) { if (s[k] === old) s[k] = v; });
      if (s.discard && s.discard[old]) { s.discard[v] = s.discard[old]; delete s.discard[old]; }
      (s.reactions || []).forEach(function (r) { r.to = r.to.replace(new RegExp("^(win|lose): " + old.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "$"), "$1: " + v); });
    });
    ZONES.forEach(function (z) {  // "Robb Stark (Player B)" follows the player's new name, in the steps too
      p.zones[z[0]].forEach(function (c) {
        if (c.id && c.id.indexOf(" (" + old + ")") >= 0) { var was = c.id; c.id = c.id.replace(" (" + old + ")", " (" + v + ")"); rename(was, c.id); }
      });
    });
  }

  function cardNameInput(value, onchange, kind, attrs) {
    var i = input(value, onchange, Object.assign({ list: "b-card-names", autocomplete: "off" }, attrs || {}));
    i.addEventListener("input", function () { suggest(i.value, kind); });
    return i;
  }
  var suggestTimer = null, lastSuggest = "";
  function suggest(prefix, kind) {
    clearTimeout(suggestTimer);
    suggestTimer = setTimeout(function () {
      var key = state.edition + "|" + prefix.trim().toLowerCase();
      if (!prefix.trim() || key === lastSuggest) return; lastSuggest = key;
      cards("&prefix=" + encodeURIComponent(prefix.trim()))
        .then(function (found) {
          if (!found) return;
          var dl = document.getElementById("b-card-names"); dl.textContent = "";
          found.forEach(function (f) {
            cardCache[ck(f.name)] = f;
            if (kind === "plot" && f.printings[0].values.type !== "plot") return;
            dl.appendChild(el("option", { value: f.name, label: describe(f.printings[0].values) }));
          });
        }).catch(function () {});
    }, 120);
  }
  function lookupCard(name) {  // the suggestion for exactly this name, asking the server if needed
    var key = ck(name), typed = name.replace(/#\d+$/, "");
    if (cardCache[key]) return Promise.resolve(cardCache[key]);
    return cards("&prefix=" + encodeURIComponent(typed))
      .then(function (found) {
        (found || []).forEach(function (f) { cardCache[ck(f.name)] = f; });
        if (cardCache[key]) return cardCache[key];
        // typed without its apostrophe ("Jaqen Hghar"): the one title that name spells, as /card would open it
        var loose = names.loose(typed), same = (found || []).filter(function (f) { return names.keys(f.name).indexOf(loose) >= 0; });
        return same.length === 1 ? same[0] : null;
      })
      .catch(function () { return null; });
  }
  function learn(names) {  // fetch printed values for cards typed before suggestions arrived (share links)
    names.forEach(function (n) {
      var base = n.replace(/#\d+$/, ""); if (cardCache[ck(base)]) return;
      cards("&prefix=" + encodeURIComponent(base))
        .then(function (found) { var hit = false; (found || []).forEach(function (f) { cardCache[ck(f.name)] = f; if (ck(f.name) === ck(base)) hit = true; }); if (hit) renderSoon(); })
        .catch(function () {});
    });
  }

  // ------------------------------------------------------------------ steps
  function newStep(kind) {
    var names = playerNames(), first = state.players.filter(function (p) { return p.first; })[0] || state.players[0];
    var other = state.players.filter(function (p) { return p !== first; })[0] || first;
    switch (kind) {
      case "challenge": return { kind: kind, attacker: first.name, type: "military", against: other.name, attackers: [] };
      case "defend": return { kind: kind, player: other.name, defenders: [] };
      case "strength": return { kind: kind, target: "", amount: 1, until: "end of phase", source: "" };
      case "kill": case "kneel": case "stand": case "remove": return { kind: kind, target: "" };
      case "control": return { kind: kind, target: "", player: first.name, until: "permanent" };
      case "enter": return { kind: kind, player: first.name, how: "ambush", card: "", onto: "" };
      case "claim": return { kind: kind, claim: "military", cards: [], decline: [], use: [], intimidate: "" };
      case "phase": return { kind: kind, name: "challenges" };
      case "note": return { kind: kind, text: "" };
      default: return { kind: kind, names: names };
    }
  }
  // mark(x), if given: why the rules forbid choosing card x here ({text, off: true} when it cannot be chosen at all)
  function cardChecklist(cards, chosen, onchange, label, mark) {
    var box = el("div", { class: "checks", role: "group", "aria-label": label });
    if (!cards.length) box.appendChild(el("span", { class: "muted", text: "(no cards in play yet)" }));
    cards.forEach(function (x) {
      var k = cardKey(x.card), c = el("input", { type: "checkbox", value: k }), why = mark ? mark(x) : null;
      if (why && why.off) { var at = chosen.indexOf(k); if (at >= 0) chosen.splice(at, 1); c.disabled = true; }
      c.checked = chosen.indexOf(k) >= 0;
      c.addEventListener("change", function () {
        var i = chosen.indexOf(k); if (c.checked && i < 0) chosen.push(k); if (!c.checked && i >= 0) chosen.splice(i, 1); onchange(); render();
      });
      box.appendChild(el("label", { class: "check" + (why ? " forbidden" : "") }, [c, " " + k].concat(why ? [el("span", { class: "why", text: " — " + why.text })] : [])));
    });
    return box;
  }
  function iconsOf(c) {  // as typed, else as its chosen printing prints them (null: not known)
    if (c.icons) return c.icons;
    var known = cardCache[ck(c.name)], printed = known && (known.printings.filter(function (pr) { return pr.code === c.printing; })[0] || known.printings[0]);
    return printed ? printed.values.icons || [] : null;
  }
  // a character the rules do not let attack or defend in a challenge of this type (RR 4.1, 4.2.1: standing, with the icon)
  function cannotJoin(type, defending) {
    return function (x) {
      var icons = iconsOf(x.card), said = [];
      if (x.card.kneeling) said.push("knelt on the board");
      if (icons && icons.indexOf(type) < 0) said.push("no " + type + " icon");
      return said.length ? { text: said.join(", ") + ": cannot " + (defending ? "defend" : "attack") } : null;
    };
  }
  function cardSelect(value, onchange, filter) {
    var options = [["", "— card —"]].concat(allCards().filter(filter || function () { return true; }).map(function (x) {
      var k = cardKey(x.card); return [k, k.indexOf("(" + x.player.name + ")") >= 0 ? k : k + " (" + x.player.name + ")"];  // never "(Ben) (Ben)"
    }));
    return select(options, value, onchange);
  }
  function keepOnly(chosen, shown) {  // drop from a list of picks every card the form does not show now
    var keys = shown.map(function (x) { return cardKey(x.card); });
    for (var i = chosen.length - 1; i >= 0; i--) if (keys.indexOf(chosen[i]) < 0) chosen.splice(i, 1);
  }
  function challengeBefore(si) {  // the challenge a step belongs to: the last one declared before it and not resolved
    var i = openChallenge(si - 1); return i === null ? null : state.steps[i];
  }
  function keywordsOf(c) {  // as typed on the card, then as its chosen printing's keyword line
    var known = cardCache[ck(c.name)], printed = known && (known.printings.filter(function (pr) { return pr.code === c.printing; })[0] || known.printings[0]);
    return (c.keywords || []).concat(printed && printed.values.keywords || []);
  }
  function typeOf(c) {  // as typed, else as the card data prints it (undefined when neither says)
    var known = cardCache[ck(c.name)], printed = known && (known.printings[0] || {}).values;
    return c.type || (printed && printed.type);
  }
  function hasKeyword(key, word) {
    var x = allCards().filter(function (y) { return cardKey(y.card) === key; })[0]; if (!x) return false;
    return keywordsOf(x.card).some(function (w) { return String(w).toLowerCase() === word; });
  }
  function isCharacter(c) { var type = typeOf(c); return !type || type === "character"; }  // a card of unknown type may be one
  function ambushCost(c) {  // the X of "ambush (X)"
    var words = keywordsOf(c);
    for (var i = 0; i < words.length; i++) { var m = /^ambush\s*\((\d+)\)$/i.exec(String(words[i]).trim()); if (m) return parseInt(m[1], 10); }
    return null;
  }
  function isAttachment(c) { return typeOf(c) === "attachment"; }
  function hostOf(c) {  // the card in play an attachment in play is attached to, if it is still one it can be on
    return c.attach_to ? allCards().filter(function (x) { return x.zone === "in_play" && cardKey(x.card) === c.attach_to && x.card !== c && !isAttachment(x.card); })[0] || null : null;
  }
  function attachedTo(c) {  // the attachments in play on card c (each with its player)
    return allCards().filter(function (x) { if (x.card.attach_to !== cardKey(c)) return false; var host = hostOf(x.card); return !!host && host.card === c; });
  }
  // a player's characters in play when step si is taken: those on the starting board and those an earlier step put
  // into play (ambush, out of shadows)
  function enteredBefore(si) {
    var keys = state.steps.slice(0, si === undefined ? state.steps.length : si).filter(function (k) { return k.kind === "enter" && k.card; }).map(function (k) { return k.card; });
    return allCards().filter(function (x) { return x.zone !== "in_play" && keys.indexOf(cardKey(x.card)) >= 0; });
  }
  // who controls card x when step si is taken: the player whose board lists it, unless an earlier step took control
  // of it and that effect has not yet expired (RR Ownership and Control; a 'phase' step begins the next phase)
  // (as the engine ends them: a challenge with its claim, the next challenge or the phase; a phase with end_phase or a
  // phase step naming another phase; a round with end_round or the next plot phase)
  function controllerAt(x, si) {
    var who = x.player.name, key = cardKey(x.card), until = null, phase = null;
    state.steps.slice(0, si === undefined ? state.steps.length : si).forEach(function (k) {
      var newPhase = k.kind === "phase" && k.name !== phase;
      var ended = until === "end of challenge" ? ["claim", "challenge", "end_phase", "end_round"].indexOf(k.kind) >= 0 || newPhase
        : until === "end of phase" ? ["end_phase", "end_round"].indexOf(k.kind) >= 0 || newPhase
        : until === "end of round" ? k.kind === "end_round" || (newPhase && k.name === "plot")
        : false;
      if (ended) { who = x.player.name; until = null; }
      if (k.kind === "phase") phase = k.name;
      if (k.kind === "control" && k.target === key && k.player) { who = k.player; until = k.until === "permanent" ? null : k.until; }
    });
    return who;
  }
  function inPlayOf(name, si) {
    return allCards().filter(function (x) { return x.zone === "in_play"; }).concat(enteredBefore(si))
      .filter(function (x) { return controllerAt(x, si) === name && isCharacter(x.card); });
  }

  // the first edition's keyword choices at a challenge's resolution (the scenario's deadly, vigilant, vengeful and
  // infamy; Rules of Play "Deadly", "Vigilant", "Vengeful", "Infamy"), each offered when a card with the keyword is there
  function defendersBefore(si) {  // the characters declared as defenders in the challenge step si resolves
    var ci = openChallenge(si - 1), out = [];
    if (ci === null) return out;
    state.steps.slice(ci + 1, si).forEach(function (k) { if (k.kind === "defend") (k.defenders || []).forEach(function (d) { if (out.indexOf(d) < 0) out.push(d); }); });
    return out;
  }
  function keywordChoices1(s, si, ch, li) {
    var attackers = ch ? ch.attackers || [] : [], defenders = defendersBefore(si);
    var inPlay = allCards().filter(function (x) { return x.zone === "in_play"; }).concat(enteredBefore(si));
    var withWord = function (word, who) { return inPlay.filter(function (x) { return hasKeyword(cardKey(x.card), word) && (!who || controllerAt(x, si) === who); }); };
    var byKey = function (keys) { return keys.map(function (k) { return inPlay.filter(function (x) { return cardKey(x.card) === k; })[0]; }).filter(Boolean); };
    var deadlyThere = attackers.concat(defenders).some(function (k) { return hasKeyword(k, "deadly"); });
    var victims = byKey(defenders);
    if (s.deadly && !victims.some(function (x) { return cardKey(x.card) === s.deadly; })) s.deadly = "";
    if (deadlyThere || s.deadly) {
      li.appendChild(el("p", { class: "muted", text: "Deadly: if the attacker controls more participating Deadly characters, the defender kills a defending character (even when the attacker loses):" }));
      li.appendChild(el("div", { class: "row" }, [labelled("Deadly kills", select([["", "— not stated —"]].concat(victims.map(function (x) { return [cardKey(x.card), cardKey(x.card) + " (" + x.player.name + ")"]; })),
        s.deadly || "", function (v) { s.deadly = v; }, { class: "s-deadly" }))]));
    }
    [["vigilant", ch && ch.attacker, "Vigilant cards the attacker stands (if the attacker wins):"],
     ["vengeful", ch && ch.against, "Vengeful cards the defender stands (if the defender loses):"]].forEach(function (w) {
      var cards = withWord(w[0], w[1]);
      keepOnly(s[w[0]] = s[w[0]] || [], cards);
      if (!cards.length) return;
      li.appendChild(el("p", { class: "muted", text: w[2] }));
      li.appendChild(cardChecklist(cards, s[w[0]], function () {}, w[0] + " choices"));
    });
    var famed = withWord("infamy");
    if (s.infamy && !famed.some(function (x) { return cardKey(x.card) === s.infamy; })) s.infamy = "";
    if (famed.length) {
      li.appendChild(el("div", { class: "row" }, [labelled("Power placed on (Infamy)", select([["", "— the House card —"]].concat(famed.map(function (x) { return [cardKey(x.card), cardKey(x.card) + " (" + x.player.name + ")"]; })),
        s.infamy || "", function (v) { s.infamy = v; }, { class: "s-infamy" }))]));
    }
  }

  function renderStep(s, si) {
    var li = el("li", { class: "step-item", id: "s" + si });
    var names = playerNames(), row = el("div", { class: "row" });
    li.appendChild(el("strong", { text: stepLabel(s) }));
    if (s.kind === "challenge") {
      row.appendChild(labelled("Attacker", select(names, s.attacker, function (v) { s.attacker = v; s.attackers = []; })));
      row.appendChild(labelled("Type", select(["military", "intrigue", "power"], s.type, function (v) { s.type = v; })));
      row.appendChild(labelled("Against", select(names, s.against, function (v) { s.against = v; })));
      li.appendChild(row);
      li.appendChild(cardChecklist(inPlayOf(s.attacker, si), s.attackers, function () {}, "attacking characters", cannotJoin(s.type, false)));
      // each attacker with stealth may choose a character without stealth that cannot defend (RR Stealth)
      s.stealth = s.stealth || {};
      var targets = inPlayOf(s.against, si).map(function (x) { return cardKey(x.card); }).filter(function (k) { return !hasKeyword(k, "stealth") && !cannotBe(k, "be bypassed by stealth"); });
      s.attackers.filter(function (k) { return hasKeyword(k, "stealth"); }).forEach(function (k) {
        li.appendChild(el("div", { class: "row" }, [labelled(k + " (stealth) bypasses", select([["", "— no one —"]].concat(targets),
          s.stealth[k] || "", function (v) { if (v) s.stealth[k] = v; else delete s.stealth[k]; }, { class: "s-stealth" }))]));
      });
      if (s.attackers.some(function (k) { return hasKeyword(k, "stealth"); }) && targets.length < inPlayOf(s.against, si).length) {
        li.appendChild(el("p", { class: "muted", text: "A character with stealth, or one that cannot be bypassed by stealth, cannot be chosen as a stealth target, so it is not offered." }));
      }
      Object.keys(s.stealth).forEach(function (k) { if (s.attackers.indexOf(k) < 0 || targets.indexOf(s.stealth[k]) < 0) delete s.stealth[k]; });
    } else if (s.kind === "defend") {
      row.appendChild(labelled("Defending player", select(names, s.player, function (v) { s.player = v; s.defenders = []; })));
      li.appendChild(row);
      var dch = challengeBefore(si), bypassed = dch && dch.stealth ? Object.keys(dch.stealth).map(function (k) { return dch.stealth[k]; }) : [];
      var noDefence = dch ? cannotJoin(dch.type, true) : function () { return null; };
      li.appendChild(cardChecklist(inPlayOf(s.player, si), s.defenders, function () {}, "defending characters", function (x) {
        if (bypassed.indexOf(cardKey(x.card)) >= 0) return { text: "bypassed by stealth: cannot defend", off: true };  // RR Stealth, 4.2.1
        return noDefence(x);
      }));
    } else if (s.kind === "strength") {
      row.appendChild(labelled("Card", cardSelect(s.target, function (v) { s.target = v; })));
      row.appendChild(labelled("STR change", input(s.amount, function (v) { s.amount = num(v) === undefined ? 0 : num(v); }, { inputmode: "numeric", size: 3 })));
      row.appendChild(labelled("Until", select(UNTIL, s.until, function (v) { s.until = v; })));
      row.appendChild(labelled("Source", input(s.source, function (v) { s.source = v; }, { placeholder: "card that did it", size: 14 })));
      li.appendChild(row);
    } else if (s.kind === "kill" || s.kind === "kneel" || s.kind === "stand" || s.kind === "remove") {
      row.appendChild(labelled("Card", cardSelect(s.target, function (v) { s.target = v; })));
      li.appendChild(row);
    } else if (s.kind === "enter") {  // RR Ambush (from hand, challenges phase); RR Shadows (a card's shadow (X) cost)
      row.appendChild(labelled("Player", select(names, s.player, function (v) { s.player = v; s.card = ""; s.onto = ""; delete s.ambush; })));
      row.appendChild(labelled("How", select([["ambush", "ambush, from hand"], ["shadows", "out of shadows"]], s.how, function (v) { s.how = v; s.card = ""; s.onto = ""; delete s.ambush; })));
      var from = s.how === "ambush" ? "hand" : "shadows";
      var mine = function (x) { return x.player.name === s.player && x.zone === from; };
      if (s.card && !allCards().some(function (x) { return mine(x) && cardKey(x.card) === s.card; })) { s.card = ""; s.onto = ""; }
      row.appendChild(labelled("Card", cardSelect(s.card, function (v) { s.card = v; s.onto = ""; delete s.ambush; }, mine)));
      li.appendChild(row);
      var entering = allCards().filter(function (x) { return cardKey(x.card) === s.card; })[0];
      if (!allCards().some(mine)) li.appendChild(el("p", { class: "muted", text: s.player + " has no card " + (from === "hand" ? "in hand" : "in shadows") + " yet: add it under “Hand, deck, discard and dead pile, shadows”." }));
      if (entering && s.how === "ambush") {
        var x = ambushCost(entering.card);
        if (x !== null) s.ambush = x;  // kept in the step: a share link runs before the card data is fetched again
        else if (cardCache[ck(entering.card.name)] || (entering.card.keywords || []).length) delete s.ambush;
        x = s.ambush === undefined ? null : s.ambush;
        li.appendChild(el("p", { class: x === null ? "error" : "muted", text: x === null ? s.card + " has no ambush keyword (add it under the card's values)." : "Ambush (" + x + "): " + s.player + " pays " + x + " gold." }));
      }
      if (entering && isAttachment(entering.card)) li.appendChild(el("div", { class: "row" }, [labelled("Onto", cardSelect(s.onto || "", function (v) { s.onto = v; },
        function (y) { return y.zone === "in_play" && !isAttachment(y.card); }))]));
    } else if (s.kind === "control") {  // a card changes control (RR Ownership and Control; FAQ: Multiple "Take Control" Effects)
      row.appendChild(labelled("Card", cardSelect(s.target, function (v) { s.target = v; }, function (x) { return x.zone === "in_play"; })));
      row.appendChild(labelled("Taken by", select(names, s.player, function (v) { s.player = v; })));
      row.appendChild(labelled("Until", select(UNTIL, s.until, function (v) { s.until = v; })));
      li.appendChild(row);
    } else if (s.kind === "claim") {
      // the challenge this step resolves sets the claim and whose cards can be chosen
      var ch = challengeBefore(si), type = ch ? ch.type : (s.claim || "military"), loser = ch ? ch.against : null;
      s.decline = s.decline || []; s.use = s.use || [];
      if (ch) s.claim = type; else row.appendChild(labelled("Claim", select([["military", "military: characters killed"], ["intrigue", "intrigue: cards discarded from hand"]], s.claim || "military",
        function (v) { s.claim = v; s.cards = []; })));
      li.appendChild(row);
      if (type === "power") li.appendChild(el("p", { class: "muted", text: "Power claim: no cards to choose (if the attacker wins, power moves from the defender's faction card)." }));
      else {
        li.appendChild(el("p", { class: "muted", text: type === "military" ? "If the attacker wins, the defender chooses characters to kill (claim):"
                                                                   : "If the attacker wins, the cards discarded at random from the defender's hand (claim):" }));
        var zone = type === "military" ? "in_play" : "hand";
        var entered = enteredBefore(si);  // a card put into play by an earlier step is in play, not in hand
        var eligible = allCards().filter(function (x) { return x.zone === zone && (zone === "hand" ? entered.indexOf(x) < 0 : isCharacter(x.card)); }).concat(zone === "in_play" ? entered.filter(function (x) { return isCharacter(x.card); }) : [])
          .filter(function (x) { return !loser || (zone === "in_play" ? controllerAt(x, si) : x.player.name) === loser; });
        keepOnly(s.cards, eligible);  // a pick the form no longer shows (the challenge changed) is not written either
        li.appendChild(cardChecklist(eligible, s.cards, function () {}, "claim choices"));
      }
      if (state.edition === "2") {
        var kw = el("div", { class: "checks", role: "group", "aria-label": "keywords not used" }, [el("p", { class: "muted", text: "Keywords the winner does not use (they say \u201cmay\u201d):" })]);
        ["insight", "intimidate", "pillage", "renown"].forEach(function (w) {
          var c = el("input", { type: "checkbox", value: w }); c.checked = s.decline.indexOf(w) >= 0;
          c.addEventListener("change", function () { s.decline = s.decline.filter(function (x) { return x !== w; }).concat(c.checked ? [w] : []); render(); });
          kw.appendChild(el("label", { class: "check" }, [c, " " + w]));
        });
        li.appendChild(kw);
        var last = el("input", { type: "checkbox" }); last.checked = s.use.indexOf("insight") >= 0;
        last.addEventListener("change", function () { s.use = last.checked ? ["insight"] : []; render(); });
        li.appendChild(el("label", { class: "check long" }, [last, el("span", { text: "insight draws even the last card of the deck (which eliminates the player)" })]));
        // any character the loser controls in play then, one put into play during the challenge (ambush) too: it need
        // not be participating (RR Intimidate)
        var arrived = enteredBefore(si);
        var kneelable = function (x) { return (x.zone === "in_play" || arrived.some(function (y) { return y.card === x.card; })) && (!loser || controllerAt(x, si) === loser) && isCharacter(x.card); };
        if (s.intimidate && !allCards().filter(kneelable).some(function (x) { return cardKey(x.card) === s.intimidate; })) s.intimidate = "";
        li.appendChild(el("div", { class: "row" }, [labelled("Intimidate kneels", cardSelect(s.intimidate || "", function (v) { s.intimidate = v; }, kneelable))]));
        // the first player orders the keyword types (RR 4.2.5); the rest follow in the Rules Reference's order
        li.appendChild(el("div", { class: "row" }, [labelled("Keyword processed first", select([["", "— as the Rules Reference lists them —"], "insight", "intimidate", "pillage", "renown"],
          s.first || "", function (v) { s.first = v; }))]));
        // reactions to winning or losing: they resolve right after the winner is known (RR 4.2.2's timing note)
        s.reactions = s.reactions || [];
        var rx = el("div", { class: "reactions" }, [el("p", { class: "muted", text: "Reactions after the winner is known (before claim and keywords):" })]);
        s.reactions.forEach(function (r, ri) {
          var who = state.players.map(function (pl) { return [[pl.name + " wins", "win: " + pl.name], [pl.name + " loses", "lose: " + pl.name]]; }).reduce(function (a, b) { return a.concat(b); }, []);
          var row1 = el("div", { class: "row" }, [
            labelled("After", select(who.map(function (w) { return [w[1], w[0]]; }), r.to, function (v) { r.to = v; })),
            labelled("Card", cardSelect(r.card || "", function (v) { r.card = v; }, function (x) { return x.zone === "in_play"; })),
            labelled("Effect", select(REACTION_EFFECTS.map(function (e) { return [e[0], e[1]]; }), r.effect, function (v) { r.effect = v; })),
            labelled("Amount", input(r.amount, function (v) { r.amount = num(v) === undefined ? 1 : num(v); }, { inputmode: "numeric", size: 2 }))
          ]);
          if (TARGETED.indexOf(r.effect) >= 0) row1.appendChild(labelled("Target", cardSelect(r.target || "", function (v) { r.target = v; }, function (x) { return x.zone === "in_play" && isCharacter(x.card); })));
          if (TARGETED.indexOf(r.effect) >= 0 && !r.target) row1.appendChild(el("p", { class: "muted", text: "Choose its target: a reaction without one is left out of the run." }));
          row1.appendChild(el("button", { type: "button", class: "link", text: "remove reaction", onclick: function () { s.reactions.splice(ri, 1); render(); } }));
          rx.appendChild(row1);
        });
        rx.appendChild(el("button", { type: "button", class: "secondary", text: "Add a reaction", onclick: function () {
          var w = (ch && ch.attacker) || state.players[0].name;
          s.reactions.push({ to: "win: " + w, card: "", effect: "power", amount: 1, target: "" }); render();
        } }));
        li.appendChild(rx);
        // a character chosen for claim may be saved by discarding a duplicate (RR Duplicates, Save)
        var dupes = allCards().filter(function (x) { return x.zone === "in_play" && (!loser || controllerAt(x, si) === loser) && (x.card.duplicates || []).length; });
        keepOnly(s.save = s.save || [], dupes);
        if (dupes.length) {
          li.appendChild(el("p", { class: "muted", text: "Saved by discarding a duplicate:" }));
          li.appendChild(cardChecklist(dupes, s.save, function () {}, "saved by a duplicate"));
        }
      } else keywordChoices1(s, si, ch, li);
    } else if (s.kind === "phase") {
      row.appendChild(labelled("Phase", select(PHASES[state.edition], s.name, function (v) { s.name = v; })));
      li.appendChild(row);
      // the choices the phase leaves to players, which the ruling otherwise asks for: who the initiative winner makes
      // first player, who wins a random tie-break (RR Initiative), which cards a player over reserve discards (RR 7.3)
      var others = [["", "— not stated —"]].concat(names);
      if (s.name === "plot") {
        ["first_player", "random_winner"].forEach(function (k) { if (s[k] && names.indexOf(s[k]) < 0) s[k] = ""; });  // a removed player
        li.appendChild(el("p", { class: "muted", text: "The player who wins initiative chooses the first player; if initiative and power are both tied, a random method picks the winner:" }));
        li.appendChild(el("div", { class: "row" }, [
          labelled("First player", select(others, s.first_player || "", function (v) { s.first_player = v; }, { class: "s-first-player" })),
          labelled("Random tie won by", select(others, s.random_winner || "", function (v) { s.random_winner = v; }, { class: "s-random-winner" }))
        ]));
      }
      if (s.name === "taxation") {
        s.discard = s.discard || {};
        state.players.forEach(function (pl) {
          var hand = allCards().filter(function (x) { return x.player === pl && x.zone === "hand"; });
          var picks = s.discard[pl.name] = s.discard[pl.name] || [];
          keepOnly(picks, hand);
          if (!hand.length) { delete s.discard[pl.name]; return; }
          li.appendChild(el("p", { class: "muted", text: pl.name + " discards from hand to reserve (if over it):" }));
          li.appendChild(cardChecklist(hand, picks, function () {}, pl.name + " discards to reserve"));
        });
      }
    } else if (s.kind === "note") {
      row.appendChild(labelled("Note", input(s.text, function (v) { s.text = v; }, { size: 30 })));
      li.appendChild(row);
    }
    if (noCard(s)) li.appendChild(el("p", { class: "error step-missing", text: "Choose the card: a step with no card is not run." }));
    var tools = el("div", { class: "row tools" }, [
      el("button", { type: "button", class: "link", text: "↑", "aria-label": "Move step up", onclick: function () { if (si) { state.steps.splice(si - 1, 0, state.steps.splice(si, 1)[0]); render(); } } }),
      el("button", { type: "button", class: "link", text: "↓", "aria-label": "Move step down", onclick: function () { if (si < state.steps.length - 1) { state.steps.splice(si + 1, 0, state.steps.splice(si, 1)[0]); render(); } } }),
      el("button", { type: "button", class: "link", text: "remove", "aria-label": "Remove step " + (si + 1), onclick: function () { state.steps.splice(si, 1); render(); } })
    ]);
    li.appendChild(tools);
    return li;
  }

  // ------------------------------------------------------------------ YAML (with the line each element wrote)
  // (digits typed too long for a JS number stay digits, unquoted, so the check reads the number typed; a printing
  // code such as "01146" is text and stays quoted)
  function q(v) { return typeof v === "number" || typeof v === "boolean" || /^[+-]?\d{7,}$/.test(String(v)) ? String(v) : JSON.stringify(String(v)); }
  function flow(obj) {
    return "{" + Object.keys(obj).filter(function (k) { return obj[k] !== undefined && obj[k] !== "" && !(Array.isArray(obj[k]) && !obj[k].length); })
      .map(function (k) { var v = obj[k]; return (/^[A-Za-z_]\w*$/.test(k) ? k : q(k)) + ": " + (Array.isArray(v) ? "[" + v.map(function (i) { return i && typeof i === "object" ? flow(i) : q(i); }).join(", ") + "]" : (typeof v === "object" ? flow(v) : q(v))); }).join(", ") + "}";
  }
  // a number as typed: a short whole number is a number; anything else is sent as written, so the check names
  // what was typed ("99999999999999999999999", not the "1e+23" a float would print)
  function num(v) { v = v === undefined ? "" : String(v).trim(); return v === "" ? undefined : /^[+-]?\d{1,6}$/.test(v) ? parseInt(v, 10) : v; }
  function cardSpec(c) {  // a card as the scenario writes it (the builder's own note of what it is attached to left out)
    var spec = {}; Object.keys(c).forEach(function (k) { if (k !== "attach_to" && c[k] !== "" && c[k] !== undefined) spec[k] = c[k]; });
    return spec;
  }
  function toYaml() {
    var lines = []; lineOwner = [null];
    function put(text, owner) { lines.push(text); lineOwner.push(owner || null); }
    put("# built with the judgekb scenario builder");
    put("title: " + q(state.title || "Built scenario"));
    put("edition: " + (state.edition === "1" ? "1" : "2"));  // (the menu's two values only: r53 wrote a tampered one as lines)
    // a deck-out dispute starts in the plot phase, then "Phase begins: draw" (r70 L3: every board was in the challenges
    // phase, and the draw phase's step ended it there, skipping dominance, standing and taxation without a word)
    put("phase: " + q(PHASES[state.edition].indexOf(state.phase) >= 0 ? state.phase : "challenges"));
    put("players:");
    state.players.forEach(function (p, pi) {
      put("  - name: " + q(p.name), "p" + pi);
      put("    " + (state.edition === "1" ? "house" : "faction") + ": " + q(p.house || "neutral"), "p" + pi);
      var plot = { name: p.plot.name || undefined, income: num(p.plot.income), initiative: num(p.plot.initiative), claim: num(p.plot.claim) };
      if (state.edition === "2") plot.reserve = num(p.plot.reserve);
      if (Object.keys(plot).some(function (k) { return plot[k] !== undefined; })) put("    plot: " + flow(plot), "p" + pi + "-plot");
      if (p.first) put("    first: true", "p" + pi);
      if (melee() && p.title) put("    title: " + q(p.title), "p" + pi);
      if (num(p.power) !== undefined) put("    power: " + q(num(p.power)), "p" + pi);  // quoted unless a number (r53: a share
      if (num(p.gold) !== undefined) put("    gold: " + q(num(p.gold)), "p" + pi);     // link's gold added lines to the YAML)
      zonesOf().forEach(function (z) {
        // an attachment in play is written under the card it is attached to (with its owner and controller when that
        // card is another player's), as the scenario format nests it
        var cards = p.zones[z[0]].filter(function (c) { return z[0] !== "in_play" || !hostOf(c); }); if (!cards.length) return;
        put("    " + z[0] + ":", "p" + pi);
        cards.forEach(function (c) {
          var spec = cardSpec(c);
          var carried = z[0] !== "in_play" ? [] : attachedTo(c);
          if (carried.length) spec.attachments = carried.map(function (x) {
            var a = cardSpec(x.card); if (x.player !== p) { a.owner = a.owner || x.player.name; a.controller = a.controller || x.player.name; } return a;
          });
          put("      - " + flow(spec), "p" + pi + "-" + z[0] + "-" + p.zones[z[0]].indexOf(c));
        });
      });
    });
    put("steps:");
    if (!state.steps.length) lines[lines.length - 1] = "steps: []";
    stepNames = [null]; stepOwners = [null];
    state.steps.forEach(function (s, si) {
      put("  - " + stepYaml(s), "s" + si);
      stepNames.push("step " + (si + 1)); stepOwners.push("s" + si);
      // a challenge with no "Challenge resolved" step before the next challenge or phase is resolved here, so a
      // judge who only declared it still gets its result (its claim and keyword choices are then asked for)
      var next = state.steps[si + 1], open = openChallenge(si);
      if (open !== null && (!next || ["challenge", "phase", "end_phase", "end_round"].indexOf(next.kind) >= 0)) {
        put("  - resolve: {}  # added: the challenge is resolved (a 'Challenge resolved' step sets its choices)", "s" + open);
        stepNames.push("the resolution added after step " + (si + 1)); stepOwners.push("s" + open);
      }
    });
    return lines.join("\n") + "\n";
  }
  var REACTION_EFFECTS = [["power", "its player gains power on the faction card"], ["draw", "its player draws cards"],
                          ["str", "a character gets +STR until the end of the challenge"], ["kneel", "a character is knelt"], ["stand", "a character is stood"]];
  function reactionYaml(r) {  // one reaction of the resolve step, as the scenario format writes it (REACT)
    var owner = allCards().filter(function (x) { return cardKey(x.card) === r.card; })[0], who = owner ? owner.player.name : undefined;
    var effect = { source: r.card };
    if (r.effect === "power") { effect.power = {}; effect.power[who] = r.amount; }
    else if (r.effect === "draw") { effect.draw = r.amount; effect.player = who; }
    else if (r.effect === "str") { effect.target = r.target; effect.str = r.amount; effect.until = "end of challenge"; }
    else effect[r.effect] = [r.target];
    return { to: r.to, player: who, card: r.card, effect: effect };
  }
  function openChallenge(si) {  // the index of the challenge step si belongs to, if no step resolves it up to si
    for (var i = si; i >= 0; i--) {
      var k = state.steps[i].kind;
      if (k === "challenge") return i;
      if (["claim", "phase", "end_phase", "end_round"].indexOf(k) >= 0) return null;
    }
    return null;
  }
  // a step that acts on a card, with none chosen (never chosen, or its card since removed from the board): it is
  // not run as an empty effect (the engine skipped "effect: {}" without a word); Run says so beside the step
  var CARD_STEPS = ["strength", "kill", "kneel", "stand", "remove", "control"];
  function noCard(s) { return CARD_STEPS.indexOf(s.kind) >= 0 ? !s.target : s.kind === "enter" ? !s.card : false; }
  function stepLabel(s) { return (STEP_KINDS.filter(function (k) { return k[0] === s.kind; })[0] || [s.kind, s.kind])[1]; }
  function stepYaml(s) {
    if (noCard(s)) return "note: " + q(stepLabel(s) + ": no card chosen, not run");
    switch (s.kind) {
      case "challenge":
        var bypass = s.stealth && Object.keys(s.stealth).length ? s.stealth : undefined;
        return "challenge: " + flow({ attacker: s.attacker, type: s.type, against: s.against, attackers: s.attackers.slice(), stealth: bypass });
      case "defend": return "defend: " + flow({ player: s.player, defenders: s.defenders.slice() });
      case "strength": return "effect: " + flow({ target: s.target, str: s.amount, until: s.until, source: s.source || undefined });
      case "kill": return "effect: " + flow({ kill: s.target });
      case "kneel": return "effect: " + flow({ kneel: s.target });
      case "stand": return "effect: " + flow({ stand: s.target });
      case "enter":
        if (s.how === "ambush") {
          return "put_into_play: " + flow({ player: s.player, card: s.card, onto: s.onto || undefined, from: "hand", ambush: s.ambush });
        }
        return "bring_out_of_shadows: " + flow({ player: s.player, card: s.card, onto: s.onto || undefined });
      case "control": return "effect: " + flow({ take_control: s.target, player: s.player, until: s.until });
      case "remove": return "effect: " + flow({ remove_from_challenge: s.target ? [s.target] : [] });
      case "claim":
        var choices = (s.claim || "military") === "intrigue" ? { discard: s.cards.slice() } : { claim: (s.cards || []).slice() };
        if (state.edition === "2") {
          choices.decline = (s.decline || []).slice(); choices.use = (s.use || []).slice(); choices.intimidate = s.intimidate || undefined;
          choices.keyword_order = s.first ? [s.first] : undefined;
        }
        if (state.edition === "1") {
          choices.deadly = s.deadly || undefined; choices.vigilant = (s.vigilant || []).slice(); choices.vengeful = (s.vengeful || []).slice();
          choices.infamy = s.infamy || undefined;
        }
        choices.save = (s.save || []).slice();
        var reacted = (s.reactions || []).filter(function (r) { return r.card && (TARGETED.indexOf(r.effect) < 0 || r.target); }).map(reactionYaml);
        choices.reactions = reacted.length ? reacted : undefined;
        return "resolve: " + flow(choices);
      case "phase":
        var said = {};  // the players' choices for this phase, given only where this phase asks for them
        if (s.name === "plot") { said.first_player = s.first_player || undefined; said.random_winner = s.random_winner || undefined; }
        if (s.name === "taxation") Object.keys(s.discard || {}).forEach(function (k) { if (s.discard[k].length) (said.discard = said.discard || {})[k] = s.discard[k].slice(); });
        if (!Object.keys(said).some(function (k) { return said[k] !== undefined; })) return "phase: " + q(s.name);
        said = Object.assign({ name: s.name }, said);
        return "phase: " + flow(said);
      case "end_phase": return "end_phase: {}";
      case "end_round": return "end_round: {}";
      case "note": return "note: " + q(s.text || "");
    }
    return "note: " + q(s.kind);
  }
  function refreshYaml() {
    var text = toYaml();
    document.getElementById("b-yaml").textContent = text;
    var a = document.getElementById("b-download");
    if (a.dataset.url) URL.revokeObjectURL(a.dataset.url);
    a.dataset.url = URL.createObjectURL(new Blob([text], { type: "text/yaml" }));
    a.href = a.dataset.url;
    keepInUrl();
    return text;
  }

  // ------------------------------------------------------------------ run and show the ruling
  function clearErrors() { runNotes = []; Array.prototype.forEach.call(document.querySelectorAll(".field-error"), function (e) { e.remove(); }); }
  // The last run's errors and refusals beside the fields and steps they name.  A redraw the judge did not cause (the
  // card look-ups of an opened share link finishing after its run, a plot or a typo's nearest titles arriving) rebuilt
  // those places without them (r70 M3: a link's gold "five" ended with no ruling and no error in 2 of 6 loads, and
  // "Refused" notes went too): they are put back after every redraw, until the judge changes the form or runs again.
  var runNotes = [];  // [selector of the place, the note]
  function pin(selector, box) {
    var place = document.querySelector(selector); if (!place) return null;
    place.appendChild(box); runNotes.push([selector, box]); return place;
  }
  function repin() {
    runNotes.forEach(function (n) { var place = document.querySelector(n[0]); if (place && !place.contains(n[1])) place.appendChild(n[1]); });
  }
  function judgeChanged(e) {
    if (e.type === "click") { var b = e.target.closest && e.target.closest("button"); if (!b || b.type !== "button") return; }
    runNotes = [];
  }
  ["input", "change", "click"].forEach(function (t) { form.addEventListener(t, judgeChanged, true); });
  function showError(message) {
    var m = /:(\d+):/.exec(message), owner = m ? lineOwner[parseInt(m[1], 10)] : null, target = owner && document.getElementById(owner);
    var box = el("p", { class: "error field-error", role: "alert", text: message.replace(/^[^:]*\.yaml:(\d+:)?\s*/, "") });
    if (target) { pin("#" + owner, box); target.scrollIntoView({ block: "center" }); var f = target.querySelector("input,select"); if (f) f.focus(); }
    else document.getElementById("b-result").before(box);
  }
  function run(ev) {
    if (ev) ev.preventDefault();
    clearErrors();
    var pending = Object.keys(typing).filter(function (k) { return typing[k].trim(); });
    if (pending.length) {  // a name typed and never added is not on the board: say so rather than drop it silently
      var at = pending[0].split(":"), where = document.querySelector("#p" + at[0] + " [data-zone=" + at[1] + "]");
      var note = el("p", { class: "error field-error", role: "alert", text: "\u201c" + typing[pending[0]].trim() + "\u201d is typed but not added: tap Add to put it on the board." });
      if (where) pin("#p" + at[0] + " [data-zone=" + at[1] + "]", note);
    }
    var out = document.getElementById("b-result"), status = document.getElementById("b-status");
    var blank = state.steps.map(function (s, si) { return noCard(s) ? si : -1; }).filter(function (si) { return si >= 0; });
    if (blank.length) {  // a step with no card would rule on a board where it never happened: not run until it is fixed
      blank.forEach(function (si) {
        var box = document.getElementById("s" + si);
        if (box) pin("#s" + si, el("p", { class: "error field-error", role: "alert", text: "Step " + (si + 1) + " (" + stepLabel(state.steps[si]) + ") names no card: choose the card, or remove the step." }));
      });
      out.textContent = "";
      status.textContent = "Not run: " + (blank.length > 1 ? blank.length + " steps name" : "step " + (blank[0] + 1) + " names") + " no card.";
      var first = document.getElementById("s" + blank[0]); if (first) first.scrollIntoView({ block: "center" });
      return;
    }
    status.textContent = "Running…";
    // bad input comes back 200 with {bad_input: true, error} (?bad_input=body): a 4xx would be logged as a console
    // error ("Failed to load resource") on every refused run, and the page would look broken to a judge
    fetch("/api/run?bad_input=body", { method: "POST", headers: { "Content-Type": "text/yaml", "Accept": "application/json" }, body: refreshYaml() })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok && !body.bad_input, body: body }; }); })
      .then(function (res) {
        status.textContent = "";
        if (!res.ok) { out.textContent = ""; showError(res.body.error || "the scenario could not be run"); return; }
        showRuling(out, res.body);
      })
      .catch(function () { status.textContent = "The server did not answer: check the connection and run again."; });
  }
  function printTitle() { return state.title.trim() || "Scenario ruling"; }
  // the printed sheet's "Cited clauses", full citation and text: the scenario page's block (templates/cited_clauses.html),
  // which builder.html renders once with one blank clause; each clause cited is that clause's two lines, filled
  function citedClauses(cited) {
    var block = document.getElementById("b-cited").content.cloneNode(true), list = block.querySelector("dl.cited");
    var term = list.querySelector("dt"), text = list.querySelector("dd");
    list.textContent = "";
    cited.forEach(function (c) {
      var dt = term.cloneNode(true), dd = text.cloneNode(true), a = dt.querySelector("a");
      a.href = a.getAttribute("href").replace(/ID$/, c.id); a.textContent = c.citation; dd.textContent = c.text;
      list.appendChild(dt); list.appendChild(dd);
    });
    return block;
  }
  function showRuling(out, r) {
    out.textContent = "";
    var cited = {}; (r.cited || []).forEach(function (c) { cited[c.id] = c; });
    // printed, the form is hidden: the sheet says what it rules on, and has the deck-check sheet's Judge and Time lines
    out.appendChild(el("header", { class: "print-only ruling-head" }, [
      el("h1", { id: "b-print-title", text: printTitle() }),
      el("p", { class: "signoff", text: "Scenario, " + (state.edition === "1" ? "1st" : "2nd") + " edition · Judge: ________________ · Time: ________" })
    ]));
    out.appendChild(el("h2", { text: "Ruling" }));
    var ul = el("ul", { class: "ruling-lines" });
    (r.ruling && r.ruling.length ? r.ruling : ["No challenge was resolved."]).forEach(function (line) { ul.appendChild(el("li", { text: asForm(line) })); });
    if ((r.ruling || []).some(function (line) { return / refused: /.test(line); })) {  // a refused step changes nothing: say what to do
      ul.appendChild(el("li", { class: "muted", text: "A refused step is not applied, and the steps after it run on the board as it was: change what it names and run again." }));
    }
    if (!state.steps.length) ul.appendChild(el("li", { class: "muted", text: "No steps yet: add the cards in play, then steps such as \u201cChallenge declared\u201d and \u201cDefenders declared\u201d, and run again." }));
    out.appendChild(ul);
    (r.ruling || []).forEach(function (line) {  // a refusal is said beside the step it refused too (the README's promise)
      var m = /^step (\d+) refused: ([\s\S]*)$/.exec(line), box = m && document.getElementById(stepOwners[+m[1]]);
      if (box) pin("#" + stepOwners[+m[1]], el("p", { class: "error field-error refusal", role: "alert", text: "Refused: " + asForm(m[2]) }));
    });
    [["happened", "What changed"], ["not_happened", "What did not happen, and why"]].forEach(function (part) {
      if (!(r[part[0]] || []).length) return;
      out.appendChild(el("h3", { text: part[1] }));
      var list = el("ul", { class: part[0].replace("_", "-") }); r[part[0]].forEach(function (line) { list.appendChild(el("li", { text: asForm(line) })); });
      out.appendChild(list);
    });
    out.appendChild(el("h2", { text: "Starting board" }));
    var boardBox = el("div", { class: "board" });
    (r.board || []).forEach(function (b) {
      var sec = el("section", { class: "board-player" }, [el("h3", { text: b.player + (b.faction ? " — " + b.faction : "") }),
        el("p", { class: "muted", text: (b.plot ? "Plot: " + b.plot + " · " : "") + "power " + b.power + " · gold " + b.gold })]);
      var zl = el("ul"); b.zones.forEach(function (z) { zl.appendChild(el("li", {}, [el("strong", { text: z.zone + ": " }), z.cards.join("; ")])); });
      sec.appendChild(zl); boardBox.appendChild(sec);
    });
    out.appendChild(boardBox);
    if (r.cards && r.cards.length) {
      out.appendChild(el("h3", { text: "Card values used" }));
      var cl = el("ul", { class: "card-notes" }); r.cards.forEach(function (n) { cl.appendChild(el("li", { text: n.text || JSON.stringify(n) })); }); out.appendChild(cl);
    }
    out.appendChild(el("h2", { text: "Trace" }));
    var ol = el("ol", { class: "trace" });
    (r.steps || []).forEach(function (group) {
      var g = el("li", { class: "trace-step" }, [el("span", { class: "step", text: group.step ? (stepNames[group.step] || "step " + group.step) + " — " + group.label : "set-up" })]);
      g.list = el("ul"); g.appendChild(g.list); ol.appendChild(g);
      group.entries.forEach(function (s) { addEntry(g, s); });
    });
    out.appendChild(ol);
    out.appendChild(citedClauses(r.cited || []));
    out.scrollIntoView({ block: "start" });
    function addEntry(g, s) {
      var item = el("li", { class: s.outcome }, [inForm(s.text) + (s.outcome !== "applied" ? " [" + s.outcome + "]" : "")]);
      (s.clauses || []).forEach(function (id) {
        var c = cited[id];
        // the citation without its page note, which every web-copy citation repeats; the full line one tap away
        var short = c ? c.citation.replace(/ \((no page numbers|page not known)[^()]*(\([^()]*\)[^()]*)*\)$/, "") : id;
        var d = el("details", { class: "cite" }, [el("summary", { text: short })]);
        if (c) {
          var body = el("div", { class: "text" });
          (c.lines || [c.text]).forEach(function (line) { body.appendChild(el("p", { text: line })); });
          d.appendChild(body);
          if (short !== c.citation) d.appendChild(el("p", { class: "muted", text: c.citation }));
        }
        d.appendChild(el("a", { href: "/c/" + id, text: "open " + id }));
        item.appendChild(d);
      });
      if (!(s.clauses || []).length) item.appendChild(el("p", { class: "muted", text: "No clause in the corpus states this." }));
      g.list.appendChild(item);
    }
  }

  // ------------------------------------------------------------------ a share link's state, checked before it is drawn
  // A link is read only if it holds what the form can show (r53: a tampered link drew half a form and threw, or carried
  // values the form never shows, such as a gold field holding "5\n    power: 14", into the YAML).  Anything else is a
  // damaged link: the empty form and the message.
  function has(obj, k) { return Object.prototype.hasOwnProperty.call(obj, k); }
  function only(obj, keys) { return Object.keys(obj).every(function (k) { return keys.indexOf(k) >= 0; }); }  // no other field
  function isMap(v) { return !!v && typeof v === "object" && !Array.isArray(v); }
  function isText(v) { return typeof v === "string"; }
  function isValue(v) { return typeof v === "string" || (typeof v === "number" && isFinite(v)); }  // a field as typed, or its number
  function textList(v) { return Array.isArray(v) && v.every(isText); }
  function oneOf(options) {  // a menu's value: one of its options (as [value, label] or value)
    return function (v) { return options.some(function (o) { return (Array.isArray(o) ? o[0] : o) === v; }); };
  }
  function plainData(v, depth) {  // JSON text, numbers, booleans, lists and maps only; no control character in any text
    if (depth > 12) return false;
    if (typeof v === "string") return !/[\u0000-\u001f\u007f\u2028\u2029]/.test(v);
    if (typeof v === "number") return isFinite(v);
    if (typeof v === "boolean") return true;
    if (Array.isArray(v)) return v.every(function (x) { return plainData(x, depth + 1); });
    if (isMap(v)) return Object.keys(v).every(function (k) { return k !== "__proto__" && plainData(v[k], depth + 1); });
    return false;  // null: the builder never writes one
  }
  function cardFields(edition) {  // what the form shows of a card (its values, its printing, what it is attached to, its duplicates, its texts)
    return {
    name: isText, id: isText, printing: isText, attach_to: isText, str: isValue, icons: textList, keywords: textList,
    type: oneOf(["character", "location", "attachment", "event", "plot", "agenda"]), kneeling: function (v) { return v === true; },
    duplicates: function (v) { return Array.isArray(v) && v.every(function (x) { return x === true; }); },
    constant: function (v) { return edition === "2" && Array.isArray(v) && v.length === 1 && NO_KNEEL.test(v[0]); },  // as the menu writes it
    cannot: function (v) { return Array.isArray(v) && v.length > 0 && v.every(function (w, i) { return CANNOTS[edition].indexOf(w) >= 0 && v.indexOf(w) === i; }); }
    };
  }
  function stepFields(edition) {  // what each step field may hold, as its menu or field in the form
    var text = isText;
    return {
      kind: oneOf(STEP_KINDS), attacker: text, against: text, player: text, target: text, source: text, card: text, onto: text,
      intimidate: text, text: text, deadly: text, infamy: text, first_player: text, random_winner: text, amount: isValue, ambush: isValue,
      type: oneOf(ICONS), until: oneOf(UNTIL), how: oneOf(["ambush", "shadows"]), claim: oneOf(["military", "intrigue", "power"]),
      name: oneOf(PHASES[edition]), first: oneOf(["", "insight", "intimidate", "pillage", "renown"]),
      attackers: textList, defenders: textList, cards: textList, decline: textList, use: textList, save: textList,
      vigilant: textList, vengeful: textList, names: textList,
      stealth: function (v) { return isMap(v) && Object.keys(v).every(function (k) { return isText(v[k]); }); },
      discard: function (v) { return isMap(v) && Object.keys(v).every(function (k) { return textList(v[k]); }); },
      reactions: function (v) {
        return Array.isArray(v) && v.every(function (r) {
          return isMap(r) && only(r, ["to", "card", "effect", "amount", "target"]) && oneOf(REACTION_EFFECTS)(r.effect) && isText(r.to) && /^(win|lose): /.test(r.to)
            && ["card", "target"].every(function (k) { return r[k] === undefined || isText(r[k]); })
            && (r.amount === undefined || isValue(r.amount));
        });
      }
    };
  }
  function checkedState(s) {  // the state a share link holds, if the form can show it; throws otherwise
    function bad(why) { throw new Error("not a builder state: " + why); }
    if (!isMap(s) || !plainData(s, 0)) bad("not plain data");
    // a field the form has no place for, at any level, is not dropped in silence (r70 M2: a hand-added "melee",
    // player "title", zone "hidden" or step "assault" loaded and ran without it): the link is damaged
    if (!only(s, ["edition", "title", "phase", "players", "steps"])) bad("a field the form has no place for");
    s.edition = String(s.edition);
    if (s.edition !== "1" && s.edition !== "2") bad("edition");
    if (s.phase === undefined) s.phase = "challenges"; else if (!oneOf(PHASES[s.edition])(s.phase)) bad("phase");  // (older links have none)
    if (s.title === undefined) s.title = ""; else if (!isText(s.title)) bad("title");
    if (!Array.isArray(s.players) || s.players.length < 2 || !Array.isArray(s.steps)) bad("players or steps");
    var cardCheck = cardFields(s.edition);
    s.players.forEach(function (p) {
      if (!isMap(p) || !isText(p.name) || !isMap(p.plot) || !(p.house === "" || oneOf(HOUSES[s.edition])(p.house))) bad("player");
      if (p.title !== undefined && !(s.players.length > 2 && oneOf(TITLES[s.edition])(p.title))) bad("title");  // melee only
      if (!only(p, ["name", "house", "plot", "first", "power", "gold", "zones", "title"]) || !only(p.plot, ["name", "income", "initiative", "claim", "reserve"])) bad("a player field the form has no place for");
      ["name", "income", "initiative", "claim", "reserve"].forEach(function (k) { if (p.plot[k] !== undefined && !isValue(p.plot[k])) bad("plot"); });
      ["power", "gold"].forEach(function (k) { if (p[k] !== undefined && !isValue(p[k])) bad(k); });
      if (p.first !== undefined && typeof p.first !== "boolean") bad("first");
      p.zones = p.zones === undefined ? {} : p.zones;  // older links lack later zones
      if (!isMap(p.zones) || !only(p.zones, ZONES.map(function (z) { return z[0]; }))) bad("zones");
      ZONES.forEach(function (z) {
        var cards = p.zones[z[0]] = p.zones[z[0]] === undefined ? [] : p.zones[z[0]];
        if (!Array.isArray(cards)) bad("zone");
        cards.forEach(function (c) {
          if (!isMap(c) || !isText(c.name) || Object.keys(c).some(function (k) { return !has(cardCheck, k) || !cardCheck[k](c[k]); })) bad("card");
        });
      });
    });
    var fields = stepFields(s.edition);
    s.steps.forEach(function (st) {
      if (!isMap(st) || !fields.kind(st.kind)) bad("step");
      Object.keys(st).forEach(function (k) { if (!has(fields, k) || !fields[k](st[k])) bad("step field " + k); });
    });
    return s;
  }

  // ------------------------------------------------------------------ share link (state in the URL fragment)
  function b64url(bytes) { var s = ""; bytes.forEach(function (b) { s += String.fromCharCode(b); }); return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""); }
  function unb64url(text) { var s = atob(text.replace(/-/g, "+").replace(/_/g, "/")); var out = new Uint8Array(s.length); for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i); return out; }
  function pipe(bytes, stream) { return new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer().then(function (b) { return new Uint8Array(b); }); }
  function encodeState() {
    var bytes = new TextEncoder().encode(JSON.stringify(state));
    if (window.CompressionStream) return pipe(bytes, new CompressionStream("deflate-raw")).then(function (z) { return "z." + b64url(z); });
    return Promise.resolve("j." + b64url(bytes));
  }
  function decodeState(token) {
    var kind = token.slice(0, 2), bytes = unb64url(token.slice(2));
    var ready = kind === "z." ? pipe(bytes, new DecompressionStream("deflate-raw")) : Promise.resolve(bytes);
    return ready.then(function (b) { return JSON.parse(new TextDecoder().decode(b)); });
  }
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {  // plain HTTP at a venue: the old way
      var t = el("textarea", { readonly: "" }); t.value = text; t.style.position = "fixed"; t.style.opacity = "0";
      document.body.appendChild(t); t.select();
      var ok = false; try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      t.remove(); if (ok) resolve(); else reject(new Error("copy refused"));
    });
  }
  // The state is kept in the URL fragment as the form changes (the share link's format), so a reload, a phone's
  // pull-to-refresh, a discarded tab or Back from another page brings the board back, not only a shared link.
  var savedJson = null, saveTimer = null;  // the state as the URL holds it (null: nothing read or written yet)
  function keepInUrl() {
    if (savedJson === null) return;  // not before the page has read its own fragment (a damaged link stays as it was)
    clearTimeout(saveTimer);
    saveTimer = setTimeout(saveNow, 300);
  }
  function saveNow() {
    clearTimeout(saveTimer);
    var json = JSON.stringify(state);
    if (json === savedJson) return;
    savedJson = json;
    encodeState().then(function (token) { if (JSON.stringify(state) === json) history.replaceState(history.state, "", "#s=" + token); });
  }
  window.addEventListener("pagehide", function () {  // leaving before the pause ran out: written now, uncompressed
    var json = JSON.stringify(state);
    if (savedJson === null || json === savedJson) return;
    savedJson = json; clearTimeout(saveTimer);
    history.replaceState(history.state, "", "#s=j." + b64url(new TextEncoder().encode(json)));
  });
  function share() {
    var status = document.getElementById("b-status");
    encodeState().then(function (token) {
      var url = location.origin + location.pathname + "#s=" + token;
      history.replaceState(null, "", "#s=" + token);
      var link = document.getElementById("b-link") || el("input", { id: "b-link", readonly: "", "aria-label": "Share link", class: "share-link" });
      link.value = url; status.after(link);
      copyText(url).then(function () { status.textContent = "Link copied"; },
        function () { status.textContent = "Copy failed: select the link and copy it"; link.focus(); link.select(); });
    });
  }

  // ------------------------------------------------------------------ wiring
  // what a switch of edition changes on the board, said beside the edition menu with a way back (r46: the faction was
  // reset and the cards re-read as the other edition's cards of the same names without a word)
  function editionNote(before, was) {
    var old = document.getElementById("b-edition-note"); if (old) old.remove();
    var said = [], cardsNow = allCards().length;
    was.players.forEach(function (p) { if (p.house) said.push(p.name + "’s " + (was.edition === "1" ? "House" : "faction") + " (" + p.house + ") is cleared: choose it again"); });
    if (cardsNow) said.push("the " + cardsNow + " card" + (cardsNow > 1 ? "s" : "") + " on the board are now read as " + (state.edition === "1" ? "1st" : "2nd") + "-edition cards of the same names: their values may differ, check each one");
    var printed = 0; was.players.forEach(function (p) { ZONES.forEach(function (z) { (p.zones[z[0]] || []).forEach(function (c) { if (c.printing) printed++; }); }); });
    var texts = 0; was.players.forEach(function (p) { ZONES.forEach(function (z) { (p.zones[z[0]] || []).forEach(function (c) {
      texts += (state.edition === "1" ? (c.constant || []).length : 0) + (c.cannot || []).filter(function (w) { return CANNOTS[state.edition].indexOf(w) < 0; }).length;
    }); }); });
    if (texts) said.push(texts + " card text" + (texts > 1 ? "s" : "") + " this edition\u2019s engine does not apply " + (texts > 1 ? "are" : "is") + " cleared");
    if (printed) said.push(printed + " printing" + (printed > 1 ? "s" : "") + " chosen " + (printed > 1 ? "are" : "is") + " cleared");
    if (was.players.some(function (p) { return p.plot.name; })) said.push("each plot named is looked up again among this edition’s plots");
    if (was.players.some(function (p) { return (p.zones.shadows || []).length; }) && state.edition === "1") said.push("cards in shadows are left out (a second-edition area)");
    if (!said.length) return;
    var note = el("p", { class: "note edition-note", id: "b-edition-note", role: "status" }, [
      "Switched to the " + (state.edition === "1" ? "1st" : "2nd") + " edition: " + said.join("; ") + ". ",
      el("button", { type: "button", class: "link", text: "Undo the switch", onclick: function () {
        state = JSON.parse(before); cardCache = {}; nearCache = {}; plotAsked = {}; note.remove(); render();
        learn(allCards().map(function (x) { return x.card.name; }));
      } })]);
    document.getElementById("b-edition").closest("fieldset").appendChild(note);
  }
  document.getElementById("b-edition").addEventListener("change", function (e) {
    var before = JSON.stringify(state), was = JSON.parse(before);
    state.edition = e.target.value;
    state.phase = { marshalling: "marshaling", marshaling: "marshalling" }[state.phase] || state.phase;  // each edition's spelling
    cardCache = {}; nearCache = {}; plotAsked = {};  // suggestions and printed values are one edition's: fetched again for this one
    learn(allCards().map(function (x) { return x.card.name; }));
    // a House or faction and a printing belong to one edition's cards: both are chosen again
    state.players.forEach(function (p) {
      p.house = "";
      if (p.title && TITLES[state.edition].indexOf(p.title) < 0) delete p.title;  // Master of Ships / Lord Commander: one edition's
      ZONES.forEach(function (z) {
        p.zones[z[0]].forEach(function (c) {
          delete c.printing;
          if (state.edition === "1") delete c.constant;  // the first edition applies no constant ability
          if (c.cannot) { c.cannot = c.cannot.filter(function (w) { return CANNOTS[state.edition].indexOf(w) >= 0; }); if (!c.cannot.length) delete c.cannot; }
        });
      });
    });
    render();
    editionNote(before, was);
  });
  document.getElementById("b-phase").addEventListener("change", function (e) { state.phase = e.target.value; refreshYaml(); });
  document.getElementById("b-title").addEventListener("input", function (e) {
    state.title = e.target.value; refreshYaml();
    var printed = document.getElementById("b-print-title"); if (printed) printed.textContent = printTitle();  // retitled after the run
  });
  document.getElementById("b-add-player").addEventListener("click", function () { state.players.push(player("Player " + String.fromCharCode(65 + state.players.length), false)); render(); });
  document.getElementById("b-add-step").addEventListener("click", function () {
    state.steps.push(newStep(document.getElementById("b-step-kind").value)); render();
    var last = document.getElementById("s" + (state.steps.length - 1)); if (last) { var f = last.querySelector("select,input"); if (f) f.focus(); }
  });
  document.getElementById("b-share").addEventListener("click", share);
  form.addEventListener("submit", run);

  var m = /#s=([A-Za-z0-9._-]+)/.exec(location.hash);
  if (m) {
    Promise.resolve(m[1]).then(decodeState).then(function (loaded) {
      state = checkedState(loaded); savedJson = JSON.stringify(state); render(); learn(allCards().map(function (x) { return x.card.name; })); run();
    }).catch(function () {
      state = blank();  // the empty form (r53: the state that failed was drawn again, and failed again half drawn)
      savedJson = JSON.stringify(state);  // the damaged link stays in the address until the form is changed
      render();
      // at the top, in view: below the empty form, a phone showed it some 2,000 px down and the builder looked merely empty
      var box = el("p", { class: "error field-error", id: "b-link-error", role: "alert", text: "This share link is damaged: it could not be read. Ask for the link again." });
      (document.querySelector("main h1") || form).after(box);
      box.scrollIntoView({ block: "nearest" });
    });
  } else {
    savedJson = JSON.stringify(state);
    render();
  }
})();

// judgekb in the browser: search as you type (from the server, or from the copy kept on this device
// when the network is gone), copy buttons that work over plain HTTP, recent look-ups, card-name
// suggestions, and the offline copy.  Every page works without this script.
(function () {
  "use strict";
  var body = document.body;
  var MODE = body.getAttribute("data-mode") || "server"; // "server", or "static" for an exported site
  var ROOT = body.hasAttribute("data-root") ? body.getAttribute("data-root") : "/"; // "" at the top of an exported site
  var store = (function () {
    try { var k = "__judgekb"; localStorage.setItem(k, k); localStorage.removeItem(k); return localStorage; } catch (e) { return null; }
  })();
  function load(key, fallback) { try { var v = store && store.getItem(key); return v ? JSON.parse(v) : fallback; } catch (e) { return fallback; } }
  function save(key, value) { try { if (store) store.setItem(key, JSON.stringify(value)); } catch (e) { /* storage full or refused */ } }
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
  var BADGE = { 1: "1st ed.", 2: "2nd ed." };

  // ------------------------------------------------------------------ links (server paths, or files of an exported site)
  function clauseHref(id) { return MODE === "static" ? ROOT + "c/" + id + ".html" : "/c/" + id; }
  function cardHref(card) {
    if (MODE === "static") return ROOT + card[2];
    return "/card?name=" + encodeURIComponent(card[0]) + "&edition=" + card[1];
  }
  // pages this device can open without the network: an exported copy's files, or the service worker's saved
  // pages (none at a plain-HTTP venue address: browsers keep an offline copy only on https or localhost)
  function pagesSaved() {
    return MODE === "static" || !!(navigator.serviceWorker && navigator.serviceWorker.controller);
  }
  // a card suggested as a chip that opens its page: its title and its edition's badge (search page and Cards page).
  // held: found on the device while the network is down and no page is saved here, so the card's page cannot open:
  // the chip names the card without linking to the browser's "no internet" page (a blind review tapped one)
  var HELD_CARD = "Its page cannot open offline at this address: it opens when the network is back";
  function cardChip(card, lead, held) {
    var a = el(held ? "span" : "a", "chip card-suggestion", lead + card[0] + " ");
    if (held) { a.classList.add("held"); a.title = HELD_CARD; } else a.href = cardHref(card);
    a.appendChild(el("small", "", BADGE[card[1]]));
    return a;
  }
  function searchHref(q, ed) {
    var base = MODE === "static" ? ROOT + "index.html" : "/";
    return base + "?q=" + encodeURIComponent(shortened(q).text) + (ed && ed !== "all" ? "&edition=" + ed : "");
  }

  // ------------------------------------------------------------------ a query longer than the lookup reads
  // Shortened as the server's lookup shortens it (judgekb.lookup.words.clean and _asked_span, with its limits and
  // notes), before it goes into an address or a request: an 8,000-character paste made an 11,000-character address,
  // which the server refuses when the page is reloaded or the link shared.  tests/web/test_web.py checks the limits agree.
  var MAX_WORDS = 64, MAX_QUERY_CHARS = 500, LONG_WORD = 40;
  function chars(t) { return Array.from(t).length; }  // as Python counts: code points, not UTF-16 units
  function askedSpan(ws) {
    var end = ws.length, i, start, size = -1;
    for (i = ws.length - 1; i >= 0; i--) if (/\?$/.test(ws[i])) { end = i + 1; break; }
    start = end;
    while (start > 0 && end - start < MAX_WORDS && size + 1 + chars(ws[start - 1]) <= MAX_QUERY_CHARS) { size += 1 + chars(ws[start - 1]); start--; }
    while (end < ws.length && end - start < MAX_WORDS && size + 1 + chars(ws[end]) <= MAX_QUERY_CHARS) { size += 1 + chars(ws[end]); end++; }
    return [start, end];
  }
  function shortened(query) {
    var ws = String(query || "").split(/\s+/).filter(Boolean), text = ws.join(" ");
    if (ws.length <= MAX_WORDS && chars(text) <= MAX_QUERY_CHARS) return { text: String(query || "").trim(), note: "" };
    var span = Math.max.apply(null, ws.map(chars)) <= LONG_WORD ? askedSpan(ws) : [0, 0], notes = [];
    if (span[1] > span[0]) {
      var said = (span[1] - span[0]) + " words";
      notes.push(span[0] === 0 ? "query shortened to its first " + said
        : span[1] === ws.length ? "query shortened to its last " + said + ": a long question asks at its end"
        : "query shortened to the " + said + " that end with its last question mark");
      text = ws.slice(span[0], span[1]).join(" ");
    } else {  // a word no question has: its first characters, as typed
      if (ws.length > MAX_WORDS) { notes.push("query shortened to its first " + MAX_WORDS + " words"); text = ws.slice(0, MAX_WORDS).join(" "); }
      if (chars(text) > MAX_QUERY_CHARS) { notes.push("query shortened to its first " + MAX_QUERY_CHARS + " characters"); text = Array.from(text).slice(0, MAX_QUERY_CHARS).join("").trimEnd(); }
    }
    return { text: text, note: notes.join("; ") };
  }

  // ------------------------------------------------------------------ rich text as DOM nodes (never innerHTML)
  // a marked word keeps a parenthesis it opens or closes: "effect(s)" is one word (search.whole_word, r88 L10)
  function occurrences(t, c) { return t.split(c).length - 1; }
  function wholeWord(parts) {
    var lead = parts[1], word = parts[2], tail = parts[3];
    while (occurrences(word, "(") > occurrences(word, ")") && tail.charAt(0) === ")") { word += ")"; tail = tail.slice(1); }
    while (occurrences(word, ")") > occurrences(word, "(") && lead.slice(-1) === "(") { lead = lead.slice(0, -1); word = "(" + word; }
    return [parts[0], lead, word, tail];
  }
  var RICH = /\[([^\[\]\s]+)\]|\*\*(?=\S)(.+?)\*\*|\*(?=\S)([^*]+?)\*/g;
  function rich(parent, text, cut) {
    var last = 0, m;
    text = text || "";
    // a snippet window can cut an emphasis pair in half: its stray asterisks are dropped
    function plain(t) { return cut ? t.replace(/(\S)\*+|\*+(\S)/g, "$1$2") : t; }
    RICH.lastIndex = 0;
    while ((m = RICH.exec(text))) {
      if (m.index > last) parent.appendChild(document.createTextNode(plain(text.slice(last, m.index))));
      if (m[1] !== undefined) {  // a highlighted word: its quotes and stops stay unmarked
        var parts = /^(["'\u201c\u2018(]*)(.*?)([.,;:!?"'\u201d\u2019)]*)$/.exec(m[1]);
        parts = wholeWord(parts);
        if (parts[1]) parent.appendChild(document.createTextNode(parts[1]));
        parent.appendChild(el("mark", "", parts[2] || m[1]));
        if (parts[3]) parent.appendChild(document.createTextNode(parts[3]));
      } else {
        parent.appendChild(el(m[2] !== undefined ? "strong" : "em", "", m[2] || m[3]));
      }
      last = RICH.lastIndex;
    }
    if (last < text.length) parent.appendChild(document.createTextNode(plain(text.slice(last))));
    return parent;
  }
  // A snippet's marks read against the text it was cut from (as webtext.snippet does): lookup writes a matched token as
  // [token], and a text writes icons in brackets too, so a marked "([military])" showed as "[(military)]" (r81 L2).
  // The snippet's tokens are a run of the text's, each as it is or in brackets (the window's "…" aside).
  function markedTokens(shown, source) {
    var words = (source || "").split(/\s+/).filter(Boolean), start, i, ok;
    var lead = shown[0] === "\u2026" ? 1 : 0, tail = shown.length > lead && shown[shown.length - 1] === "\u2026" ? 1 : 0;
    var body = shown.slice(lead, shown.length - tail);
    for (start = 0; start + body.length <= words.length; start++) {
      for (i = 0, ok = true; i < body.length && ok; i++) ok = body[i] === words[start + i] || body[i] === "[" + words[start + i] + "]";
      if (ok) return shown.map(function (t, k) { return k >= lead && k < lead + body.length && t !== words[start + k - lead]; });
    }
    return null;
  }
  var OPEN = "\uE000", CLOSE = "\uE001";  // a text's own brackets, kept apart from the marks while they are read
  function snippetInto(parent, text, source) {
    var shown = (text || "").split(" "), marks = source ? markedTokens(shown, source) : null;
    if (!marks) return rich(parent, text, true);
    function literal(t) { return t.replace(/\[/g, OPEN).replace(/\]/g, CLOSE); }
    rich(parent, shown.map(function (t, k) { return marks[k] ? "[" + literal(t.slice(1, -1)) + "]" : literal(t); }).join(" "), true);
    var walker = document.createTreeWalker(parent, NodeFilter.SHOW_TEXT), node;
    while ((node = walker.nextNode())) node.nodeValue = node.nodeValue.replace(/\uE000/g, "[").replace(/\uE001/g, "]");
    return parent;
  }
  function hitSource(hit) {
    var c = hit.citation || "";
    // (the question is the title; an entry named otherwise, as FAQ v4.1's, keeps its name)
    if (hit.kind === "qa" && hit.heading && (!hit.question || hit.question === hit.heading)) {
      var quoted = "\u201c" + hit.heading + "\u201d";
      if (c.indexOf(quoted) >= 0) return c.replace(quoted, "Q&A");
      if (c.indexOf(hit.heading) >= 0) return c.replace(hit.heading, "Q&A");
    }
    return c;
  }

  // ------------------------------------------------------------------ the search index kept on the device
  var indexPromise = null;
  function getIndex() {
    if (!indexPromise) {
      indexPromise = (MODE === "static"
        ? Promise.resolve(window.JUDGEKB_INDEX)
        : fetch("/offline/index.json").then(function (r) { if (!r.ok) throw new Error("index " + r.status); return r.json(); })
      ).then(prepare);
      indexPromise.catch(function () { indexPromise = null; });
    }
    return indexPromise;
  }
  // fetch the index into this open page once it is idle (the search page and the Cards page): at a plain-HTTP
  // address nothing is saved, and the open page is all that can search when the network drops
  function keepIndexWhenIdle() {
    if (MODE !== "static") setTimeout(function () { getIndex().catch(function () {}); }, 1500);
  }
  var STOP = {};
  ("the a an of to in is are am do does did i my me it its on for and or if be with at by as what how who whom when can could would " +
   "should will shall that this these those there their they them he she his her we our us from into than then so not no any all about " +
   "which while after before happens happen new").split(" ").forEach(function (w) { STOP[w] = 1; });
  // (accents dropped from Latin letters, as the server's lookup reads "émoji" as "emoji")
  function words(text) {
    return (text || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[\u2019\u2018]/g, "'").match(/[0-9a-z]+(?:'[a-z]+)?/g) || [];
  }
  function stem(w) {
    var sfx = ["ing", "ed", "es", "s"];
    for (var i = 0; i < sfx.length; i++) if (w.length > sfx[i].length + 3 && w.slice(-sfx[i].length) === sfx[i]) return w.slice(0, -sfx[i].length);
    return w;
  }
  function prepare(data) {
    if (!data || !data.clauses) throw new Error("no search index");
    var byId = {};
    data.items = data.clauses.map(function (c) {
      var item = { id: c[0], edition: c[1], kind: c[2], heading: c[3], citation: c[4], text: c[5], governors: Array.isArray(c[6]) ? c[6] : [], unofficial: !!c[7], standsRemoved: !!c[8] };  // (an index saved by an older page: no governors)
      item.head = {}; item.headSize = 0;
      words(c[3]).forEach(function (w) { if (!STOP[w] && w.length > 1 && !item.head[stem(w)]) { item.head[stem(w)] = 1; item.headSize++; } });
      item.stems = {}; words(c[3] + " " + c[5]).forEach(function (w) { item.stems[stem(w)] = 1; });
      item.lower = (c[3] + " " + c[5]).toLowerCase();
      byId[item.id] = item;
      return item;
    });
    data.byId = byId;
    // the steps printed under a title, as the server's store.parts reads them: ids one level below its
    // own, in the document's order (the index lists clauses by document and position)
    data.items.forEach(function (item) {
      var parent = byId[item.id.slice(0, item.id.lastIndexOf("/"))];
      if (parent && item.id.indexOf("/") < item.id.lastIndexOf("/")) (parent.parts = parent.parts || []).push({ id: item.id, heading: item.heading });
    });
    data.vocab = {};
    data.items.forEach(function (item) { for (var w in item.stems) data.vocab[w] = 1; });
    data.vocabList = Object.keys(data.vocab);
    data.questionOnly = {};  // the server's question words (an index saved by an older page has none)
    (data.question_only || []).forEach(function (w) { data.questionOnly[w] = 1; });
    body.setAttribute("data-index-ready", "1");
    return data;
  }
  function snippetOf(text, stems, width) {
    var tokens = (text || "").split(/\s+/).filter(Boolean), flags, ideas, best = [-1, -1], start = 0, i, j;
    // each query word is an idea: the ideas (stem indexes) each token says
    ideas = tokens.map(function (t) {
      var said = {}; words(t).forEach(function (w) { var s = stem(w); stems.forEach(function (q, n) { if (s.indexOf(q) === 0) said[n] = 1; }); });
      return said;
    });
    flags = ideas.map(function (said) { return Object.keys(said).length > 0; });
    // as the server's snippets (judgekb.lookup.search.snippet): the window from a marked word that says the most
    // different ideas, then has the most marks; the matches, then what follows them, from a sentence's start
    // where one is near; a sentence ending at most REACH words past the window is shown whole
    for (i = 0; i < tokens.length; i++) {
      if (!flags[i]) continue;
      var seen = {}, n = 0;
      for (j = i; j < Math.min(tokens.length, i + width); j++) if (flags[j]) { n++; for (var d in ideas[j]) seen[d] = 1; }
      var score = [Object.keys(seen).length, n];
      if (score[0] > best[0] || (score[0] === best[0] && score[1] > best[1])) { best = score; start = i; }
    }
    start = Math.min(start, Math.max(0, tokens.length - width));
    var REACH = 8, k, closes = function (t) { return /[.?!:](\)|\u201d|")?$/.test(t); };
    var marked = []; for (k = start; k < Math.min(tokens.length, start + width); k++) if (flags[k]) marked.push(k);
    var told = {}, lastNew = 0;  // placed by the marks that say something new
    marked.forEach(function (k, n) { var fresh = false; for (var d in ideas[k]) if (!told[d]) { told[d] = 1; fresh = true; } if (fresh) lastNew = n; });
    marked = marked.slice(0, lastNew + 1);
    if (marked.length) {  // a third of the spare words before the matches, or the nearest sentence start that shows them all
      var first = marked[0], last = marked[marked.length - 1], at = Math.min(Math.max(0, first - Math.floor((width - (last - first + 1)) / 3)), Math.max(0, tokens.length - width));
      var open = -1;
      for (k = Math.max(0, last + 1 - width); k <= first; k++) {
        if ((!k || closes(tokens[k - 1])) && (open < 0 || Math.abs(k - at) < Math.abs(open - at))) open = k;
      }
      start = open >= 0 ? open : at;
    }
    var end = Math.min(tokens.length, start + width), begins = start, ends = end;
    for (k = start; k >= Math.max(0, start - REACH); k--) if (!k || closes(tokens[k - 1])) { begins = k; break; }
    for (k = end; k <= Math.min(tokens.length, end + REACH); k++) if (k && closes(tokens[k - 1])) { ends = k; break; }
    if (begins !== start && ends - begins > width + REACH) ends = end;
    var out = tokens.slice(begins, ends).map(function (t, k) { return flags[begins + k] && /^[^\[\]]+$/.test(t) ? "[" + t + "]" : t; });
    return (begins > 0 ? "\u2026 " : "") + out.join(" ") + (ends < tokens.length ? " \u2026" : "");
  }
  function editDistance(a, b, max) {
    if (Math.abs(a.length - b.length) > max) return max + 1;
    var prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev[j] = j;
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var best = i;
      for (j = 1; j <= b.length; j++) {
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (cur[j] < best) best = cur[j];
      }
      if (best > max) return max + 1;
      prev = cur;
    }
    return prev[b.length];
  }
  // A word the saved copy never uses is replaced by the nearest word it does use (one or two letters off).
  function nearest(data, s) {
    if (data.vocab[s] || s.length < 4 || /^\d+$/.test(s)) return s;
    var max = s.length >= 7 ? 2 : 1, best = s, bestD = max + 1;
    data.vocabList.forEach(function (w) { var d = editDistance(s, w, max); if (d < bestD) { bestD = d; best = w; } });
    return best;
  }
  // A plain word match: every query word (or the start of the last one, while typing) counts, headings count more.
  function localSearch(data, query, edition, limit) {
    var all = words(query), content = all.filter(function (w) { return !STOP[w]; });
    // "what is the": only question words, as the server says ("before or after", "what then" still search)
    if (all.length >= 2 && all.every(function (w) { return data.questionOnly[w]; })) return [];
    if (!content.length) content = all;
    if (!content.length) return [];
    var stems = content.map(function (w, i) {
      var s = stem(w);
      if (i === content.length - 1 && data.vocabList.some(function (v) { return v.indexOf(s) === 0; })) return s; // still typing it
      return nearest(data, s);
    }), lowered = all.join(" "), question = /\?$|^(who|what|when|how|can|does|do|is|if|may|should|why) /i.test(query.trim());
    var matched = {};
    data.items.forEach(function (c) {
      if (edition && String(c.edition) !== String(edition)) return;
      var found = 0, head = 0, foundWords = {};
      stems.forEach(function (s, i) {
        var hit = c.stems[s] || (i === stems.length - 1 && s.length >= 3 && Object.keys(c.stems).some(function (w) { return w.indexOf(s) === 0; }));
        if (hit) { found++; foundWords[i] = 1; if (c.head[s]) head++; }
      });
      if (!found) return;
      // the heading counts as F1 of query words against heading words, as in the server's ranking
      var recall = head / stems.length, precision = c.headSize ? Math.min(1, head / c.headSize) : 0;
      var headScore = head ? 2 * recall * precision / (recall + precision) : 0;
      var score = 0.5 * found / stems.length + 0.35 * headScore + (all.length > 1 && c.lower.indexOf(lowered) >= 0 ? 0.1 : 0);
      if (question && c.kind === "qa") score += 0.05;
      if (c.kind === "preamble") score -= 0.1;
      matched[c.id] = { score: score, words: foundWords };
    });
    // As the server folds (judgekb.lookup.search.Index._fold): a superseded text under its successor; a
    // restatement under the governor that covers most of the query, unless it answers a query word none
    // of its governors does: then it stands on its own, flagged unofficial.
    var scored = {};
    function covers(id) { return matched[id] ? matched[id].words : {}; }
    Object.keys(matched).forEach(function (id) {
      var c = data.byId[id], m = matched[id];
      var governors = c.governors.filter(function (g) {
        return data.byId[g[0]] && (!edition || String(data.byId[g[0]].edition) === String(edition));
      });
      var size = function (g) { return Object.keys(covers(g[0])).length; };
      var chosen = governors.slice().sort(function (a, b) { return size(b) - size(a) || governors.indexOf(a) - governors.indexOf(b); })[0];
      var supersededBy = "";
      if (chosen && chosen[1] !== "superseded") {
        var known = {};
        governors.forEach(function (g) { Object.keys(covers(g[0])).forEach(function (w) { known[w] = 1; }); });
        if (Object.keys(m.words).some(function (w) { return !known[w]; })) chosen = null;
      } else if (chosen && c.standsRemoved && Object.keys(m.words).some(function (w) { return !covers(chosen[0])[w]; })) {
        // a list introduction a later version removed, the only text that says it: its own hit, not in force, below its successor
        supersededBy = chosen[0]; chosen = null;
      }
      var target = chosen ? chosen[0] : id;
      var entry = scored[target] || (scored[target] = { id: target, score: matched[target] ? matched[target].score : 0, folded: [] });
      if (!chosen || chosen[1] !== "superseded" || !matched[target]) entry.score = Math.max(entry.score, m.score);
      if (chosen) entry.folded.push({ id: id, relation: chosen[1], citation: c.citation, sentence: chosen[2] || "" });
      else entry.unofficial = c.unofficial;
      if (supersededBy) entry.supersededBy = supersededBy;
    });
    Object.keys(scored).forEach(function (k) {  // (after every fold: the successor's score is final)
      var s = scored[k], over = s.supersededBy && scored[s.supersededBy];
      if (over) s.score = Math.min(s.score, over.score - 1e-6);
    });
    return Object.keys(scored).map(function (k) { return scored[k]; })
      .sort(function (a, b) { return b.score - a.score || (a.id < b.id ? -1 : 1); })
      .slice(0, limit)
      .map(function (s) {
        var c = data.byId[s.id], titleOnly = words(c.text).join(" ") === words(c.heading).join(" ");
        return { id: c.id, citation: c.citation, edition: c.edition, kind: c.kind, heading: c.heading, text: c.text,
                 snippet: snippetOf(c.text, stems, 30), folded: s.folded.slice(0, 3), score: s.score, unofficial: !!s.unofficial,
                 superseded_by: s.supersededBy || "", superseded_by_citation: s.supersededBy ? data.byId[s.supersededBy].citation : "",
                 parts: titleOnly ? c.parts || [] : [] };  // as the server's results: a bare title's steps
      });
  }
  // A card title as a judge types it, as the server's cardnames.loose_key reads it: no accents, apostrophes or
  // quotes, other punctuation a space, no leading "the"/"a"/"an" ("tyrions chain", "jaqen hghar", "cask of ale").
  function looseName(text) {
    return (text || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[\u2019\u2018`\u00b4'"*\u201c\u201d]/g, "")
      .replace(/[^\p{L}\p{N}]+/gu, " ").trim().replace(/^(?:the|a|an) (?=\S)/, "");
  }
  // every key a title answers to, as cardnames.title_keys: a possessive "'s" typed as "s" or left out ("varys riddle")
  function titleKeys(name) {
    var plain = looseName(name), dropped = looseName(name.replace(/(\w)['\u2019]s\b/gi, "$1"));
    return dropped === plain ? [plain] : [plain, dropped];
  }
  function matchingCards(data, query, edition, limit) {
    var q = looseName(query);
    if (q.length < 2) return [];
    var keys = data.cardKeys || (data.cardKeys = data.cards.map(function (c) { return titleKeys(c[0]); }));
    var starts = [], contains = [];
    data.cards.forEach(function (c, i) {
      if (edition && String(c[1]) !== String(edition)) return;
      var ks = keys[i];
      if (ks.some(function (n) { return n.indexOf(q) === 0 || n.indexOf(" " + q) >= 0; })) starts.push(c);
      else if (q.length >= 4 && ks.some(function (n) { return n.indexOf(q) >= 0; })) contains.push(c);
    });
    return starts.concat(contains).slice(0, limit);
  }
  function sameCard(card, typed) { return titleKeys(card[0]).indexOf(looseName(typed)) >= 0; }
  // No title starts with the name typed ("Tycho Nestorys"): the titles nearest it, best first, by the similarity the
  // server's cardnames offers near titles by (fuzz.ratio of the loose keys: 200 x their longest common subsequence /
  // their total length, at least NEAR_SCORE).  Offered as chips, never opened: a page opened for another title than
  // the one typed must say so, and only the server's page does (r54 L5).
  var NEAR_SCORE = 60, NEAR_LIMIT = 5;
  function similarity(a, b) {
    var prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev.push(0);
    for (i = 1; i <= a.length; i++) {
      cur = [0];
      for (j = 1; j <= b.length; j++) cur.push(a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]));
      prev = cur;
    }
    return a.length + b.length ? 200 * prev[b.length] / (a.length + b.length) : 0;
  }
  function nearCards(data, query, edition, limit) {
    var q = looseName(query), keys = data.cardKeys || (data.cardKeys = data.cards.map(function (c) { return titleKeys(c[0]); }));
    if (q.length < 3) return [];
    var scored = [];
    data.cards.forEach(function (c, i) {
      if (edition && String(c[1]) !== String(edition)) return;
      var best = Math.max.apply(null, keys[i].map(function (k) { return similarity(q, k); }));
      if (best >= NEAR_SCORE) scored.push([best, c]);
    });
    scored.sort(function (a, b) { return b[0] - a[0] || (a[1][0] < b[1][0] ? -1 : a[1][0] > b[1][0] ? 1 : a[1][1] - b[1][1]); });
    return scored.slice(0, limit).map(function (s) { return s[1]; });
  }
  window.judgekbNames = { loose: looseName, keys: titleKeys };  // the builder reads typed card names the same way

  // measured by bench/offline.py against the server's lookup on the same evaluation set
  window.judgekbOffline = { index: getIndex, search: localSearch };

  // ------------------------------------------------------------------ recent look-ups (this device only)
  function remember(entry) {
    var list = load("judgekb.recent", []).filter(function (e) { return e.label !== entry.label || e.kind !== entry.kind; });
    list.unshift(entry);
    save("judgekb.recent", list.slice(0, 12));
  }
  function showRecent() {
    var box = document.getElementById("recent"), list = document.getElementById("recent-list");
    if (!box || !list) return;
    var items = load("judgekb.recent", []);
    list.textContent = "";
    items.forEach(function (e) {
      var a = el("a", "chip recent", (e.kind === "card" ? "card: " : "") + e.label);
      a.href = e.kind === "card" ? (MODE === "static" ? ROOT + e.path : e.href) : searchHref(e.label, e.edition);
      list.appendChild(a);
    });
    box.hidden = !items.length;
    var clear = document.getElementById("recent-clear");
    if (clear && !clear.dataset.bound) {
      clear.dataset.bound = "1";
      clear.addEventListener("click", function () { save("judgekb.recent", []); showRecent(); });
    }
  }

  // ------------------------------------------------------------------ search page
  var q = document.getElementById("q"), edition = document.getElementById("edition"), list = document.getElementById("results");
  if (q && list && edition) {
    var timer = null, last = "", modeNote = document.getElementById("search-mode"), chips = document.getElementById("card-suggestions");
    var params = new URLSearchParams(location.search);
    if (!params.has("edition")) { var kept = load("judgekb.edition", null); if (kept) edition.value = kept; }
    if (!q.value && params.get("q")) q.value = params.get("q"); // a cached or exported page: the query is only in the address
    // (and so is the edition: "/?q=stelth&edition=2" opened from the offline copy searches second edition)
    var asked = params.get("edition");
    if (asked && asked !== edition.value && [].some.call(edition.options, function (o) { return o.value === asked; })) edition.value = asked;
    // what the search is doing, in a line or two; the rest of what it means behind "more" (r81 L6: offline at a venue's
    // address it was nine lines of a phone's screen, the first result 40 % down)
    function setMode(text, more) {
      modeNote.textContent = text || "";
      if (text && more) {
        var box = el("details", "mode-more");
        box.appendChild(el("summary", "", "More on searching offline")); box.appendChild(el("p", "", more));
        modeNote.appendChild(document.createTextNode(" ")); modeNote.appendChild(box);
      }
      modeNote.hidden = !text;
    }
    // Back to a list of results lands where the judge was (r81 M5: it landed at the top).  The position is kept in the
    // history entry as the page scrolls; a page whose results are drawn here after it loads (the saved copy, an exported
    // site, a search the network could not answer) is put back there once they are drawn.
    var navigation = (performance.getEntriesByType && performance.getEntriesByType("navigation")[0]) || {};
    var scrollBack = navigation.type === "back_forward" && history.state && typeof history.state.scroll === "number" ? history.state.scroll : null;
    var scrollTimer = null;
    function keepScroll() {
      try { history.replaceState(Object.assign({}, history.state, { scroll: window.scrollY }), ""); } catch (e) { /* refused */ }
    }
    window.addEventListener("scroll", function () { clearTimeout(scrollTimer); scrollTimer = setTimeout(keepScroll, 150); }, { passive: true });
    list.addEventListener("click", keepScroll, true);  // (a result opened before the pause after scrolling)
    function scrollWhereKept() {
      if (scrollBack === null) return;
      var y = scrollBack; scrollBack = null;
      window.scrollTo(0, y);
    }
    function showNotes(shown) {
      // each note as the server shows it (webtext.note_parts): text pieces, and links to card pages
      var notes = document.getElementById("notes");
      if (!notes) return;
      notes.textContent = "";
      shown.forEach(function (pieces) {
        var p = el("p", "note");
        (typeof pieces === "string" ? [{ text: pieces }] : pieces).forEach(function (piece) {
          if (!piece.href) { p.appendChild(document.createTextNode(piece.text)); return; }
          var a = el("a", "card-link", piece.text); a.href = piece.href; p.appendChild(a);
        });
        notes.appendChild(p);
      });
    }
    // searched on this device with no saved pages (plain http on the venue network keeps none): a result's
    // page cannot open while the network is down, so its full text, kept in the search index, is shown here
    var AMENDS_SAID = "Corrects a text not in the corpus: what it corrects";
    function render(hits, here) {
      var inline = here && !pagesSaved();
      // (inline: no clause page can open, so nothing links to one; a phone review tapped a title and got the
      // browser's "no internet" page.  The title opens the full text under it instead.)
      function clauseLink(cls, id) { var a = el("a", cls); if (!inline) a.href = clauseHref(id); return a; }
      list.textContent = "";
      var empty = document.getElementById("empty"); if (empty) empty.remove();
      hits.forEach(function (hit) {
        var li = el("li", "hit"), title = el("p", "hit-title"), a = clauseLink("citation", hit.id), full = null;
        title.appendChild(el("span", "badge ed" + hit.edition, BADGE[hit.edition] || ""));
        rich(a, hit.kind === "qa" ? "Q: " + (hit.question || hit.heading) : hit.heading); title.appendChild(a); li.appendChild(title);
        if (hit.unofficial) li.appendChild(el("p", "unofficial", "Unofficial text (it answers what the official clauses here do not): check it against the official documents before citing."));
        if (hit.superseded_by) {
          var gone = el("p", "unofficial", "Not in force: a later version no longer carries it (see "), now = clauseLink("", hit.superseded_by);
          now.textContent = hit.superseded_by_citation || hit.superseded_by; gone.appendChild(now); gone.appendChild(document.createTextNode(").")); li.appendChild(gone);
        }
        if (hit.amends) {  // judgekb's own note, some ten lines on a phone: on demand, not above the next result (r81 M1)
          var amends = el("details", "unofficial amends");
          amends.appendChild(el("summary", "", AMENDS_SAID)); amends.appendChild(el("p", "", hit.amends));
          li.appendChild(amends);
        }
        li.appendChild(snippetInto(el("p", "snippet"), hit.snippet || "", hit.text));  // whole, as lookup cut it (r81 M1)
        // a flattened PDF's icon the snippet shows ("|", the Shadows crest), said as the clause page says it (r79 L3)
        (hit.glyph_notes || []).forEach(function (note) { li.appendChild(el("p", "glyph-note", "Note: " + note)); });
        li.appendChild(el("p", "source", hitSource(hit)));
        if (inline && hit.text) {
          full = el("details", "offline-text"); var said = el("summary", "", "Full text (its page cannot be opened offline here)");
          full.appendChild(said); full.appendChild(el("p", "", hit.text));
          li.appendChild(full);
        }
        if (inline) {
          a.setAttribute("role", "button"); a.tabIndex = 0;
          a.title = "Its page cannot open offline here: tap for its full text";
          var open = function (ev) {
            if (ev.type === "keydown" && ev.key !== "Enter" && ev.key !== " ") return;
            ev.preventDefault();
            if (full) { full.open = !full.open; if (full.open) full.scrollIntoView({ block: "nearest" }); }
          };
          a.addEventListener("click", open); a.addEventListener("keydown", open);
        }
        if (hit.parts && hit.parts.length) {  // a title with no text of its own: the steps printed under it
          var parts = el("p", "parts", "In this section:");
          hit.parts.forEach(function (part) {
            var pa = clauseLink("", part.id); rich(pa, part.heading);
            parts.appendChild(document.createTextNode(" ")); parts.appendChild(pa);
          });
          li.appendChild(parts);
        }
        var folded = hit.folded || [], more = folded.length > 5 ? el("details", "folded-more") : null;
        if (more) more.appendChild(el("summary", "", (folded.length - 5) + " more folded under it"));
        folded.forEach(function (f, i) {
          var p = el("p", "folded", ({superseded: "supersedes", redirects: "pointed to by"}[f.relation] || "restated in") + ": "), fa = clauseLink("", f.id);
          fa.textContent = f.citation; p.appendChild(fa);
          if (f.sentence) p.appendChild(document.createTextNode(", the sentence \u201c" + f.sentence + "\u201d"));
          (i < 5 ? li : more).appendChild(p);
        });
        if (more) li.appendChild(more);
        list.appendChild(li);
      });
      if (!hits.length && q.value.trim()) { var p = el("p", "", "No results."); p.id = "empty"; list.after(p); }
      var start = document.getElementById("start"); if (start) start.hidden = !!q.value.trim();
      scrollWhereKept();
    }
    function renderCards(cards, here) {
      var held = !!here && !pagesSaved();
      chips.textContent = "";
      cards.forEach(function (c) {
        chips.appendChild(cardChip(c, "Card: ", held));
      });
      if (held && cards.length) chips.appendChild(el("small", "held-note", "A card's page opens when the network is back."));
      chips.hidden = !cards.length;
    }
    var DIFFERS = "It is a plain word match: unlike the server it knows no synonyms or abbreviations (STR, mil\u2026), fixes only near spellings, and ranks more simply.";
    var OFFLINE_NOTE = ["Offline \u2014 searching the copy saved on this device, a plain word match.", DIFFERS];
    var STATIC_NOTE = ["Exported copy \u2014 searching on this device, a plain word match.", DIFFERS];
    // plain http:// on the venue network: no service worker, nothing saved; only this open page holds the index
    var HELD_NOTE = ["Offline \u2014 searching the index this open page fetched: keep this page open; a result's page cannot open, so tap its title for its full text.",
      "Nothing is saved at this address (plain http://): reloading or closing it loses the search until the network is back. " + DIFFERS];
    function offlineNote() {
      return navigator.serviceWorker && navigator.serviceWorker.controller ? OFFLINE_NOTE : HELD_NOTE;
    }
    // a card's list status is the server's answer (the imported lists in force): the device's copy holds none,
    // and its plain word match found an unofficial "this content has moved" paragraph for "Robb Stark restricted"
    var STATUS_ASKED = /\b(?:un)?restricted\b|\bbanned\b|\bban list\b|\blegal(?:ity)?\b|\bpods?\b/i;
    var STATUS_NOTE = "Whether a card is restricted or banned is answered by the server, from the lists in force: " +
      "offline, the clauses below only match the words; ask again when the network is back, or see the card's page online.";
    function searchHere(value, ed, key, said) {
      return getIndex().then(function (data) {
        if (key !== last) return;
        var started = performance.now();
        var hits = localSearch(data, value, ed === "all" ? null : ed, 10);
        body.setAttribute("data-local-search-ms", (performance.now() - started).toFixed(1));
        var mode = MODE === "static" ? STATIC_NOTE : offlineNote();
        setMode(mode[0], mode[1]);
        var notes = STATUS_ASKED.test(value) ? [STATUS_NOTE] : [];
        showNotes(said ? [said].concat(notes) : notes);  // (the server's notes were for another search)
        render(hits, true);
        renderCards(matchingCards(data, value, ed === "all" ? null : ed, 4), true);
      }).catch(function () {
        if (key === last) { setMode("No network, and no copy of the rules is saved on this device yet."); render([]); }
      });
    }
    // The address follows the search (r81 L4): while the judge types, each query replaces the last in the history; a
    // search that has stood for SETTLE_MS, was sent with the Search button or Enter, or opened the page, is kept, and
    // the next query is a new entry, so Back returns to it instead of leaving judgekb.
    var SETTLE_MS = 1500, settled = !!q.value.trim(), settleTimer = null;
    function keepInHistory(href) {
      var to = new URL(href, location.href), same = to.pathname === location.pathname &&
        to.searchParams.toString() === new URLSearchParams(location.search).toString();  // ("a+b" and "a%20b" alike)
      clearTimeout(settleTimer);
      if (settled && !same) history.pushState(null, "", href);
      else history.replaceState(null, "", href);
      settled = false;
      settleTimer = setTimeout(function () { settled = true; }, SETTLE_MS);
    }
    function inPlace(search) {  // a search that shows the entry it is in (the page's load, Back, Forward): never a new one
      settled = false; search();
      clearTimeout(settleTimer); settled = !!q.value.trim();
    }
    if (MODE !== "static") window.addEventListener("popstate", function (ev) {
      // Back or Forward to a search this page kept: show it (the page was not loaded again)
      var wanted = new URLSearchParams(location.search), ed = wanted.get("edition") || "all";
      q.value = wanted.get("q") || "";
      if ([].some.call(edition.options, function (o) { return o.value === ed; })) edition.value = ed;
      scrollBack = ev.state && typeof ev.state.scroll === "number" ? ev.state.scroll : null;
      clearTimeout(timer); last = "";
      inPlace(lookup);  // (the entry shown is a kept search: the next query is a new one)
    });
    function lookup() {
      var typed = q.value.trim(), ed = edition.value, key = typed + "|" + ed;
      save("judgekb.edition", ed);
      if (key === last) return; last = key;
      if (!typed) { render([]); renderCards([]); setMode(""); showNotes([]); return; }
      var short = shortened(typed), value = short.text;  // what the server would search, and all the address holds
      if (MODE !== "static") keepInHistory(searchHref(value, ed));
      if (MODE === "static" || navigator.onLine === false) { searchHere(value, ed, key, short.note); return; }
      var url = "/api/search?limit=10&notes=1&q=" + encodeURIComponent(value) + (ed !== "all" ? "&edition=" + ed : "");
      // a venue network that hangs rather than fails: after a few seconds, search on the device instead
      var abort = window.AbortController ? new AbortController() : null;
      var slow = setTimeout(function () { if (abort) abort.abort(); }, 5000);
      fetch(url, abort ? { signal: abort.signal } : {}).then(function (r) {
        clearTimeout(slow);
        if (r.status >= 500 || r.type === "error") throw new Error("server");
        if (r.ok) return r.json();
        // refused (a query longer than the server takes, a bad value): say why instead of "No results."
        var said = r.status === 414 ? "The search is too long for the server (" + typed.length + " characters): shorten it to the question itself."
          : "The server refused this search (" + r.status + ")";
        return r.json().then(function (e) { return { hits: [], notes: [e.error ? "The server refused this search: " + e.error : said] }; },
                             function () { return { hits: [], notes: [said] }; });
      }).then(function (body) {
        if (key !== last) return;
        showNotes((short.note ? [short.note] : []).concat(body.notes_shown || body.notes || []));  // whole (e.g. a card's list status)
        var hits = body.hits || [];
        setMode(""); render(hits);
        getIndex().then(function (data) { if (key === last) renderCards(matchingCards(data, value, ed === "all" ? null : ed, 4)); }).catch(function () {});
      }).catch(function () { clearTimeout(slow); if (key === last) searchHere(value, ed, key, short.note); });
    }
    q.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(lookup, 150); });
    edition.addEventListener("change", lookup);
    document.getElementById("search-form").addEventListener("submit", function (ev) {
      ev.preventDefault(); clearTimeout(timer); last = ""; lookup();
      clearTimeout(settleTimer); settled = true;  // sent: kept, as a search that has stood
      if (q.value.trim()) remember({ kind: "search", label: shortened(q.value).text, edition: edition.value });
    });
    list.addEventListener("click", function (ev) {
      if (ev.target.closest("a") && q.value.trim()) remember({ kind: "search", label: shortened(q.value).text, edition: edition.value });
    });
    // the network is back: the server searches again, and results found offline (not linked here) link to their pages
    if (MODE !== "static") window.addEventListener("online", function () { if (q.value.trim()) { last = ""; lookup(); } });
    if (q.value.trim() && (MODE === "static" || !list.children.length)) inPlace(lookup); // exported or cached page, or a restored edition
    else if (q.value.trim() && edition.value !== (params.get("edition") || "all")) inPlace(lookup);
    else { last = q.value.trim() + "|" + edition.value; scrollWhereKept(); }  // (the browser's own, unless focus moved it)
    showRecent();
    keepIndexWhenIdle();  // if the network drops, this open page still searches
  }

  // ------------------------------------------------------------------ card page: suggestions, and look-ups without the server
  var cardForm = document.getElementById("card-form");
  if (cardForm) {
    var nameInput = document.getElementById("name"), cardEdition = document.getElementById("card-edition"), datalist = document.getElementById("card-names");
    var cardParams = new URLSearchParams(location.search);
    if (!cardParams.has("edition")) { var keptEd = load("judgekb.edition", null); if (keptEd) cardEdition.value = keptEd; }
    cardEdition.addEventListener("change", function () { save("judgekb.edition", cardEdition.value); });
    // (also as chips: a browser shows only the list's titles that contain the letters typed, so "tyrions ch" showed
    // no Tyrion's Chain though it matched)
    var suggestBox = document.getElementById("card-suggest");
    function suggestCards() {
      getIndex().then(function (data) {
        var found = matchingCards(data, nameInput.value, cardEdition.value === "all" ? null : cardEdition.value, 12);
        datalist.textContent = "";
        found.forEach(function (c) { var o = el("option"); o.value = c[0]; o.label = BADGE[c[1]]; datalist.appendChild(o); });
        if (!suggestBox) return;
        suggestBox.textContent = "";
        var held = navigator.onLine === false && !pagesSaved();
        found.slice(0, 6).forEach(function (c) { suggestBox.appendChild(cardChip(c, "", held)); });
        suggestBox.hidden = !found.length;
      }).catch(function () {});
    }
    nameInput.addEventListener("input", suggestCards);
    cardEdition.addEventListener("change", function () { if (nameInput.value.trim()) suggestCards(); });
    function findHere(fromLoad) {
      var note = document.getElementById("card-mode");
      getIndex().then(function (data) {
        var wanted = cardEdition.value === "all" ? null : cardEdition.value;
        var found = matchingCards(data, nameInput.value, wanted, 5);
        var near = found.length ? [] : nearCards(data, nameInput.value, wanted, NEAR_LIMIT);  // a typo: offered, not opened
        var exact = found.filter(function (c) { return sameCard(c, nameInput.value); });
        var only = exact.length === 1 ? exact[0] : found.length === 1 ? found[0] : null;
        // no page saved at this address (plain http): the card's page cannot open, so say so instead of opening
        // the browser's "no internet" page, and name the cards the device's copy matched
        var held = !pagesSaved();
        // once only: a card page missing from the saved copy must not send the page round in circles
        if (only && !held && (!fromLoad || !cardParams.get("found"))) { location.href = cardHref(only) + (MODE === "static" ? "" : "&found=1"); return; }
        note.hidden = false;
        note.textContent = !found.length ? "No card title starts with \u201c" + nameInput.value + "\u201d in the copy on this device."
            + (near.length ? " The nearest titles:" : "")
          : held ? "No network: this address keeps no saved pages (plain http://), so a card's page, its text and its list status open when the network is back. On this device the name matches:"
          : "Searching on this device: pick the card.";
        var box = el("p", "chips");
        (found.length ? found : near).forEach(function (c) { box.appendChild(cardChip(c, "", held)); });
        note.appendChild(box);
      }).catch(function () {
        if (!fromLoad && pagesSaved()) { cardForm.submit(); return; }  // the saved copy may hold the card's page
        note.hidden = false;
        note.textContent = "No network, and this card's page is not saved on this device.";
      });
    }
    keepIndexWhenIdle();  // if the network drops, this open page still finds a card
    // the page's own card links ("Try", "Did you mean") offline at a plain-HTTP address: no page is saved there, so the
    // link would open the browser's "no internet" page; look the card up on this device instead
    document.addEventListener("click", function (ev) {
      var a = ev.target.closest && ev.target.closest("a.chip[href^='/card?']");
      if (!a || MODE === "static" || navigator.onLine !== false || pagesSaved()) return;
      ev.preventDefault();
      var wanted = new URLSearchParams(a.getAttribute("href").split("?")[1] || "");
      nameInput.value = wanted.get("name") || "";
      if (wanted.get("edition")) cardEdition.value = wanted.get("edition");
      findHere(false);
    });
    cardForm.addEventListener("submit", function (ev) {
      if (MODE !== "static" && navigator.onLine !== false) return; // the server finds near names too
      ev.preventDefault();
      findHere(false);
    });
    // the saved empty card page answered a look-up the network could not: find the card on the device
    if (cardParams.get("name") && !document.querySelector("article.card") && !document.getElementById("no-card")) {
      nameInput.value = cardParams.get("name");
      if (cardParams.get("edition")) cardEdition.value = cardParams.get("edition");
      findHere(true);
    }
    var shown = document.querySelector("article.card h1");
    if (shown && cardParams.get("name")) {
      var ed = (document.querySelector("article.card .badge") || {}).textContent === "2nd ed." ? 2 : 1;
      remember({ kind: "card", label: shown.firstChild.textContent.trim(), href: location.pathname + location.search, path: location.pathname.split("/").slice(-3).join("/"), edition: ed });
    }
  }

  // ------------------------------------------------------------------ changes page of an exported site: one file per document and version
  var changesForm = document.getElementById("changes-form");
  // the version list follows the document picked: each document's option carries its versions (r81 M6: FAQ v4.1 was
  // offered the first edition's v1.0 … v5.5.1 until the form was sent)
  if (changesForm && MODE !== "static") {
    var pickedDoc = document.getElementById("doc"), sinceList = document.getElementById("since");
    pickedDoc.addEventListener("change", function () {
      var option = pickedDoc.options[pickedDoc.selectedIndex], versions = (option.getAttribute("data-versions") || "").split(" ").filter(Boolean);
      var first = sinceList.options[0];  // "since version…"
      sinceList.textContent = ""; sinceList.appendChild(first); first.selected = true;
      versions.forEach(function (v) { var o = el("option", "", "after v" + v); o.value = "v" + v; sinceList.appendChild(o); });
      sinceList.removeAttribute("aria-invalid"); sinceList.removeAttribute("aria-describedby");
      var missing = document.getElementById("since-missing"); if (missing) missing.remove();
      var none = document.getElementById("no-versions");
      if (none) { none.hidden = versions.length > 0; none.querySelector(".doc-short").textContent = option.getAttribute("data-short") || option.value; }
    });
  }
  if (changesForm && MODE === "static") {
    var docSelect = document.getElementById("doc"), sinceSelect = document.getElementById("since");
    docSelect.addEventListener("change", function () { location.href = ROOT + "changes/" + docSelect.value + ".html"; });
    changesForm.addEventListener("submit", function (ev) {
      ev.preventDefault();
      location.href = ROOT + "changes/" + docSelect.value + (sinceSelect.value ? "/" + sinceSelect.value : "") + ".html";
    });
  }

  // ------------------------------------------------------------------ forms the server works out: sent only when it answers
  // Deck check and Scenario post their text to the server.  Sent with the network gone (or the laptop out of reach),
  // the browser's own "no internet" page replaced the form and the pasted list was lost (blind review r54, M1).  The
  // page first asks the server (HEAD of the form's address, which the service worker lets through to the network);
  // when it does not answer, the form stays as it is and says so, as the builder's Run does.
  var ASK_SERVER_MS = 8000;
  function keepTextWhenServerSilent(form, again) {
    var sending = false, note = null;
    form.addEventListener("submit", function (ev) {
      if (sending) return;  // the server answered: the browser sends the form as usual
      ev.preventDefault();
      var button = ev.submitter || form.querySelector("button[type=submit]");
      if (note) note.hidden = true;
      if (button) button.disabled = true;
      var abort = window.AbortController ? new AbortController() : null;
      var timer = abort ? setTimeout(function () { abort.abort(); }, ASK_SERVER_MS) : 0;
      fetch(form.action, { method: "HEAD", cache: "no-store", signal: abort ? abort.signal : undefined }).then(function () {
        clearTimeout(timer);
        if (button) button.disabled = false;
        sending = true;
        try { if (form.requestSubmit) form.requestSubmit(button || undefined); else form.submit(); } finally { sending = false; }
      }, function () {
        clearTimeout(timer);
        if (button) button.disabled = false;
        if (!note) {
          note = el("p", "error server-silent");
          note.id = "server-silent"; note.setAttribute("role", "alert");
          (button || form.lastElementChild).after(note);
        }
        note.textContent = "The server did not answer: check the connection and " + again + " again. Your text is still here.";
        note.hidden = false;
      });
    });
  }
  if (MODE !== "static") {
    [["form.deckcheck", "check the deck"], ["form.scenario", "run"]].forEach(function (pair) {
      var form = document.querySelector(pair[0]);
      if (form) keepTextWhenServerSilent(form, pair[1]);
    });
  }

  // ------------------------------------------------------------------ copy buttons: clipboard API, else execCommand, else say so
  function legacyCopy(text) {
    var ta = el("textarea"), ok = false, active = document.activeElement;
    ta.value = text; ta.setAttribute("readonly", ""); ta.style.position = "fixed"; ta.style.top = "0"; ta.style.left = "0"; ta.style.opacity = "0";
    body.appendChild(ta); ta.focus(); ta.select(); ta.setSelectionRange(0, text.length);
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    ta.remove(); if (active && active.focus) active.focus();
    return ok;
  }
  function copyText(text) {
    if (navigator.clipboard && navigator.clipboard.writeText && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(function () { return true; }, function () { return legacyCopy(text); });
    }
    return Promise.resolve(legacyCopy(text));
  }
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest("button.copy");
    if (!button) return;
    var text = button.hasAttribute("data-copy-link") ? location.href.split("#")[0] : button.getAttribute("data-copy");
    // the message goes beside the button pressed (a banner's own button has its own status line)
    var status = (button.parentElement && button.parentElement.querySelector(".status")) || document.getElementById("copied");
    var what = button.textContent.replace(/^Copy /, "");
    var old = document.getElementById("copy-fallback"); if (old) old.remove();
    copyText(text).then(function (ok) {
      if (!status) return;
      status.classList.toggle("failed", !ok);
      if (ok) { status.textContent = "Copied: " + what; return; }
      status.textContent = "Could not copy (this browser refused). The text is selected below \u2014 copy it by hand.";
      var ta = el("textarea", "copy-fallback"); ta.id = "copy-fallback"; ta.value = text; ta.readOnly = true;
      status.after(ta); ta.focus(); ta.select();
    });
  });

  // ------------------------------------------------------------------ the offline copy (service worker)
  var offline = document.getElementById("offline-status");
  function say(text, cls) { if (!offline) return; offline.hidden = false; offline.textContent = text; offline.className = "offline-status " + (cls || ""); }
  function listen(kept) {
    navigator.serviceWorker.addEventListener("message", function (ev) {
      var m = ev.data || {};
      if (m.type !== "progress") return;
      if (m.complete) {
        save("judgekb.offline", { total: m.total, version: m.version, when: new Date().toISOString().slice(0, 16).replace("T", " ") });
        say("Available offline: " + m.total + (MODE === "static" ? " files of this copy." : " pages and the search index."));
        document.documentElement.setAttribute("data-offline-ready", "1");
      } else if (!kept || kept.version !== m.version) {
        say("Saving " + (MODE === "static" ? "this copy" : "pages") + " for offline use: " + m.done + " / " + m.total + "\u2026");
      }
    });
  }
  function install(script) {
    navigator.serviceWorker.register(script).then(function () { return navigator.serviceWorker.ready; }).then(function (reg) {
      if (reg.active) reg.active.postMessage({ type: "precache" });
    }).catch(function (e) { say("Offline copy unavailable: " + e.message, "unavailable"); });
  }
  if (MODE === "static") {
    if (location.protocol !== "file:" && "serviceWorker" in navigator && window.isSecureContext) {
      say("Exported copy on a web host: saving it on this device\u2026");
      listen(load("judgekb.offline", null));
      install(ROOT + "sw.js");  // a static host over https: keep every file on the device
    } else if (location.protocol === "file:") {
      say("Exported copy: every page and the search index are on this device; nothing needs a network.");
    } else {
      say("Exported copy on a web host without https: browsers will not save it here; download the folder to keep it.", "unavailable");
    }
  } else if (!("serviceWorker" in navigator) || !window.isSecureContext) {
    say("No offline copy at this address: browsers keep one only over https:// or on the serving laptop itself " +
        "(an open search page still searches if the network drops). For a copy that works without the network, " +
        "ask for the exported site (judgekb export-site).", "unavailable");
  } else {
    var kept2 = load("judgekb.offline", null);
    if (kept2) say("Available offline: " + kept2.total + " pages and the search index (saved " + kept2.when + ").");
    listen(kept2);
    install("/sw.js");
  }
})();

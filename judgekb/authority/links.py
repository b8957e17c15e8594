"""Links between clauses, cards and absent documents — each with a type and a reason.

Types: ``supersedes`` (text that replaces other text — or, with ``data.struck``, a passage the
target itself strikes through and no longer serves), ``clarifies`` (an FAQ clause → the rules
section it clarifies), ``cites`` (an explicit reference in the text), ``mentions`` (clause →
card), ``restates`` (unofficial text → the official clause it restates, with the alignment
score) and ``same-topic`` (the matching rule in the other edition).  Hand-reviewed links come
from ``corpus/links.yaml`` and ``corpus/references.yaml``; the rest are found here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

from judgekb.cards import corpus_cards as card_table
from judgekb.corpus import errata
from judgekb.corpus.model import Clause, Document, opening
from judgekb.yamlio import DataError, check_fields, load, strip_lines, where

LINK_TYPES = ("supersedes", "clarifies", "cites", "mentions", "restates", "same-topic")
SENTENCE = re.compile(r"(?<=[.!?:”\"])\s+(?=[A-Z“\"*(])")
RESTATE_MIN = 60  # clause-level score below which an unofficial clause restates nothing
SENTENCE_WORDS = 8  # a restating sentence is named by its opening words, as a web paragraph is (paragraphs.LABEL_WORDS)
SENTENCE_MIN = 80  # a sentence aligned this well to another official clause restates it too
SENTENCE_MARGIN = 5  # ...and better than the clauses it already restates by this much (a capital or a comma aside)
ADDITION_MAX = 70  # a sentence scoring below this against every restated clause is an addition


def link(src: str, dst: str, kind: str, reason: str, **extra: Any) -> dict[str, Any]:
    row = {"src": src, "dst": dst, "type": kind, "reason": " ".join(reason.split())}
    row.update({k: v for k, v in extra.items() if v is not None})
    return row


def _check_node(node: str, known: set[str], absent: dict[str, str], where_: str) -> None:
    if node.startswith("absent:"):
        if node[len("absent:") :] not in absent:
            raise DataError(f"{where_}: unknown absent document '{node}'")
    elif node not in known:
        raise DataError(f"{where_}: no clause '{node}'")


def curated(links_file: Path, precedence: dict[str, dict[str, Any]], known: set[str]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """supersedes / clarifies / same-topic links from ``corpus/links.yaml`` (ids checked)."""
    data = load(links_file)
    check_fields(links_file, data, {"absent", "supersedes", "clarifies", "same-topic"}, set(), "links file")
    absent = {str(k): str(v) for k, v in data["absent"].items() if k != "__line__"}
    rows = []
    for item in data["supersedes"]:
        check_fields(links_file, item, {"from", "to", "rule", "reason"}, {"paragraph", "page", "struck"}, "supersedes link")
        for node in (item["from"], item["to"]):
            _check_node(node, known, absent, where(links_file, item))
        if item["rule"] not in precedence:
            raise DataError(f"{where(links_file, item)}: unknown precedence rule '{item['rule']}'")
        extra = {k: item[k] for k in ("paragraph", "page") if k in item}
        if "struck" in item:  # only a passage the target strikes through (graph.governance leaves the target governing)
            extra["struck"] = " ".join(str(item["struck"]).split())
        rows.append(link(item["from"], item["to"], "supersedes", item["reason"], rule=item["rule"], data=extra))
    for item in data["clarifies"]:
        check_fields(links_file, item, {"from", "to"}, {"reason"}, "clarifies link")
        for node in (item["from"], item["to"]):
            _check_node(node, known, absent, where(links_file, item))
        rows.append(
            link(item["from"], item["to"], "clarifies", item.get("reason") or "the FAQ clause rules on the topic of this rules section")
        )
    for item in data["same-topic"]:
        check_fields(links_file, item, {"a", "b", "topic"}, set(), "same-topic link")
        for node in (item["a"], item["b"]):
            _check_node(node, known, absent, where(links_file, item))
        reason = f"both editions rule on {item['topic']}; the editions may differ"
        rows.append(link(item["a"], item["b"], "same-topic", reason))
        rows.append(link(item["b"], item["a"], "same-topic", reason))
    return rows, absent


def explicit_references(
    references_file: Path, clauses: list[Clause], known: set[str], absent: dict[str, str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``cites`` links and one row per reference found (what text, which target).

    A reference names its target by id (``target``), as a document the corpus lacks (``absent``), or by the
    section numbers it prints (``section_of``: every number in the pattern's ``sections`` group names the clause
    of that document printed with that number, "(Step 4.2.2)" → Appendix I's 4.2.2, "step 1.3.III" → 1.3).
    """
    data = load(references_file)
    check_fields(references_file, data, {"references", "detect"}, set(), "references file")
    by_doc: dict[str, list[Clause]] = {}
    by_section: dict[tuple[str, str], str] = {}
    for clause in clauses:
        by_doc.setdefault(clause.doc, []).append(clause)
        if clause.section:
            by_section.setdefault((clause.doc, clause.section), clause.id)
    links, found = [], []
    for item in data["references"]:
        check_fields(references_file, item, {"in", "pattern"}, {"target", "absent", "section_of", "note"}, "reference")
        if sum(key in item for key in ("target", "absent", "section_of")) != 1:
            raise DataError(f"{where(references_file, item)}: give exactly one of 'target', 'absent' or 'section_of'")
        try:
            pattern = re.compile(item["pattern"])
        except re.error as exc:
            raise DataError(f"{where(references_file, item)}: bad pattern: {exc}") from None
        if "section_of" in item and "sections" not in pattern.groupindex:
            raise DataError(f"{where(references_file, item, 'pattern')}: a 'section_of' reference needs a group (?P<sections>…)")
        searched = item["in"] if isinstance(item["in"], list) else [item["in"]]  # one pattern for several documents
        for doc in searched:
            if not isinstance(doc, str):
                raise DataError(f"{where(references_file, item, 'in')}: field 'in' must be a document id or a list of them; got {doc!r}")
        hits = {doc: 0 for doc in searched}
        for clause in [c for doc in searched for c in by_doc.get(doc, [])]:
            for m in pattern.finditer(f"{clause.heading}\n{clause.text}"):
                hits[clause.doc] += 1
                if "target" in item:
                    targets = [item["target"].format(**m.groupdict())]
                elif "absent" in item:
                    targets = [f"absent:{item['absent']}"]
                else:
                    targets = _by_section(m, item, by_section, clause.id, where(references_file, item))
                page = m.groupdict().get("page")
                for target in targets:
                    _check_node(target, known, absent, where(references_file, item))
                    found.append({"clause": clause.id, "text": m.group(0), "target": target, "page": page})
                    said = f"the text refers to it: “{m.group(0)}”" + (f" ({item['note']})" if item.get("note") else "")
                    links.append(link(clause.id, target, "cites", said, data={"page": page} if page else {}))
        for doc, count in hits.items():
            if not count:
                raise DataError(f"{where(references_file, item)}: pattern matches nothing in {doc}")
    unique = {(r["src"], r["dst"], r["reason"]): r for r in links}
    return list(unique.values()), found


SECTION_NUMBER = re.compile(r"\d+(?:\.\d+)+")  # "4.2.2"; "1.3" of "1.3.III" (step 1.3's sub-step III is in 1.3's text)


def _by_section(m: re.Match[str], item: dict[str, Any], by_section: dict[tuple[str, str], str], clause_id: str, at: str) -> list[str]:
    """The clauses of ``item["section_of"]`` printed with the numbers in the match's ``sections`` group (not the
    clause that says it: "step 4.2" inside 4.2's own text is no reference).  Raises DataError for a number that
    names no clause."""
    targets = []
    for number in SECTION_NUMBER.findall(m.group("sections") or ""):
        target = by_section.get((item["section_of"], number))
        if target is None:
            raise DataError(f"{at}: “{m.group(0)}” in {clause_id}: {item['section_of']} has no section {number}")
        if target != clause_id and target not in targets:
            targets.append(target)
    return targets


def page_links(clauses: list[Clause], docs: dict[str, Document]) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """``cites`` links from the links an HTML page itself makes ("Related:" entries, "see FAQ (3.3)").

    A link names a heading anchor, on its own page or on another page by its route (the
    manifests' ``provenance.route``).  Returns the links and the (clause, anchor) pairs that
    name no clause (an anchor on a chart of images, say).
    """
    routes = {json.loads(d.provenance).get("route"): d.id for d in docs.values() if d.provenance}
    anchors = {(c.doc, c.data["anchor"]): c.id for c in clauses if c.data.get("anchor")}
    rows, unresolved = {}, []
    for clause in clauses:
        for item in clause.data.get("links") or []:
            fragment = item.get("fragment")
            if not fragment:
                continue
            doc = routes.get(item["page"]) if "page" in item else clause.doc
            target = anchors.get((doc, fragment)) if doc else None
            if target is None:
                unresolved.append((clause.id, fragment))
            elif target != clause.id:
                rows[(clause.id, target)] = link(clause.id, target, "cites", f"the page links to it (#{fragment})")
    return list(rows.values()), unresolved


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.split(text) if len(s.strip()) > 15]


def restatements(clauses: list[Clause], docs: dict[str, Document]) -> list[dict[str, Any]]:
    """``restates`` links from unofficial clauses to the official clauses they restate.

    Clause-level alignment (token-set ratio on the text, helped by the headings) picks the
    main official clause; sentences that align better with another official clause add it;
    sentences matching none of the restated clauses are kept as unofficial additions
    (the web copy's "Related:" and "Note:" lines, for instance).
    """
    rows = []
    official = {
        ed: [
            c
            for c in clauses
            if c.edition == ed
            and docs[c.doc].kind.startswith("official")
            and c.kind not in ("preamble", "restricted", "list-change", "banned")
        ]
        for ed in (1, 2)
    }
    for clause in clauses:
        if not docs[clause.doc].kind.startswith("unofficial") or clause.kind == "preamble":
            continue
        # A copy names the documents it copies, latest first: it is aligned with the first
        # one it restates, and with an earlier version only where the latest has no such text.
        copied = [d for d in docs[clause.doc].copies.split(",") if d]
        pools = [[c for c in official[clause.edition] if c.doc == d] for d in copied] or [official[clause.edition]]
        for pool in pools:
            texts = [f"{c.heading} {c.text}" if c.kind == "qa" else c.text for c in pool]
            heads = [c.heading for c in pool]
            text_scores = process.extract(clause.text, texts, scorer=fuzz.token_set_ratio, limit=8)
            head_scores = {i: s for _, s, i in process.extract(clause.heading, heads, scorer=fuzz.token_set_ratio, limit=8)}
            ranked = sorted(((0.75 * s + 0.25 * head_scores.get(i, 0), i) for _, s, i in text_scores), reverse=True)
            if ranked and ranked[0][0] >= RESTATE_MIN:
                break
        sentences = _sentences(clause.text) or [clause.text]
        # the sentence that restates a clause, where one sentence does (not the text as a whole): a
        # merged paragraph's opening words name another topic ("If a change in the game state…" of a
        # paragraph that goes on to copy the FAQ on multiple agendas)
        said_in: dict[int, str] = {}
        if not ranked or ranked[0][0] < RESTATE_MIN:
            # a paragraph the copy merged from page chrome, an introduction and a copied entry resembles
            # no clause as a whole: its sentences that copy one official clause still restate it
            pool = pools[0] if pools else []
            texts = [f"{c.heading} {c.text}" if c.kind == "qa" else c.text for c in pool]
            targets = {}
            for sentence in (s for s in sentences if len(s) > 40):
                best = process.extractOne(sentence, texts, scorer=fuzz.partial_ratio, score_cutoff=SENTENCE_MIN)
                if best and best[2] not in targets:
                    targets[best[2]] = best[1]
                    said_in[best[2]] = sentence
            if not targets:
                continue
        else:
            targets = {ranked[0][1]: ranked[0][0]}
            # a web paragraph, cited by its opening words, that restates it as a whole: named by its sentence
            # most like it, where that is not the first (a summary's entry is cited by its own heading)
            if clause.kind == "web":
                sentence = max(sentences, key=lambda s: fuzz.partial_ratio(s, texts[ranked[0][1]]))
                if sentence != sentences[0]:
                    said_in[ranked[0][1]] = sentence
        for sentence in sentences if ranked and ranked[0][0] >= RESTATE_MIN else []:
            if len(sentence) <= 40:
                continue
            # only the clauses the whole text already resembles are candidates for its sentences
            closest = max(((fuzz.partial_ratio(sentence, texts[i]), i) for _, i in ranked), default=(0, -1))
            # a sentence two official clauses share word for word ("Add 3 to your side's total STR…" in
            # Crown Regent and Master of Whispers, a capital apart) restates the one the whole text already follows
            if closest[0] < SENTENCE_MIN or closest[1] in targets:
                continue
            already = max(fuzz.partial_ratio(sentence, texts[i]) for i in targets)
            if closest[0] >= already + SENTENCE_MARGIN:
                targets[closest[1]] = closest[0]
                said_in[closest[1]] = sentence
        additions = [s for s in sentences if max(fuzz.partial_ratio(s, texts[i]) for i in targets) < ADDITION_MAX]
        for index, score in targets.items():
            data: dict[str, Any] = {"additions": additions, "unofficial": True} if additions else {"unofficial": True}
            if index in said_in:  # its opening words: how lookup names it beside the paragraph's citation
                data["sentence"] = opening(said_in[index], SENTENCE_WORDS)
            rows.append(
                link(
                    clause.id,
                    pool[index].id,
                    "restates",
                    f"unofficial text aligned with this official clause (similarity {score:.0f}/100)",
                    score=round(score, 1),
                    data=data,
                )
            )
    return rows


def card_links(clauses: list[Clause], named: dict[str, list[str]], cards: dict[str, str]) -> list[dict[str, Any]]:
    """Errata that give new wording supersede the printed card, errata entries that only rule on it clarify
    it (``corpus/errata-effects.yaml``); list changes supersede the card's earlier list entry."""
    rows = []
    lists = {"joust": "Joust Restricted List", "melee": "Melee Restricted List", "banned": "Banned List"}
    for clause in clauses:
        for card in named.get(clause.id, []):
            if clause.kind == "errata" and errata.effect(clause.data) == "clarifies":
                # a ruling on how the printed card works: it governs play, and the printed text stands
                said = f"{clause.data['errata_effect']['reason']}; it gives no new wording, so the printed text of {cards[card]} stands"
                rows.append(link(clause.id, card, "clarifies", f"card clarification (v{clause.version}): {said}", version=clause.version))
            elif clause.kind == "errata":
                rows.append(
                    link(
                        clause.id,
                        card,
                        "supersedes",
                        f"card errata (v{clause.version}) replaces the printed text of {cards[card]}",
                        rule="errata-over-printed-card",
                        version=clause.version,
                    )
                )
            elif clause.kind == "list-change":
                rows.append(
                    link(
                        clause.id,
                        card,
                        "supersedes",
                        f"removed from the {lists[clause.data['list']]} by version {clause.version}",
                        rule="later-version-over-earlier",
                        version=clause.version,
                    )
                )
    return rows


def load_precedence(path: Path) -> dict[str, dict[str, Any]]:
    data = load(path)
    check_fields(path, data, {"rules"}, set(), "precedence file")
    rules = {}
    for item in data["rules"]:
        check_fields(path, item, {"id", "over", "under", "source", "reason"}, set(), "precedence rule")
        rules[item["id"]] = strip_lines(item)
    return rules


def build(clauses: list[Clause], docs: dict[str, Document], corpus: Path) -> dict[str, list[dict[str, Any]]]:
    """All link rows, the card table and the explicit references for the store."""
    known = {c.id for c in clauses}
    precedence = load_precedence(corpus / "precedence.yaml")
    for rule in precedence.values():
        sources = rule["source"].values() if isinstance(rule["source"], dict) else [rule["source"]]
        for source in sources:
            if source and source not in known:
                raise DataError(f"{corpus / 'precedence.yaml'}: rule '{rule['id']}' cites unknown clause '{source}'")
    curated_rows, absent = curated(corpus / "links.yaml", precedence, known)
    by_id = {c.id: c for c in clauses}
    for row in curated_rows:  # a link that overrules struck text names a passage the target really strikes
        struck = (row.get("data") or {}).get("struck")
        if struck and not any(t.startswith(struck) for t in by_id[row["dst"]].data.get("struck") or []):
            raise DataError(f"{corpus / 'links.yaml'}: {row['dst']} strikes no passage beginning “{struck}”")
    cites, references = explicit_references(corpus / "references.yaml", clauses, known, absent)
    cards, printings, mentions, named = card_table.collect(clauses, corpus / "sets.yaml", corpus / "card-aliases.yaml")
    for rule_id in ("errata-over-printed-card", "later-version-over-earlier"):
        if rule_id not in precedence:
            raise DataError(f"{corpus / 'precedence.yaml'}: the rule '{rule_id}' is needed for card links")
    names = {c["id"]: c["name"] for c in cards}
    linked, _ = page_links(clauses, docs)
    rows = curated_rows + cites + linked + mentions + card_links(clauses, named, names) + restatements(clauses, docs)
    return {
        "links": rows,
        "cards": cards,
        "printings": printings,
        "references": references,
        "absent": [{"id": f"absent:{k}", "title": v} for k, v in absent.items()],
        "precedence": list(precedence.values()),
    }

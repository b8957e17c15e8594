"""Completeness: explicit counts established by reading each document."""

from __future__ import annotations

import re
from collections import Counter

import yaml

from judgekb.corpus.sources import load_documents, read_source
from tests.conftest import CORPUS

SOURCES = {doc.id: read_source(doc, CORPUS) for doc in load_documents(CORPUS)}


def of(clauses, doc, kind=None, **data):
    return [
        c
        for c in clauses
        if c["doc"] == doc and (kind is None or c["kind"] == kind) and all(c["data"].get(k) == v for k, v in data.items())
    ]


# ------------------------------------------------------------------ 1st-edition FAQ (v5.5.1)

AGOT1_NUMBERED = (
    [f"1.{n}" for n in range(1, 4)]
    + [f"2.{n}" for n in range(1, 8)]
    + [f"3.{n}" for n in range(1, 48)]
    + ["3.17"]  # (3.17) is printed twice
    + [f"4.{n}" for n in range(1, 24) if n != 13]  # there is no (4.13)
)


def test_agot1_faq_has_every_numbered_section(clauses):
    numbered = [c["section"] for c in of(clauses, "agot1-faq", "section") if c["section"]]
    assert sorted(numbered) == sorted(AGOT1_NUMBERED)
    assert len(numbered) == 80
    # the printed source has exactly as many section markers
    markers = re.findall(r"(?<![\w.])\(?([1-4]\.\d{1,2})\) (?=[A-Z“\"])", SOURCES["agot1-faq"])
    assert sorted(markers) == sorted(AGOT1_NUMBERED)


def test_agot1_faq_second_3_17_has_its_own_id_and_keeps_the_printed_number(clauses):
    by_id = {c["id"]: c for c in clauses}
    first, second = by_id["agot1-faq/3.17"], by_id["agot1-faq/3.17-self-immunity"]
    assert first["heading"] == "Targetting and Immunity"
    assert second["heading"] == "Self-Immunity" and second["section"] == "3.17"
    assert second["text"] == "A card with immunity is not immune to its own abilities."


def test_agot1_faq_unnumbered_sections(clauses):
    unnumbered = {c["id"].split("/", 1)[1] for c in of(clauses, "agot1-faq", "section") if not c["section"]}
    assert len(unnumbered) == 28  # 26 headed sections + two rules from introductions
    assert {
        "draw-cap",
        "copy-limit",
        "errata/most-recent-printing",
        "additional/prized",
        "events/target",
        "character-abilities/effect",
        "additional/naval",
        "errata/reprints",
        "restricted/rules",
    } <= unnumbered


def test_agot1_faq_card_errata(clauses):
    errata = of(clauses, "agot1-faq", "errata")
    assert len(errata) == 88
    rulebook = of(clauses, "agot1-faq", "rulebook-errata")
    assert [c["id"] for c in rulebook] == ["agot1-faq/errata/rulebook-page-19"]
    # every entry carries the FAQ version that introduced it; the source prints 89 tags
    assert all(c["version"] for c in errata + rulebook)
    assert len(re.findall(r"\(v\d+(?:\.\d+)*\)", SOURCES["agot1-faq"])) == len(errata) + len(rulebook)
    by_id = {c["id"]: c for c in errata}
    val = by_id["agot1-faq/errata/val-dotn-f117"]
    assert (val["version"], val["data"]["card"], val["data"]["number"], val["data"]["set"]) == (
        "4.2",
        "Val",
        "F117",
        "dotn",
    )
    # numbers separated from their cards by the flattening are rejoined
    assert by_id["agot1-faq/errata/jhogo-core-t117"]["data"]["number"] == "T117"
    assert by_id["agot1-faq/errata/thundering-calvary-qod-f12"]["data"]["number"] == "F12"
    assert by_id["agot1-faq/errata/heir-to-the-iron-throne-qod-f48"]["data"]["number"] == "F48"
    multi = [c for c in errata if c["data"].get("cards")]
    assert len(multi) == 4
    assert Counter(c["data"]["set"] for c in errata)["core"] == 10


def test_agot1_faq_restricted_and_banned_lists(clauses):
    joust = of(clauses, "agot1-faq", "restricted", format="joust")
    melee = of(clauses, "agot1-faq", "restricted", format="melee")
    assert (len(joust), len(melee)) == (43, 27)
    assert len(joust) + len(melee) == SOURCES["agot1-faq"].count("•")
    removed_joust = of(clauses, "agot1-faq", "list-change", list="joust")
    assert {c["data"]["card"] for c in removed_joust} == {
        "A Game of Cyvasse",
        "The Conclave",
        "Crossing the Mummer's Ford",
    }
    assert all(c["version"] == "5.5.1" for c in removed_joust)
    removed_banned = of(clauses, "agot1-faq", "list-change", list="banned")
    assert {c["data"]["card"] for c in removed_banned} == {"Jaqen H'ghar", "Compelled by the Rock"}
    assert all(c["version"] == "4.1" for c in removed_banned)
    banned = of(clauses, "agot1-faq", "banned")
    assert len(banned) == 1 and "No banned cards at this time." in banned[0]["text"]
    # a card on both lists appears once in each
    assert {c["data"]["card"] for c in joust} & {c["data"]["card"] for c in melee} >= {
        "Val",
        "Fear of Winter",
        "The Red Viper",
    }


def test_agot1_faq_questions_and_answers(clauses):
    qa = of(clauses, "agot1-faq", "qa")
    assert len(qa) == 70
    assert all(c["heading"].endswith(("?", '?"')) for c in qa), [c["heading"] for c in qa if not c["heading"].endswith("?")]


def test_agot1_faq_timing_structure(clauses):
    timing = of(clauses, "agot1-faq", "timing")
    assert len(timing) == 34
    ids = {c["id"] for c in timing}
    steps = [
        f"agot1-faq/timing/action-window/{s}"
        for s in (
            "1-action-is-initiated",
            "2-save-cancel-responses",
            "3-action-is-executed",
            "4-passive-abilities",
            "5-responses",
            "6-action-is-resolved",
        )
    ]
    assert set(steps) <= ids
    charts = [i for i in ids if "/chart-" in i]
    assert len(charts) == 9  # two action windows and seven phases
    challenges = next(c for c in timing if c["id"].endswith("chart-challenges-phase"))
    assert "1. Determine winner of challenge 2. Challenge result is implemented 3. Reward for unopposed" in challenges["text"]


PHASES = ("plot", "draw", "marshalling", "challenges", "dominance", "standing", "taxation")


def test_agot1_faq_flowcharts_keep_their_framework_and_player_action_boxes(db, clauses):
    """Each phase chart reads box by box: every "Framework Action" and "Player Actions" label of
    the source is served inside a chart, so the player action windows are visible."""
    by_id = {c["id"]: c for c in clauses}
    charts = [by_id[f"agot1-faq/timing/chart-{phase}-phase"] for phase in PHASES]
    for phase, chart in zip(PHASES, charts, strict=True):
        assert chart["text"].startswith(f"Framework Action 1. {phase.title()} Phase begins 2. Bring cards out of Shadow")
        assert re.search(rf"Framework Action 1\. {phase.title()} Phase ends Proceed to", chart["text"])
        assert "Player Actions" in chart["text"], phase  # every phase has a player action window
    source = SOURCES["agot1-faq"]
    in_source = len(re.findall(r"Framework Action(?!s| Window)|Player Actions", source[source.index("Plot Phase Draw Phase") :]))
    served = sum(len(re.findall(r"Framework Action(?!s| Window)|Player Actions", c["text"])) for c in charts)
    assert in_source == served == 26 + 11
    # the Challenges Phase: a player action window after declaring attackers and after defenders
    assert (
        "2. Active player kneels attacking characters Player Actions Framework Action 1. Active Player chooses Stealth targets "
        "2. Defending player kneels defending characters Player Actions Framework Action 1. Determine winner of challenge"
    ) in charts[3]["text"]
    assert "Reward Dominance Player Actions Framework Action 1. Dominance Phase ends" in charts[4]["text"]


# ------------------------------------------------------------------ 2nd-edition FAQ (v2.3)


def test_agot2_faq(clauses):
    sections = [c["section"] for c in of(clauses, "agot2-faq", "section") if c["section"]]
    expected = [f"1.{n}" for n in range(1, 9)] + [f"2.{n}" for n in range(1, 10)] + [f"3.{n}" for n in range(1, 6)]
    assert sections == expected
    assert len(of(clauses, "agot2-faq", "errata")) == 8
    assert len(of(clauses, "agot2-faq", "rulebook-errata")) == 1
    assert len(of(clauses, "agot2-faq", "definition")) == 5
    assert len(of(clauses, "agot2-faq", "qa")) == 23 == len(re.findall(r"^\*[^*].*\?\*$", SOURCES["agot2-faq"], re.M))
    assert len(of(clauses, "agot2-faq", "restricted", format="joust")) == 36
    assert len(of(clauses, "agot2-faq", "restricted", format="melee")) == 27
    removed = of(clauses, "agot2-faq", "list-change")
    assert [(c["data"]["card"], c["version"]) for c in removed] == [("Dorne", "2.3")]
    new_in_23 = [c for c in of(clauses, "agot2-faq", "restricted") if c["version"] == "2.3"]
    assert len(new_in_23) == SOURCES["agot2-faq"].count("** (*") - 1  # bold entries, minus the removal line
    quick = {c["heading"] for c in of(clauses, "agot2-faq", "timing")}
    assert quick == {"Challenge Application Timing Sequence", "End of Phase Timing Sequence"}


# ------------------------------------------------------------------ rules of play, summary, web copy


def _uncovered_lines(db, doc_id):
    source = SOURCES[doc_id]
    covered = bytearray(len(source))
    for s in db.query("select s.start, s.end from spans s join clauses c on c.id = s.clause where c.doc = ?", [doc_id]):
        covered[s["start"] : s["end"]] = b"\x01" * (s["end"] - s["start"])
    return {source.count("\n", 0, i) + 1 for i, ch in enumerate(source) if not ch.isspace() and not covered[i]}


def test_rules_of_play_sections(db, clauses):
    rules = of(clauses, "agot1-rules")
    assert len(of(clauses, "agot1-rules", "rules")) == 99
    assert len(of(clauses, "agot1-rules", "preamble")) == 11  # community, credits, product pages
    heading_map = yaml.safe_load((CORPUS / "maps/agot1-rules.yaml").read_text(encoding="utf-8"))
    declared = {entry[0] for entry in heading_map["furniture"] + heading_map["headings"]}
    assert _uncovered_lines(db, "agot1-rules") == declared
    assert len(rules) == 110


def test_summary_sections(db, clauses):
    assert len(of(clauses, "agot1-summary", "summary")) == 76
    heading_map = yaml.safe_load((CORPUS / "maps/agot1-summary.yaml").read_text(encoding="utf-8"))
    declared = {entry[0] for entry in heading_map["furniture"] + heading_map["headings"]}
    assert _uncovered_lines(db, "agot1-summary") == declared


def test_web_copy_paragraphs(clauses):
    paragraphs = of(clauses, "agot2-web", "web")
    lines = [line for line in SOURCES["agot2-web"].split("\n") if line.strip()]
    assert len(paragraphs) == 46 == len(lines) - 5  # five lines are wholly page chrome

"""Docstrings and docs say what the code does: the versions a package rests on, the modules a package lists,
what a package's ``__init__`` imports, the YAML forms that stay text, the pages that need JavaScript, the file the
scenario format names as an example, and the tables of the database (a new developer's review, r75)."""

from __future__ import annotations

import ast
import re
import sqlite3

import yaml

from judgekb import yamlio
from tests.conftest import ROOT

PACKAGE = ROOT / "judgekb"


def _docstring(path):
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def test_the_first_edition_package_names_the_document_versions_its_rules_cite():
    """r75 M4: engine/agot1 said its rules rest on "Rules v1.5, FAQ v2.8/v4.x", versions the corpus does not hold;
    the manifests say FAQ 5.5.1 and the Core Set rulebook.  Each document the rules cite is named with its version."""
    from judgekb.engine.agot1 import ruleset

    doc = " ".join(_docstring(PACKAGE / "engine" / "agot1" / "__init__.py").split())
    cited = {clause.split("/")[0] for rule in ruleset.RULES.rules.values() for clause in rule.clauses}
    assert cited == {"agot1-rules", "agot1-faq"}, cited
    for document in sorted(cited):
        version = str(yaml.safe_load((ROOT / "corpus" / "manifests" / f"{document}.yaml").read_text(encoding="utf-8"))["version"])
        assert version in doc and f"``{document}/…``" in doc, (document, version, doc)
    assert not re.search(r"v1\.5|v2\.8|v4\.x", doc), doc


def test_a_package_docstring_that_lists_its_modules_names_every_one():
    """r75 L1, L2: engine/agot2 left out restrictions and titles, engine and engine/core left out turns, lookup
    left out titles."""
    for package, modules in [
        ("engine/agot2", "engine/agot2"),
        ("engine", "engine/core"),
        ("engine/core", "engine/core"),
        ("lookup", "lookup"),
    ]:
        doc = _docstring(PACKAGE / package / "__init__.py")
        for module in sorted(p.stem for p in (PACKAGE / modules).glob("*.py") if p.stem != "__init__"):
            assert re.search(rf"\b{module}\b", doc), f"judgekb/{package}/__init__.py does not name {modules}/{module}.py"


def test_package_inits_import_nothing_but_the_editions_rule_registry_as_the_readme_says():
    """r75 L3: README said each package's ``__init__.py`` "imports nothing"; the two edition packages import the
    rule registry to make their RULES.  The README says which, and no other package imports anything."""
    registry = "judgekb.engine.core.registry"
    editions = {PACKAGE / "engine" / "agot1" / "__init__.py", PACKAGE / "engine" / "agot2" / "__init__.py"}
    for init in sorted(PACKAGE.rglob("__init__.py")):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        imported = [
            node.module if isinstance(node, ast.ImportFrom) else ", ".join(a.name for a in node.names)
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom) and getattr(node, "module", None) != "__future__"
        ]
        assert imported == ([registry] if init in editions else []), (init, imported)
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "and imports nothing, so a lookup starts fast, except the two edition packages" in readme
    assert "import only the rule registry (`engine/core/registry.py`)" in readme


def test_the_number_forms_yamlio_says_stay_text_stay_text(tmp_path):
    """r75 L4: yamlio's docstring listed ``010`` (as octal 8) among the forms that stay text; it is read as 10."""
    doc = " ".join(_docstring(PACKAGE / "yamlio.py").split())
    listed = re.search(r"YAML 1\.1's other forms \((.*?)\) stay text", doc)
    assert listed, doc
    forms = re.findall(r"``([^`]+)``", listed.group(1))
    assert forms, listed.group(0)
    for form in forms:
        value = yamlio.loads(f"gold: {form}\n", tmp_path / "x.yaml")["gold"]
        assert isinstance(value, str), (form, value)
    assert yamlio.loads("gold: 010\n", tmp_path / "x.yaml")["gold"] == 10
    assert "``010`` is 10" in doc


def test_the_web_app_docstring_names_each_page_that_needs_a_script_of_its_own():
    """r75 L5: web/app.py said every page works without JavaScript; /build needs builder.js (its <noscript> says so).
    A template that loads a script besides base.html's app.js is named in the docstring, as is what app.js does."""
    doc = _docstring(PACKAGE / "web" / "app.py")
    templates = PACKAGE / "web" / "templates"
    own = {
        (page.name, script)
        for page in templates.glob("*.html")
        for script in re.findall(r"filename='([^']+\.js)'", page.read_text(encoding="utf-8"))
        if page.name != "base.html"
    }
    assert own, "no page loads a script of its own: say that every page works without JavaScript"
    for page, script in sorted(own):
        assert f"static/{script}" in doc, (page, script)
        assert "<noscript>" in (templates / page).read_text(encoding="utf-8"), page
    assert "``static/app.js``" in doc and "offline" in doc


def test_the_scenario_format_calls_its_example_file_one_of_its_shape_not_the_sketch_whole():
    """r75 L7: docs/scenarios.md said scenario 001 "is this one, whole", but its title, plot and fields differ from
    the sketch.  It is named as a complete file of that shape: its top-level fields are the sketch's (and ``notes``,
    free text), and it runs."""
    docs = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    section = docs.split("## Edition 1", 1)[1]
    sketch = yaml.safe_load(section.split("```yaml", 1)[1].split("```", 1)[0].replace("[...]", "[]").replace("{...}", "{}"))
    named = re.search(r"`(scenarios/[^`]+\.yaml)` is a complete file of this\s+shape", section)
    assert named and "whole" not in section.split("```yaml", 1)[0], section[:600]
    example = yaml.safe_load((ROOT / named.group(1)).read_text(encoding="utf-8"))
    assert example != sketch
    assert set(example) - {"notes"} <= set(sketch), set(example) - set(sketch)
    from judgekb.corpus.sources import default_corpus
    from judgekb.engine.core import runner
    from judgekb.engine.scenario import load_scenario

    ruling = runner.run(load_scenario(ROOT / named.group(1)), runner.load_titles(default_corpus()))
    assert ruling.checks and all(check["passed"] for check in ruling.checks), ruling.checks


def test_the_store_docstring_names_every_table_a_build_and_an_import_write(db_path, imported_db_path):
    """r75 L8: store.py listed 5 of the database's tables and README about 11.  Every table and view of a build, and
    of one with both card databases imported, is named in store.py's docstring (SQLite's FTS5 storage tables
    aside), and README says where to find them."""
    doc = _docstring(PACKAGE / "store.py")
    named = set(re.findall(r"``([a-z_0-9]+)``", doc))
    for path in (db_path, imported_db_path):
        with sqlite3.connect(path) as conn:
            names = {row[0] for row in conn.execute("select name from sqlite_master where type in ('table', 'view')")}
        missing = sorted(n for n in names if not n.startswith("sqlite_") and not re.search(r"_fts_(config|data|docsize|idx)$", n)
                         and n not in named)  # fmt: skip
        assert not missing, (path, missing)
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "`sqlite3 var/judgekb.sqlite .tables` lists its tables, and `judgekb/store.py`'s docstring says what each holds" in readme

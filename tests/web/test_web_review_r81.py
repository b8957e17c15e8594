"""The web app after an event-day review on a phone (r81), through Flask's test client: what the pages say."""

from __future__ import annotations

import pytest

from judgekb.web import app as web
from tests.conftest import CORPUS


@pytest.fixture(scope="module")
def client(db_path):
    app = web.create_app(db_path, CORPUS)
    app.testing = False  # the real error handlers
    return app.test_client()


@pytest.fixture(scope="module")
def lists_client(imported_db_path):
    """The database with both card databases and the dated restricted lists imported."""
    app = web.create_app(imported_db_path, CORPUS)
    app.testing = False
    return app.test_client()


def test_a_second_edition_card_page_closes_the_replaced_faq_lists(lists_client, client):
    """r81 M2: FAQ v2.3's restricted and banned status was drawn as bold status badges right under the list in force."""
    page = lists_client.get("/card?name=balon+greyjoy&edition=2").get_data(as_text=True)
    in_force, rest = page.split('id="lists"', 1)[1].split('<details class="historic-lists" id="historic-lists">', 1)
    assert "Kings of the Isles 1</strong>: joust restricted" in in_force
    summary, block = rest.split("</summary>", 1)
    assert '<span class="tag not-in-force">Not in force</span>' in summary and "AGoT 2.0 FAQ v2.3 (2019-09-20)" in summary
    block = block.split("</details>\n", 1)[0]
    assert '<p class="status-line historic">' in block and "Joust: not restricted" in block
    assert page.count('class="status-line') == 1  # nowhere else
    # without the dated lists imported, the page says the list in force is not here, and v2.3's lists stay closed
    bare = client.get("/card?name=Catelyn+Stark&edition=2").get_data(as_text=True)
    assert 'id="no-list-in-force"' in bare and '<details class="historic-lists" id="historic-lists">' in bare
    # first edition: FAQ v5.5.1's lists are the lists in force, shown open as before
    val = client.get("/card?name=Val&edition=1").get_data(as_text=True)
    assert "historic-lists" not in val and '<p class="status-line">' in val

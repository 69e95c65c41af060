"""A refused table is explained in the reader's language: the 422 carries each game-option error's
language-free text (``msgid``, ``params``) for programs, and the words for the reader (``text``)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from collections.abc import Iterator
from pathlib import Path

from fastapi.testclient import TestClient

from sushigo.server.app import create_app

BAD = {"game": "sushi-go", "seats": [{"kind": "human"}] * 3, "options": {"dummy": True}}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", grace=0.2, bot_delay=0.0)) as c:
        yield c


def test_an_option_error_is_worded_for_the_reader_and_language_free_for_programs(client: TestClient) -> None:
    english = client.post("/api/tables", json=BAD, headers={"Accept-Language": "en"})
    russian = client.post("/api/tables", json=BAD, headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert english.status_code == russian.status_code == 422
    en, ru = english.json()["errors"][0], russian.json()["errors"][0]
    # the English message and the detail stay what programs have always read
    assert english.json()["detail"] == russian.json()["detail"]
    assert en["msg"] == ru["msg"] == en["text"]
    assert en["msgid"] == ru["msgid"] and en["params"] == ru["params"]
    assert ru["text"] != en["text"] and any("а" <= ch <= "я" for ch in ru["text"].lower())


def test_the_cookie_chooses_the_language_of_the_answer(client: TestClient) -> None:
    client.cookies.set("sushigo_lang", "zh-Hans")
    err = client.post("/api/tables", json=BAD).json()["errors"][0]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in err["text"])


def test_an_option_error_keeps_its_texts_across_a_worker_process() -> None:
    import pickle

    from sushigo.errors import OptionsError
    from sushigo.game import located_errors, spec

    with pytest.raises(OptionsError) as info:
        spec("sushi-go").validate_options(3, {"dummy": True}, server=True)
    again = pickle.loads(pickle.dumps(info.value))
    assert located_errors(again) == located_errors(info.value) and "msgid" in located_errors(again)[0]
    assert str(again) == str(info.value)

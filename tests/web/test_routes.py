"""The client messages' one route table (web/routes.py), the one union they are declared
in (web/protocol.py), the cluster's forwarded model, and the one ``advance`` the web table
and ``session.Match`` share."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from trashcards import Rules
from trashcards.bots import Bot, make_bot
from trashcards.session import play_match
from trashcards.state import new_match
from trashcards.views import view
from trashcards.web import routes
from trashcards.web.cluster import _REQUEST, Answer, MessageRequest, Refusal
from trashcards.web.moves import advance
from trashcards.web.protocol import (
    CLIENT_TYPES,
    ERROR_CODES,
    Act,
    HintRequest,
    Join,
    client_message,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "trashcards"
MODELS = ("Join", "Act", "NextRound", "RematchRequest", "HistoryRequest", "HintRequest",
          "React", "Ping")


def test_every_client_message_type_has_exactly_one_route() -> None:
    assert sorted(routes.ROUTES) == sorted(CLIENT_TYPES)
    for kind, route in routes.ROUTES.items():
        assert route.type == kind
        assert route.model.__name__ in MODELS


def test_moves_run_at_the_owner_and_everything_else_here() -> None:
    owner = {kind for kind, route in routes.ROUTES.items() if route.where is routes.Where.OWNER}
    # a reaction too: its rate limit per seat is kept in one place, the owner
    assert owner == {"act", "next_round", "rematch", "react"}


def test_joins_and_hints_cost_their_own_limits_and_a_hint_does_not_hold_the_socket() -> None:
    assert routes.ROUTES["join"].limit is routes.Limit.JOINS
    assert routes.ROUTES["hint"].limit is routes.Limit.HINTS
    assert [k for k, r in routes.ROUTES.items() if r.concurrent] == ["hint"]
    assert all(r.limit is None for k, r in routes.ROUTES.items() if k not in ("join", "hint"))


def test_the_client_message_union_is_written_once() -> None:
    """No module but the protocol spells out a union of client message models."""
    name = rf"\b(?:{'|'.join(MODELS)})\b"
    union = re.compile(rf"{name}(?:\s*\|\s*{name})+")
    places = [(path.relative_to(SRC).as_posix(), len(union.findall(path.read_text())))
              for path in sorted(SRC.rglob("*.py")) if union.search(path.read_text())]
    assert places == [("web/protocol.py", 1)]


def test_a_forwarded_message_arrives_as_the_model_it_left() -> None:
    message = Act(type="act", token="t" * 10, action="wild 3", version=7)
    request = MessageRequest(kind="message", table="abc", seats=[1], message=message)
    # the bus carries JSON text between the processes
    received = _REQUEST.validate_python(json.loads(json.dumps(request.model_dump(mode="json"))))
    assert isinstance(received, MessageRequest)
    assert received.message == message
    assert received == request


def test_a_forwarded_message_is_validated_like_a_client_frame() -> None:
    with pytest.raises(ValidationError):
        _REQUEST.validate_python({"kind": "message", "table": "abc", "seats": [0],
                                  "message": {"type": "act", "token": "t", "action": "x"}})
    with pytest.raises(ValidationError):  # the op dicts of before are no request
        _REQUEST.validate_python({"op": "message", "table": "abc", "seats": [0],
                                  "message": {"type": "ping"}})


def test_an_answer_carries_the_refusals_with_their_wait() -> None:
    answer = Answer(errors=[Refusal(code="storage_error", message="m", retry_after=5.0)],
                    stale=True)
    assert Answer.model_validate(json.loads(json.dumps(answer.model_dump(mode="json")))) \
        == answer


def test_client_message_parses_a_dict_as_its_model() -> None:
    assert client_message({"type": "join", "tokens": ["a"]}) == Join(type="join", tokens=["a"])
    assert isinstance(client_message({"type": "hint", "token": "a", "version": 0}),
                      HintRequest)


@pytest.mark.parametrize(("preset", "seed"), [("standard", 1), ("classic", 2), ("kids", 3),
                                              ("last-chance", 4), ("call-trash", 5)])
def test_the_web_table_and_session_match_advance_alike(preset: str, seed: int) -> None:
    """A whole match played by bots through ``session.Match`` and again through the web
    table's ``advance`` (with the same chance stream and bots) makes the same record."""
    rules = Rules.preset_named(preset)
    names = ("a", "b", "c")

    def bots() -> list[Bot]:
        return [make_bot("greedy", random.Random(seed * 10 + s)) for s in range(3)]

    played = play_match(rules, names, bots(), random.Random(seed))
    chance = random.Random(seed)
    seats = bots()
    step = advance(new_match(rules, names), None, None, chance)
    entries = list(step.entries)
    while step.status != "over":
        state = step.state
        if state.to_act is None:  # a round is over: deal on
            step = advance(state, None, None, chance, deal=True)
        else:
            action = seats[state.to_act].choose(view(state, state.to_act))
            step = advance(state, action, state.to_act, chance)
        entries += step.entries
    assert entries == [str(e) for e in played.record.moves]


def test_every_error_code_sent_is_declared_once_and_every_declared_one_is_sent() -> None:
    source = "\n".join(path.read_text() for path in sorted((SRC / "web").glob("*.py")))
    sent = set(re.findall(r'ProtocolError\(\s*"(\w+)"', source))
    sent |= set(re.findall(r'\.error\(\s*"(\w+)"', source))
    sent |= set(re.findall(r'Refusal\(code="(\w+)"', source))
    assert len(set(ERROR_CODES)) == len(ERROR_CODES)
    assert sent == set(ERROR_CODES)

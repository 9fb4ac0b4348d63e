"""Every message of the web protocol as a typed model (docs/protocol.md is their manual).

Client messages are parsed with :func:`parse_client_message`, which turns every kind of
bad input into a :class:`ProtocolError` with the code the client will see. Server
messages are built as plain dicts on the hot path (see :mod:`trashcards.web.table`); the
models below describe them exactly and the tests validate every frame against them
(``extra="forbid"``, so a stray field such as a ``stock`` fails validation).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final, Literal, TypeAlias, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .. import boundedjson
from ..errors import JSONTextError, brief
from ..names import MAX_NAME

__all__ = [
    "CLIENT_TYPES",
    "EMOTES",
    "ERROR_CODES",
    "MAX_NAME",
    "Act",
    "ChancesMessage",
    "ClientMessage",
    "CreateParty",
    "CreateTable",
    "ErrorMessage",
    "EventsMessage",
    "HintLine",
    "HintMessage",
    "HintRequest",
    "HistoryMessage",
    "HistoryRequest",
    "Join",
    "JoinTable",
    "Joined",
    "NextRound",
    "PartyInfo",
    "Ping",
    "Pong",
    "Progress",
    "ProtocolError",
    "React",
    "ReactionMessage",
    "RematchMessage",
    "RematchRequest",
    "SeatInfo",
    "SeatSpec",
    "ServerMessage",
    "StateMessage",
    "TableInfo",
    "TableMessage",
    "ViewState",
    "client_message",
    "message_type",
    "parse_client_message",
    "parse_json",
    "parse_server_message",
]

_TOKEN = Annotated[str, Field(min_length=1, max_length=200)]
#: JavaScript's safe integers: the range of every version and count.
_SAFE = 2 ** 53 - 1
_SEAT = Annotated[int, Field(ge=0, le=3)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


#: Every error code the server sends (an ``error`` message's ``code``, an HTTP error's
#: ``error``): docs/protocol.md says what each means, the catalogs how to say it
#: (``error.<code>``); scripts/write_spec.py copies them to the browser (js/spec.js).
ERROR_CODES: Final = (
    "bad_action", "bad_json", "bad_message", "bad_name", "bad_origin", "bad_phase",
    "bad_record", "bad_request", "bad_rules", "bad_token", "busy", "hints_off", "illegal",
    "internal", "name_taken", "no_open_seat", "no_party", "no_table", "not_joined",
    "not_started", "not_your_turn", "quarantined", "rate_limited", "reactions_off",
    "seat_taken", "stale_version", "storage_error", "too_large", "unavailable",
    "unknown_type", "unsupported_media_type",
)

#: The reactions a seat may send at a table (``react``): a fixed set, so that there is
#: nothing to moderate; the catalogs say each (``reaction.<emote>``); scripts/write_spec.py
#: copies them to the browser (js/spec.js).
EMOTES: Final = ("wave", "thumbs_up", "clap", "laugh", "wow", "oops")
_Emote: TypeAlias = Literal["wave", "thumbs_up", "clap", "laugh", "wow", "oops"]
assert get_args(_Emote) == EMOTES


class ProtocolError(Exception):
    """A refused message or request: ``code`` for programs, ``message`` for people, and
    for a limit or a storage fault the seconds after which to try again."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after = retry_after


# -- client -> server -----------------------------------------------------------------------

class Join(_Model):
    """Attach this connection to the table with the seat tokens it holds."""

    type: Literal["join"]
    tokens: list[_TOKEN] = Field(default_factory=list, max_length=4)
    version: Annotated[int, Field(ge=-_SAFE, le=_SAFE)] | None = None
    #: after a whole ``state``, also send the ``history`` of the current round
    history: bool = False


class Act(_Model):
    """The seat of ``token`` takes ``action`` (record text) at table version ``version``."""

    type: Literal["act"]
    token: _TOKEN
    action: Annotated[str, Field(max_length=40)]
    version: Annotated[int, Field(ge=0, le=_SAFE)]


class NextRound(_Model):
    """The seat of ``token`` is ready for the next round."""

    type: Literal["next_round"]
    token: _TOKEN


class RematchRequest(_Model):
    """Once the match is over: play again with the same seats."""

    type: Literal["rematch"]
    token: _TOKEN


class HintRequest(_Model):
    """The seat of ``token``, to act at table version ``version``, asks for a hint (only
    where the table allows hints; the answer goes to this connection only)."""

    type: Literal["hint"]
    token: _TOKEN
    version: Annotated[int, Field(ge=0, le=_SAFE)]


class React(_Model):
    """The seat of ``token`` shows a reaction (one of :data:`EMOTES`) to everyone at the
    table: where the table allows reactions, at most one per ``reaction_interval``
    seconds a seat (``rate_limited`` with ``retry_after``)."""

    type: Literal["react"]
    token: _TOKEN
    emote: _Emote


class HistoryRequest(_Model):
    """The events of the moves before ``before`` (a page of the "What happened" log)."""

    type: Literal["history"]
    before: Annotated[int, Field(ge=0, le=_SAFE)]


class Ping(_Model):
    type: Literal["ping"]


#: Every message a client may send: the one place the union is written. Its handlers,
#: where each runs and what each costs are in :data:`trashcards.web.routes.ROUTES`.
ClientMessage: TypeAlias = (Join | Act | NextRound | RematchRequest | HistoryRequest
                            | HintRequest | React | Ping)
_CLIENT: Final[TypeAdapter[ClientMessage]] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")])


def message_type(model: type[BaseModel]) -> str:
    """The ``type`` of the messages of ``model`` (its one ``Literal``)."""
    return str(get_args(model.model_fields["type"].annotation)[0])


#: The ``type`` of each client message, in the order of :data:`ClientMessage`.
CLIENT_TYPES: Final[tuple[str, ...]] = tuple(message_type(m) for m in get_args(ClientMessage))


def parse_json(text: str | bytes, max_size: int, max_depth: int) -> Any:
    """The JSON value of a frame or a body, read within bounds; raises
    :class:`ProtocolError`: ``too_large`` over ``max_size``, else ``bad_json`` (not
    JSON or not UTF-8, nested over ``max_depth``, an integer of over 20 digits)."""
    try:
        return boundedjson.parse(text, max_size=max_size, max_depth=max_depth)
    except JSONTextError as exc:
        if exc.kind == "size":
            raise ProtocolError("too_large", f"too large: {exc}") from None
        raise ProtocolError("bad_json", str(exc)) from None


def parse_client_message(text: str | bytes, max_size: int = 4096, max_depth: int = 16
                         ) -> ClientMessage:
    """A client frame as its model; raises :class:`ProtocolError` (``too_large``,
    ``bad_json``, ``unknown_type`` or ``bad_message``) with the reason."""
    data = parse_json(text, max_size, max_depth)
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message is a JSON object")
    return client_message(data)


def client_message(data: dict[str, Any]) -> ClientMessage:
    """A client message's JSON object as its model (also a message another server
    process forwarded); raises :class:`ProtocolError` (``unknown_type``,
    ``bad_message``)."""
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {brief(kind)}; the types are "
                                            f"{', '.join(CLIENT_TYPES)}")
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError("bad_message", _explain(exc)) from None


def _explain(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"][1:]) or "message"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


# -- the view (RECORDS.md, "the state as JSON") ----------------------------------------------

class SlotState(_Model):
    card: str | None
    up: bool


class PlayerState(_Model):
    name: str
    rounds_won: int
    board_size: int
    slots: list[SlotState]


class ViewState(_Model):
    """A seat's view: exactly :func:`trashcards.view_json`; never a ``stock`` field."""

    phase: Literal["draw", "wild", "swap", "chance", "round_over", "match_over"]
    round: int
    dealer: int | None
    to_act: int | None
    in_hand: str | None
    stock_count: int
    discard: list[str]
    players: list[PlayerState]
    round_winners: list[int]
    match_winner: int | None
    legal: list[str]
    seat: int | None
    called: bool
    unclaimed: list[int]
    final_from: int | None
    stock_known: list[str] | None
    standings: list[int] | None = None


# -- server -> client -----------------------------------------------------------------------

class SeatInfo(_Model):
    seat: int
    kind: Literal["me", "hotseat", "open", "bot"]
    name: str | None
    taken: bool
    bot: str | None = None


class Progress(_Model):
    """Where a started match stands, at the moment the table info was made."""

    round: int
    to_act: int | None
    rounds_won: list[int]
    match_winner: int | None


class TableInfo(_Model):
    table_id: str
    rules: dict[str, Any]
    summary: str
    status: Literal["waiting", "playing", "over"]
    players: int
    #: the packs shuffled together for this many players (the rules' ``decks``, or its
    #: default for the table's size)
    decks: int
    open: list[int]
    seats: list[SeatInfo]
    version: int
    round_pause: float
    ready: list[int]
    rematch: str | None
    #: whether the seats may ask for hints (the creator's choice)
    hints: bool
    #: whether the seats may send reactions (the creator's choice; on by default)
    reactions: bool
    #: the party the table belongs to (``/p/{party}``), or null
    party: str | None
    #: null until the match starts
    progress: Progress | None


class Joined(_Model):
    type: Literal["joined"]
    table_id: str
    seats: list[int]
    version: int
    table: TableInfo


class StateMessage(_Model):
    type: Literal["state"]
    version: int
    seat: int | None
    state: ViewState


class EventsMessage(_Model):
    type: Literal["events"]
    from_version: int
    version: int
    seat: int | None
    events: list[dict[str, Any]]
    state: ViewState


class HistoryMessage(_Model):
    """The events of moves ``from_version`` to ``version`` − 1; ``round_from`` is the
    first move of the current round (0 in round 1)."""

    type: Literal["history"]
    from_version: int
    version: int
    round_from: int
    events: list[dict[str, Any]]


class TableMessage(_Model):
    type: Literal["table"]
    table: TableInfo


class RematchMessage(_Model):
    type: Literal["rematch"]
    table_id: str
    url: str


class ErrorMessage(_Model):
    type: Literal["error"]
    code: str
    message: str
    #: with ``rate_limited``: seconds until the message would be accepted
    retry_after: float | None = None


class Pong(_Model):
    type: Literal["pong"]


class ReactionMessage(_Model):
    """A seat's reaction (``react``), sent to everyone at the table, spectators too."""

    type: Literal["reaction"]
    seat: int
    emote: _Emote


_CHANCE = Annotated[float, Field(ge=0.0, le=1.0)]
_INTERVAL = Annotated[list[_CHANCE], Field(min_length=2, max_length=2)]


class HintReason(_Model):
    """Why: a code (``reason.<code>`` in the catalogs) and its parameters."""

    code: str
    params: dict[str, str | int | float]


class HintLine(_Model):
    """One legal action of a hint, with its chances for the seat to act."""

    action: str
    match_win: _CHANCE
    match_win_ci: _INTERVAL
    round_win: _CHANCE
    round_win_ci: _INTERVAL
    #: the paired interval of its match-win chance minus the best's (corrected for the
    #: looks of the adaptive sampling: trashcards.ai.compare)
    vs_best: Annotated[list[Annotated[float, Field(ge=-1.0, le=1.0)]],
                       Field(min_length=2, max_length=2)]
    equal_to_best: bool
    reason: HintReason


class HintMessage(_Model):
    """The answer to a ``hint`` request, to the asking connection only: every legal
    action of ``seat`` at ``version``, best first."""

    type: Literal["hint"]
    version: int
    seat: int
    to_act: int
    best: str
    exact: bool
    samples: int
    tied: list[str]
    always_call: bool
    engine: Literal["fast", "reference", "solver"]
    actions: list[HintLine]
    #: present when computed with fewer deals than usual (server busy, no odds table
    #: for these rules yet): why
    coarse: str | None = None


class ChancesMessage(_Model):
    """Every seat's chance of winning the match (and, during a round, the round) at
    ``version``, sent to everyone at the table (see :class:`trashcards.ai.hints.Chances`)."""

    type: Literal["chances"]
    version: int
    match_win: list[_CHANCE]
    round_win: list[_CHANCE] | None
    source: Literal["search", "odds", "final"]
    #: as in :class:`HintMessage`
    coarse: str | None = None


#: Every message the server sends (written once, as :data:`ClientMessage`).
ServerMessage: TypeAlias = (Joined | StateMessage | EventsMessage | HistoryMessage
                            | TableMessage | RematchMessage | ErrorMessage | Pong | HintMessage
                            | ChancesMessage | ReactionMessage)
_SERVER: Final[TypeAdapter[ServerMessage]] = TypeAdapter(
    Annotated[ServerMessage, Field(discriminator="type")])


def parse_server_message(text: str | bytes) -> ServerMessage:
    """A server frame as its model (for tests and Python clients); raises
    :class:`pydantic.ValidationError` if it breaks the protocol."""
    return _SERVER.validate_python(json.loads(text))


# -- HTTP bodies ---------------------------------------------------------------------------

class SeatSpec(_Model):
    """One seat of ``POST /api/tables``."""

    kind: Literal["me", "hotseat", "open", "bot"]
    #: checked by :func:`trashcards.names.check_name` (``bad_name``, ``name_taken``)
    name: Annotated[str, Field(max_length=4 * MAX_NAME)] | None = None
    bot: Annotated[str, Field(max_length=40)] | None = None


class CreateTable(_Model):
    """The body of ``POST /api/tables``."""

    rules: dict[str, Any] = Field(default_factory=lambda: {"preset": "standard"})
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    #: whether the seats may ask for hints; by default yes when no seat is open (a game
    #: against the computer or on one device), no for a table with open seats
    hints: bool | None = None
    #: whether the seats may send reactions (``react``)
    reactions: bool = True


class JoinTable(_Model):
    """The body of ``POST /api/tables/{id}/join``."""

    name: Annotated[str, Field(max_length=4 * MAX_NAME)] | None = None
    seat: _SEAT | None = None


class CreateParty(_Model):
    """The body of ``POST /api/parties``: 5 to 8 seats, split into two tables."""

    rules: dict[str, Any] = Field(default_factory=lambda: {"preset": "standard"})
    seats: list[SeatSpec] = Field(min_length=5, max_length=8)
    #: once both tables are over, a final table brings their two winners together
    final: bool = True
    #: whether the seats may ask for hints (all three tables); by default as for a table
    hints: bool | None = None
    #: whether the seats may send reactions (all three tables)
    reactions: bool = True


class PartyInfo(_Model):
    """A party as ``GET /api/parties/{id}`` shows it."""

    party_id: str
    rules: dict[str, Any]
    summary: str
    status: Literal["waiting", "playing", "final", "over"]
    final_wanted: bool
    #: the two tables (null for one that expired)
    tables: list[TableInfo | None]
    #: the final table, once both tables are over (if wanted)
    final: TableInfo | None
    #: per table, the seat that won its match (null while it goes on)
    winners: list[int | None]

"""One table: its seats, its match and its connections, driven by one writer.

Every change to a table happens with :attr:`Table.lock` held, in this order: the engine
checks the move (:func:`trashcards.engine.apply`), the chance moves it makes due are
drawn, all of them are committed to the database in one transaction, and only then is
anything changed in memory or sent — to each connection, the view of its own seat
(spectators: the public view) and the events of those moves. Bots act through the same
path as people, from a task that waits a short, human-feeling moment first.

The AI works beside the table, in the :class:`~trashcards.web.advice.Advisor`'s worker
threads and from views only: an expert bot thinks there (the lock is not held while it
thinks; its move is applied only if the table did not change meanwhile), a seat's hint is
computed there on request (where the table allows hints), and after every version every
seat's win chances are computed once and sent to the spectators, and to the players
where hints are allowed — an update still running when the table moves on is not sent,
and the versions it missed are skipped (:mod:`trashcards.web.aids`).

When the database cannot be written (read-only, disk full), nothing changes: a person's
move is answered with a ``storage_error`` error, and bots and the round timer try again
with a growing pause until the storage works again.

With a shared database (PostgreSQL, several server processes) a table in memory is
either *owned* (this process writes its moves: everything above) or a *follower*: it
takes the owner's committed moves in order, from the database's notices
(:meth:`Table.follow`) or by reading the database (:meth:`Table.catch_up`), and sends
them to its connections exactly as the owner does (:mod:`trashcards.web.following`);
the hub forwards its players' requests to the owner.

The table keeps the one writer and its connections; each other concern has its own
module, which reads the table through a small protocol and never imports this one:
:mod:`~trashcards.web.seats` (tokens, open seats, names), :mod:`~trashcards.web.moves`
(applying and replaying moves in memory), :mod:`~trashcards.web.aids` (hints and win
chances), :mod:`~trashcards.web.rematch`, :mod:`~trashcards.web.following` and
:mod:`~trashcards.web.frames` (the JSON frames sent).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any

from ..actions import CALL, Action, Move, parse_action, parse_move
from ..ai.expert import ExpertBot
from ..bots import Bot, make_bot
from ..errors import IllegalActionError, NotationError
from ..record import Entry, Record
from ..rules import Rules
from ..state import Phase, State, new_match
from ..views import view
from . import following
from .advice import Advisor, Work, expert_move
from .aids import Aids
from .commits import Committer
from .connection import Close, Connection
from .frames import (
    broadcast_events,
    broadcast_reaction,
    broadcast_table,
    events_frame,
    joined,
    state_frame,
)
from .history import page_frame, round_start
from .moves import Advance, advance, replay, started
from .protocol import (
    Act,
    HintRequest,
    HistoryRequest,
    Join,
    NextRound,
    ProtocolError,
    React,
    RematchRequest,
)
from .refusals import storage_error, unavailable
from .rematch import ask_rematch
from .seats import choose_name, choose_seat, names, seat_for, seat_of, taken
from .settings import Settings
from .storage import Notice, OwnerLostError, SeatTakenError, Storage
from .store import MoveWrite, SeatRow, TableRow, WriteError, hash_token

__all__ = ["Table"]

log = logging.getLogger(__name__)

#: Creates the rematch table of a finished one (and records it as the rematch of the
#: finished one); returns its id.
RematchMaker = Callable[["Table"], Awaitable[str]]


async def _no_rematch(table: Table) -> str:
    raise ProtocolError("unavailable", f"table {table.id} cannot make a rematch here")


class Table:
    """A table in memory. Build with :meth:`Table.restore` (from the store) or by
    :class:`trashcards.web.hub.Hub` for a new one."""

    def __init__(self, table_id: str, rules: Rules, seats: list[SeatRow], status: str,
                 rematch: str | None, settings: Settings, store: Storage,
                 committer: Committer, advisor: Advisor, ready: Sequence[int] = (),
                 party: str | None = None, hints: bool = False, owned: bool = True,
                 owner: str | None = None, reactions: bool = True) -> None:
        self.id = table_id
        self.party = party
        self.rules = rules
        self.seats = seats
        self.status = status
        self.rematch_id = rematch
        self.settings = settings
        self.store = store
        self.committer = committer
        self.advisor = advisor
        #: whether the seats may ask for hints (the creator's choice)
        self.hints = hints
        #: whether the seats may send reactions (the creator's choice)
        self.reactions = reactions
        #: when each seat last sent a reaction (the settings' clock)
        self.reacted: dict[int, float] = {}
        self.lock = asyncio.Lock()
        self.state: State | None = None
        self.moves: list[str] = []
        #: the events of each move as JSON text, comma-separated (kept as text: strings
        #: are not tracked by the garbage collector, so long games cost no GC pauses)
        self.move_events: list[str] = []
        self.conns: set[Connection] = set()
        self.ready: set[int] = set(ready)
        self.rng = settings.chance_rng(table_id)
        self.bots: dict[int, Bot] = {
            s.seat: make_bot(s.bot or "greedy", settings.bot_rng(table_id, s.seat))
            for s in seats if s.kind == "bot"}
        self._jitter = random.SystemRandom()
        self._task: asyncio.Task[None] | None = None
        #: whether this process writes the table's moves (else it follows the owner's)
        self.owned = owned
        #: the owning process (shared database), as far as this process knows
        self.owner = owner
        #: called when a write finds that this process lost the table
        self.on_lost: Callable[[Table], None] = lambda _table: None
        #: makes the rematch table (the hub's, which keeps the tables)
        self.make_rematch: RematchMaker = _no_rematch
        #: the table's last real activity (wall clock): its creation, a person's move,
        #: the last connection leaving (kept in the database: a restart keeps it; bots'
        #: moves and timers do not count). An abandoned table expires ``abandoned_ttl``
        #: after it
        self.last_active = settings.wall_clock()
        #: the hints and win chances
        self.aids = Aids(self)
        #: writes of the last activity under way
        self._keeping: set[asyncio.Future[None]] = set()
        #: the address of the table's creator (after a restart: of the first person to
        #: join it): its expert bots' share of the AI work is that address's
        self.creator = ""
        #: whether the bots and timers stopped because nobody is there (``bot_grace``)
        self.paused = False

    # -- building -------------------------------------------------------------------------

    @classmethod
    def restore(cls, table_id: str, rules: Rules, seats: list[SeatRow], status: str,
                rematch: str | None, moves: Sequence[str], settings: Settings,
                store: Storage, committer: Committer, advisor: Advisor,
                ready: Sequence[int] = (),
                cuts: str | None = None, party: str | None = None,
                hints: bool = False, owned: bool = True,
                owner: str | None = None, reactions: bool = True,
                active: float | None = None) -> Table:
        """A stored table, its match rebuilt by replaying its record (with the cards cut
        for the dealer, ``cuts``, when they were kept), and its last real activity
        (``active``, if known). Raises what the record breaks (a ``TrashError``) or what
        the row lacks."""
        table = cls(table_id, rules, seats, status, rematch, settings, store, committer,
                    advisor, ready, party, hints, owned, owner, reactions)
        if active is not None:
            table.last_active = active
        if moves:
            table.state, table.move_events = replay(
                rules, tuple(s.name or "" for s in seats), moves, cuts)
            table.moves = list(moves)
        return table

    @property
    def version(self) -> int:
        """The number of moves in the table's record."""
        return len(self.moves)

    @property
    def humans(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind != "bot"]

    def record(self) -> tuple[Record, bool]:
        """The game record and whether it is complete. While the match goes on, the record
        stops before the current round's ``deck`` move, which would reveal hidden cards."""
        names = tuple(s.name or "" for s in self.seats)
        moves = self.moves
        complete = self.state is not None and self.state.phase is Phase.MATCH_OVER
        if not complete:
            last_deck = max((i for i, m in enumerate(moves) if m.startswith("deck ")),
                            default=len(moves))
            moves = moves[:last_deck]
        return Record(self.rules, names, tuple(Entry(*parse_move(m)) for m in moves)), complete

    def info(self) -> dict[str, Any]:
        """The table as the lobby and ``joined``/``table`` messages show it."""
        return {
            "table_id": self.id,
            "rules": self.rules.to_dict(),
            "summary": self.rules.describe(),
            "status": self.status,
            "players": len(self.seats),
            "decks": self.rules.deck_count(len(self.seats)),
            "open": [s.seat for s in self.seats if not taken(s)],
            "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "taken": taken(s),
                       **({"bot": s.bot} if s.kind == "bot" else {})} for s in self.seats],
            "version": self.version,
            "round_pause": float(self.settings.round_pause),
            "ready": sorted(self.ready),
            "rematch": self.rematch_id,
            "hints": self.hints,
            "reactions": self.reactions,
            "party": self.party,
            "progress": None if self.state is None else {
                "round": self.state.round, "to_act": self.state.to_act,
                "rounds_won": list(self.state.rounds_won),
                "match_winner": self.state.match_winner},
        }

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` claims, or ``None``."""
        return seat_of(self.seats, token)

    # -- seats (HTTP) ----------------------------------------------------------------------

    async def take_seat(self, name: str | None, seat: int | None) -> tuple[int, str, str]:
        """Claim an open seat; returns (seat, token, name). When it was the last open
        seat the match starts: the seat and the first moves are written in one
        transaction. Raises :class:`ProtocolError` (``seat_taken``, ``no_open_seat``,
        ``bad_name``, ``name_taken``, ``storage_error``)."""
        async with self.lock:
            if not self.owned:
                raise unavailable()
            free = [s for s in self.seats if not taken(s)]
            row = choose_seat(self.seats, seat)
            chosen = choose_name(self.seats, row, name)
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            last = len(free) == 1 and row is free[0]
            opening = self._opening({**names(self.seats), row.seat: chosen}) if last else None
            try:
                await self.committer.write(
                    self.store.take_seat, self.id, row.seat, chosen, digest,
                    opening.entries if opening else (), "playing" if opening else None,
                    opening.cuts if opening else None)
            except SeatTakenError:
                raise ProtocolError("seat_taken", f"seat {row.seat} is taken") from None
            except OwnerLostError as exc:
                self.on_lost(self)
                raise unavailable(str(exc)) from None
            except WriteError as exc:
                raise storage_error(exc) from None
            row.name, row.token_hash = chosen, digest
            if opening is None:
                self.send_table()
            else:
                self.status = "playing"
                self.send_table()
                self.publish(opening)
            return row.seat, token, chosen

    def _opening(self, given: dict[int, str] | None = None) -> Advance:
        """The cut and the first deal, in memory (every seat taken)."""
        given = given or names(self.seats)
        state = new_match(self.rules, tuple(given[s.seat] for s in self.seats))
        return self._advance(state, None, None)

    def opening_moves(self) -> Advance:
        """For a new table whose every seat is taken: the moves it starts with (the
        hub writes them with the table, then calls :meth:`opened`)."""
        return self._opening()

    def opened(self, opening: Advance) -> None:
        """The new table and its opening moves are written: play on."""
        self.status = "playing"
        self.publish(opening)

    async def start(self) -> None:
        """Begin the match of a stored table whose seats were all taken before the server
        stopped (lock held): the cut and the first deal."""
        assert self.state is None
        opening = self._opening()
        await self.committer.add_moves(MoveWrite(self.id, 0, opening.entries, "playing",
                                                 cuts=opening.cuts))
        self.status = "playing"
        self.send_table()
        self.publish(opening)

    # -- messages -------------------------------------------------------------------------

    # Each client message has its handler here, all of one shape (the connection, the
    # message, and ``remote``: forwarded by another process, whose connection joined
    # there); :data:`trashcards.web.routes.ROUTES` says which runs where. Refusals are
    # sent to the connection as errors.

    async def join(self, conn: Connection, message: Join, remote: bool = False) -> None:
        """Attach ``conn`` with the seats of its tokens; send it what it lacks."""
        async with self.lock:
            with self._refusals(conn, message.type):
                self._join(conn, message)

    async def act(self, conn: Connection, message: Act, remote: bool = False) -> None:
        """A seat's move, by the owner."""
        async with self.lock:
            with self._refusals(conn, message.type):
                self._writable(conn, remote)
                await self._act(conn, message)

    async def next_round(self, conn: Connection, message: NextRound,
                         remote: bool = False) -> None:
        """A seat is ready for the next round, by the owner."""
        async with self.lock:
            with self._refusals(conn, message.type):
                self._writable(conn, remote)
                await self._next_round(message)

    async def ask_rematch(self, conn: Connection, message: RematchRequest,
                          remote: bool = False) -> None:
        """A seat asks for a rematch, by the owner (:func:`trashcards.web.rematch`)."""
        await ask_rematch(self, conn, message, self.make_rematch, remote)

    async def history(self, conn: Connection, message: HistoryRequest,
                      remote: bool = False) -> None:
        """A page of older events; each move's events go to a connection at most once."""
        if conn not in self.conns:
            conn.error("not_joined", "send join first")
            return
        end = min(message.before, self.version if conn.history_from is None
                  else conn.history_from)
        frame, conn.history_from = page_frame(self.move_events, end, round_start(self.moves))
        conn.send(frame)

    async def hint(self, conn: Connection, message: HintRequest, remote: bool = False) -> None:
        """A seat's hint, answered when computed (:mod:`trashcards.web.aids`)."""
        try:
            conn.send(await self.aids.hint(conn, message))
        except ProtocolError as exc:
            conn.error(exc.code, exc.message, exc.retry_after)
        except Exception:  # a bug: say so, keep the connection
            log.exception("table %s: a hint failed", self.id)
            conn.error("internal", "the server failed to compute this hint")

    async def react(self, conn: Connection, message: React, remote: bool = False) -> None:
        """A seat's reaction, by the owner: sent to every connection of the table and
        announced to the processes that follow it; at most one per
        ``reaction_interval`` seconds a seat, where the table allows reactions."""
        async with self.lock:
            with self._refusals(conn, message.type):
                self._writable(conn, remote)
                seat = seat_for(self.seats, message.token)
                if not self.reactions:
                    raise ProtocolError("reactions_off",
                                        "the creator of this table turned reactions off")
                now = self.settings.clock()
                last = self.reacted.get(seat)
                wait = 0.0 if last is None else last + self.settings.reaction_interval - now
                if wait > 0:
                    raise ProtocolError("rate_limited", "one reaction at a time: wait a moment",
                                        retry_after=round(wait, 3))
                self.reacted[seat] = now
                broadcast_reaction(self.conns, seat, message.emote)
                await self.store.react(self.id, self.version, seat, message.emote)

    def _writable(self, conn: Connection, remote: bool) -> None:
        """Raise :class:`ProtocolError` unless ``conn`` joined (or the message was
        forwarded) and this process writes the table."""
        if conn not in self.conns and not remote:
            raise ProtocolError("not_joined", "send join first")
        if not self.owned:
            raise unavailable()

    @contextlib.contextmanager
    def _refusals(self, conn: Connection, what: str) -> Iterator[None]:
        """Send what a handler refuses to ``conn`` as an error (a write that failed: the
        documented storage or ownership error)."""
        try:
            yield
        except OwnerLostError as exc:
            self.on_lost(self)
            error = unavailable(str(exc))
            conn.error(error.code, error.message, error.retry_after)
        except WriteError as exc:
            log.warning("table %s: a %s could not be saved: %s", self.id, what, exc)
            error = storage_error(exc)
            conn.error(error.code, error.message, error.retry_after)
        except ProtocolError as exc:
            conn.error(exc.code, exc.message, exc.retry_after)

    def detach(self, conn: Connection) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        if not self.conns:
            self.last_active = self.settings.wall_clock()
            self.aids.unwatched()  # nobody watches: the update is not wanted
            if self.owned:
                self._keep_active(self.last_active)

    def _keep_active(self, when: float) -> None:
        """Store ``when`` as the last real activity, in the background."""
        async def keep() -> None:
            try:
                await self.committer.write(self.store.touch, self.id, when)
            except WriteError as exc:  # the clock in memory is right; a restart is early
                log.info("table %s: its last activity could not be saved: %s", self.id, exc)
        task = asyncio.ensure_future(keep())
        self._keeping.add(task)
        task.add_done_callback(self._keeping.discard)

    def close_connections(self, close: Close) -> None:
        """Close every connection (the table expired or was purged)."""
        for conn in list(self.conns):
            conn.close(close)
        self.conns.clear()

    def _join(self, conn: Connection, message: Join) -> None:
        seats: list[int] = []
        for token in message.tokens:
            seat = self.seat_of(token)
            if seat is None:
                conn.error("bad_token", "a token is not a seat of this table")
            elif seat not in seats:
                seats.append(seat)
        conn.seats = tuple(seats)
        conn.table_id = self.id
        self.conns.add(conn)
        if not self.creator and seats:
            self.creator = conn.address  # the creator's address was not kept: a player's
        if self.paused:  # someone is here again: the bots go on
            self.paused = False
            self.schedule()
        conn.send_json({"type": "joined", "table_id": self.id, "seats": seats,
                        "version": self.version, "table": self.info()})
        if self.state is None or conn.caught_up == self.version:
            return  # nothing to show yet, or this connection was caught up at this version
        conn.caught_up = self.version
        since = message.version
        if since is None or not 0 <= since < self.version \
                or self.version - since > self.settings.max_catchup:
            conn.send(self._state_frame(conn.view_seat))
            if message.history:
                start = round_start(self.moves)
                frame, conn.history_from = page_frame(self.move_events, self.version, start,
                                                      floor=start)
                conn.send(frame)
        else:
            conn.send(self._events_frame(since, joined(self.move_events[since:]),
                                         conn.view_seat))
        self.aids.joined(conn)

    async def _act(self, conn: Connection, message: Act) -> None:
        seat = seat_for(self.seats, message.token)
        try:
            action = parse_action(message.action)
        except NotationError as exc:
            raise ProtocolError("bad_action", str(exc)) from None
        state = started(self.state)
        if message.version != self.version:
            conn.error("stale_version", f"the table is at version {self.version}, "
                                        f"not {message.version}")
            conn.send(self._state_frame(conn.view_seat))
            return
        if state.to_act != seat:
            who = ("nobody is to act now" if state.to_act is None
                   else f"seat {state.to_act} is to act, not seat {seat}")
            raise ProtocolError("not_your_turn", who)
        try:
            await self._step(action, seat)
        except IllegalActionError as exc:
            raise ProtocolError("illegal", exc.reason) from None

    async def _next_round(self, message: NextRound) -> None:
        seat = seat_for(self.seats, message.token)
        state = started(self.state)
        if state.phase is not Phase.ROUND_OVER:
            raise ProtocolError("bad_phase", "the round is not over")
        ready = self.ready | {seat}
        if set(self.humans) <= ready:
            await self._deal()
        elif ready != self.ready:
            await self.committer.write(self.store.set_ready, self.id, ready)
            self.ready = ready
            self.send_table()
        else:
            self.send_table()

    # -- the one writer ---------------------------------------------------------------------

    def _advance(self, state: State, first: Move | None, seat: int | None,
                 deal: bool = False) -> Advance:
        """Apply ``first`` and the chance moves it makes due, drawn from this table's
        chances (:func:`trashcards.web.moves.advance`)."""
        return advance(state, first, seat, self.rng, deal)

    async def _step(self, first: Move | None, seat: int | None, deal: bool = False) -> None:
        """Apply a move and the chance moves it makes due; commit them all; then change
        the table and send (lock held). Raises :class:`IllegalActionError` or
        :class:`WriteError`, and then nothing changed."""
        assert self.state is not None
        advance = self._advance(self.state, first, seat, deal)
        if not advance.entries:
            return
        status = advance.status
        start = self.version
        clear = bool(self.ready) and advance.state.phase is not Phase.ROUND_OVER
        # a person's move is real activity (kept with the moves); a bot's is not
        active = self.settings.wall_clock() if seat is not None and seat not in self.bots \
            else None
        await self.committer.add_moves(MoveWrite(
            self.id, start, advance.entries,
            status if status != self.status or start == 0 else None, clear_ready=clear,
            active=active))
        if active is not None:
            self.last_active = active
        self.publish(advance)

    def publish(self, advance: Advance) -> None:
        """Committed moves: the table takes them and every connection hears of them."""
        start = self.version
        self.status = advance.status
        self.state = advance.state
        self.moves.extend(advance.entries)
        self.move_events.extend(advance.texts)
        if advance.state.phase is not Phase.ROUND_OVER:
            self.ready.clear()
        self.aids.moved()
        self._broadcast_events(start, joined(advance.texts))
        self.schedule()
        self.aids.update_chances()

    async def _deal(self) -> None:
        await self._step(None, None, deal=True)

    def schedule(self) -> None:
        """Start what the table waits for: a bot's move or the pause between rounds."""
        task, self._task = self._task, None
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()  # a bot's move or a pause that the table no longer waits for
        state = self.state
        if state is None or state.phase is Phase.MATCH_OVER or not self.owned:
            return
        if state.phase is Phase.ROUND_OVER:
            pause = self.settings.round_pause if self.humans else self.settings.bot_delay
            self._task = asyncio.create_task(self._after(pause, None, self.version))
        elif state.to_act in self.bots:
            delay = self.settings.bot_delay
            if self.settings.bot_jitter > 0:
                delay += self._jitter.uniform(0, self.settings.bot_jitter)
            self._task = asyncio.create_task(self._after(delay, state.to_act, self.version))

    async def _after(self, delay: float, bot_seat: int | None, version: int,
                     failures: int = 0) -> None:
        """After ``delay``, if the table is still at ``version``: the bot of ``bot_seat``
        moves, or (``None``) the next round is dealt. If the move cannot be saved, try
        again later (after a pause that doubles up to ``retry_max``)."""
        await asyncio.sleep(delay)
        if self._unwatched():  # nobody there for a while: stop until someone joins
            self.paused = True
            return
        bot = self.bots.get(bot_seat) if bot_seat is not None else None
        thought: Action | None = None
        if isinstance(bot, ExpertBot) and bot_seat is not None:
            state = self.state  # the expert thinks off the loop, on its view, unlocked
            if state is None or self.version != version or state.to_act != bot_seat:
                return
            seat_view = view(state, bot_seat)
            if len(seat_view.legal) > 1 and CALL not in seat_view.legal:  # a search
                odds = self.advisor.odds.ready(self.rules, len(self.seats))
                try:  # in a worker process, as a share of the creator's AI work
                    thought = await self.advisor.run(
                        expert_move, seat_view, odds, bot.rng.random(), kind=Work.BOT,
                        key=self.creator or f"table {self.id}",
                        wanted=lambda: self.version == version)
                except ProtocolError:  # the table moved on: this decision is not needed
                    return
                except Exception:  # a bug or a lost worker: try again, never stall
                    log.exception("table %s: the expert bot failed", self.id)
                    pause = min(self.settings.retry_max, 2.0 ** failures)
                    self._task = asyncio.create_task(
                        self._after(pause, bot_seat, version, failures + 1))
                    return
        async with self.lock:
            state = self.state
            if state is None or self.version != version:
                return
            try:
                if bot_seat is None:
                    if state.phase is Phase.ROUND_OVER:
                        await self._deal()
                elif state.to_act == bot_seat:
                    action = thought if thought is not None else \
                        self.bots[bot_seat].choose(view(state, bot_seat))
                    await self._step(action, bot_seat)
            except OwnerLostError:
                self.on_lost(self)
            except WriteError as exc:
                settings = self.settings
                pause = min(settings.retry_max,
                            settings.write_backoff * 2 ** (settings.write_retries + failures + 1))
                log.warning("table %s: an automatic move could not be saved (%s); trying "
                            "again in %.2f s", self.id, exc, pause)
                self._task = asyncio.create_task(
                    self._after(pause, bot_seat, version, failures + 1))
            except Exception:  # a bug must not kill the table silently
                log.exception("table %s: automatic move failed", self.id)

    def _unwatched(self) -> bool:
        """Whether nobody has been connected for ``bot_grace`` seconds after the last
        real activity (one process only: with several, another's watchers are not
        seen here, so bots never stop)."""
        return (not self.conns and self.store.bus is None and self.settings.wall_clock()
                - self.last_active > self.settings.bot_grace)

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    # -- following the owner (a shared database) -------------------------------------------

    def disown(self) -> None:
        """This process no longer owns the table: stop its bots and timers; from now on
        it follows the owner's moves."""
        self.owned = False
        self.owner = None
        self.cancel()

    def follow(self, notice: Notice) -> bool:
        """Take a notice of the owner; returns ``False`` when the moves in it do not
        follow on from this table's version (read them: :meth:`catch_up`)."""
        return following.follow(self, notice)

    def catch_up(self, row: TableRow, since: int) -> None:
        """Take the stored table ``row`` (its moves from index ``since``)."""
        following.catch_up(self, row, since)

    def rewind(self, row: TableRow) -> None:
        """Take the stored table ``row`` (all its moves) as the truth although it has
        fewer moves than this table (:func:`trashcards.web.following.rewind`)."""
        following.rewind(self, row)

    # -- sending ----------------------------------------------------------------------------

    def state_frame(self, seat: int | None) -> str:
        """A ``state`` message with the view of ``seat``."""
        return self._state_frame(seat)

    def _state_frame(self, seat: int | None) -> str:
        assert self.state is not None
        return state_frame(self.state, self.version, seat)

    def _events_frame(self, since: int, events_text: str, seat: int | None) -> str:
        assert self.state is not None
        return events_frame(self.state, self.version, since, events_text, seat)

    def _broadcast_events(self, since: int, events_text: str) -> None:
        assert self.state is not None
        broadcast_events(self.conns, self.state, self.version, since, events_text)

    def send_table(self) -> None:
        """Send the ``table`` message to every connection."""
        broadcast_table(self.conns, self.info())

"""The headless referee: one JSON object per line in, one JSON object per line out.

Like UCI for chess engines, any program (the kiosk's tests, a bot, a shell pipe) can
play every game through it. :class:`Referee` is pure request → response; the loop that
reads stdin lives in ``kiosk.cli`` (the composition root). Whatever arrives — garbage,
wrong types, unknown commands, illegal moves, huge lines — the answer is an error
object with a stable ``code``, the ruling where one applies and a message; never a
traceback and never a dead process.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
from collections.abc import Callable, Iterator
from itertools import islice
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, ValidationError

from companion import __version__
from companion.bots import BOT_GAMES, DEFAULT_BUDGET_SECONDS, Budget, Clock, Level, decide, make_bot
from companion.bots.core import TickingClock
from companion.errors import RefereeError
from companion.games import available_games, get_rules
from companion.journal import Journal
from companion.model import Frozen
from companion.rules import describe_validation_error
from companion.session import Session

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 1 << 20  # 1 MiB: a position dump of the largest game is ~100 KiB
DEFAULT_LEGAL_LIMIT = 1000
MAX_INT = (1 << 63) - 1  # what SQLite stores; game ids and seeds live there
MAX_CELL_LENGTH = 32  # a cell key ("10,10", an island space ID) is far shorter
MAX_BUDGET_MS = 60_000  # a suggestion thinks at most a minute
_SURROGATE = re.compile("[\ud800-\udfff]")

RequestId = int | str | None


class _Request(Frozen):
    id: RequestId = Field(default=None, description="Echoed in the response.")


class Hello(_Request):
    """Versions and the games this referee knows."""

    cmd: Literal["hello"] = "hello"


class NewGame(_Request):
    """Set up a new game (journaled unless the referee runs without a journal)."""

    cmd: Literal["new"] = "new"
    game: str
    players: list[str]
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(
        default=None, ge=0, le=MAX_INT, description="Omit for a fresh random seed."
    )


class LoadPosition(_Request):
    """Start a game from a position made by ``dump``."""

    cmd: Literal["load"] = "load"
    game: str
    position: dict[str, Any]
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="Must be empty: a position carries its own options (refused otherwise).",
    )


class Resume(_Request):
    """Continue a journaled game (see ``games``)."""

    cmd: Literal["resume"] = "resume"
    game_id: int = Field(ge=1, le=MAX_INT)


class Act(_Request):
    """Submit an action of the current game (see docs/games/)."""

    cmd: Literal["act"] = "act"
    action: dict[str, Any]


class Legal(_Request):
    """List legal actions now (at most ``limit``; ``more`` says if some were left out),
    optionally only those that start on ``origin``, end on ``target`` or touch
    ``touching`` (cells as in highlights: ``"5,5"``, a space ID)."""

    cmd: Literal["legal"] = "legal"
    limit: int = Field(default=DEFAULT_LEGAL_LIMIT, ge=1, le=100_000)
    origin: str | None = Field(default=None, max_length=MAX_CELL_LENGTH)
    target: str | None = Field(default=None, max_length=MAX_CELL_LENGTH)
    touching: str | None = Field(default=None, max_length=MAX_CELL_LENGTH)


class Corrections(_Request):
    """List the manual corrections possible now (RULINGS 0.2.1): templates prefilled
    with the current values; edit the values and send one with ``act``."""

    cmd: Literal["corrections"] = "corrections"


class Highlights(_Request):
    """What the board should show now; ``focus`` is a selected cell."""

    cmd: Literal["highlights"] = "highlights"
    focus: str | None = None


class Suggest(_Request):
    """What the companion would play now for the current player (Kolossus, Builders):
    an action from the legal list and its one-line reason (docs/bots.md)."""

    cmd: Literal["suggest"] = "suggest"
    level: Level = Field(default="medium", description="easy, medium or hard.")
    budget_ms: int | None = Field(
        default=None,
        ge=1,
        le=MAX_BUDGET_MS,
        description="How long it may think, in ms (default: the level's, docs/bots.md).",
    )
    seed: int = Field(
        default=0,
        ge=0,
        le=MAX_INT,
        description="The bot's own random stream: same seed, same answer.",
    )


class _Simple(_Request):
    cmd: Literal["undo", "redo", "state", "dump", "outcome", "export", "games", "schema", "view"]


Request = Annotated[
    Hello
    | NewGame
    | LoadPosition
    | Resume
    | Act
    | Legal
    | Corrections
    | Highlights
    | Suggest
    | _Simple,
    Field(discriminator="cmd"),
]
REQUEST_ADAPTER: TypeAdapter[Request] = TypeAdapter(Request)


class ProtocolError(RefereeError):
    """A line that is not a request (bad JSON, unknown command, missing field)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _error(request_id: RequestId, exc: RefereeError) -> dict[str, Any]:
    return {"id": request_id, "ok": False, "error": exc.as_dict()}


def _strings(value: object, where: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a parsed request (keys too) with where it sits, e.g. ``players[1]``.

    Iterative, so a deeply nested request cannot exhaust the stack here.
    """
    stack: list[tuple[object, str]] = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            yield item, at or "(top level)"
        elif isinstance(item, dict):
            for key, child in item.items():
                name = str(key).encode("utf-8", "backslashreplace").decode()
                path = f"{at}.{name}" if at else name
                yield str(key), f"{path} (a key)"
                stack.append((child, path))
        elif isinstance(item, list):
            stack.extend((child, f"{at}[{i}]") for i, child in enumerate(item))


def _check_text(raw: dict[str, Any]) -> None:
    """Refuse a lone UTF-16 surrogate (``"\\ud800"``): JSON allows the escape, Unicode
    text does not, and it could never be written back out or stored."""
    for text, where in _strings(raw):
        found = _SURROGATE.search(text)
        if found is not None:
            raise ProtocolError(
                "bad_request",
                f"{where} holds a lone UTF-16 surrogate (\\u{ord(found[0]):04x});"
                " text must be valid Unicode.",
            )


class Referee:
    """Answers protocol requests about one current game at a time."""

    def __init__(
        self,
        journal: Journal | None,
        seed_source: Callable[[], int],
        clock: Clock | None = None,
    ) -> None:
        """``seed_source`` gives a fresh seed for ``new`` without one, ``clock`` times a
        ``suggest`` (both kept out of here so the referee stays deterministic under
        test). Without a clock, a suggestion's budget is counted in nodes: every node the
        bot visits moves a :class:`TickingClock` on by 0.1 ms."""
        self.journal = journal
        self.seed_source = seed_source
        self.clock = clock
        self.session: Session | None = None

    # --- the one entry point ---------------------------------------------------------

    def handle(self, line: str | bytes) -> str:
        """One request line in, one response line out (without the newline)."""
        return json.dumps(self.handle_obj(line), separators=(",", ":"), ensure_ascii=False)

    def handle_obj(self, line: str | bytes) -> dict[str, Any]:
        request_id: RequestId = None
        try:
            if len(line) > MAX_LINE_BYTES:
                raise ProtocolError(
                    "line_too_long", f"The line is longer than {MAX_LINE_BYTES} bytes."
                )
            try:
                raw = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise ProtocolError("bad_json", f"Not JSON: {exc}") from None
            except RecursionError:
                raise ProtocolError(
                    "bad_json", "Not JSON this referee reads: nested too deeply."
                ) from None
            except ValueError:  # Python reads integers of at most 4,300 digits
                raise ProtocolError(
                    "bad_json", "Not JSON this referee reads: a number has too many digits."
                ) from None
            if not isinstance(raw, dict):
                raise ProtocolError("bad_request", "A request must be a JSON object.")
            rid = raw.get("id")
            if isinstance(rid, int) or (isinstance(rid, str) and not _SURROGATE.search(rid)):
                request_id = rid  # a bad id is answered with null, never echoed broken
            _check_text(raw)
            if "cmd" not in raw:
                raise ProtocolError("bad_request", 'A request needs a "cmd" field.')
            cmd = raw["cmd"]
            if not isinstance(cmd, str):
                raise ProtocolError(
                    "unknown_command",
                    f'"cmd" must be a command name (a string), not {type(cmd).__name__}.',
                )
            if cmd not in _COMMANDS:
                raise ProtocolError(
                    "unknown_command",
                    f"Unknown command {cmd!r}; the commands are: "
                    + ", ".join(sorted(_COMMANDS))
                    + ".",
                )
            try:
                request = REQUEST_ADAPTER.validate_json(json.dumps(raw), strict=True)
            except ValidationError as exc:
                raise ProtocolError(
                    "bad_request", f"Bad {cmd!r} request: {describe_validation_error(exc)}"
                ) from None
            except RecursionError:
                raise ProtocolError(
                    "bad_request", f"Bad {cmd!r} request: nested too deeply."
                ) from None
            body = self._dispatch(request)
            return {"id": request_id, "ok": True, **body}
        except RefereeError as exc:
            return _error(request_id, exc)
        except RecursionError:
            return _error(
                request_id, ProtocolError("bad_request", "The request is nested too deeply.")
            )
        except Exception as exc:
            return _error(
                request_id,
                ProtocolError("internal_error", f"Internal error ({type(exc).__name__}): {exc}"),
            )

    # --- commands --------------------------------------------------------------------

    def _dispatch(self, request: Request) -> dict[str, Any]:
        if isinstance(request, Hello):
            return {
                "referee": "colossus-companion",
                "version": __version__,
                "protocol": PROTOCOL_VERSION,
                "games": {name: get_rules(name).title for name in available_games()},
            }
        if isinstance(request, NewGame | LoadPosition | Resume):
            self.leave_game()
        if isinstance(request, NewGame):
            seed = self.seed_source() if request.seed is None else request.seed
            self.session = Session.new(
                request.game, request.players, request.options, seed=seed, journal=self.journal
            )
            return self._state()
        if isinstance(request, LoadPosition):
            if request.options:
                raise ProtocolError(
                    "bad_request",
                    '"load" takes no "options": the position carries its own; '
                    'send them with "new" instead.',
                )
            self.session = Session.from_position(
                request.game, request.position, journal=self.journal, options=request.options
            )
            return self._state()
        if isinstance(request, Resume):
            journal = self._journal()
            self.session, damage = Session.resume(journal, request.game_id)
            body = self._state()
            body["damage"] = None if damage is None else damage.model_dump()
            return body
        if isinstance(request, Act):
            session = self._session()
            events = session.submit(request.action)
            return {"events": [e.model_dump(mode="json") for e in events], **self._state()}
        if isinstance(request, Legal):
            session = self._session()
            for key in (request.origin, request.target, request.touching):
                if key is not None and session.rules.parse_cell(session.state, key) is None:
                    raise ProtocolError(
                        "bad_request",
                        f"{key!r} is not a cell of the {session.rules.title} board "
                        '(a square "row,col" on the grid, a space ID on the island).',
                    )
            found = session.rules.legal_actions_at(
                session.state,
                origin=request.origin,
                target=request.target,
                touching=request.touching,
            )
            actions = list(islice(found, request.limit + 1))
            shown, rules, state = actions[: request.limit], session.rules, session.state
            return {
                "actions": [rules.dump_action(a) for a in shown],
                # Each action in the players' words (Rules.describe), in the same order:
                # beside the actions, so an action sent back with `act` is as listed.
                "texts": [rules.describe(state, a) for a in shown],
                "more": len(actions) > request.limit,
            }
        if isinstance(request, Corrections):
            session = self._session()
            templates = session.rules.corrections(session.state)
            return {"corrections": [session.rules.dump_action(a) for a in templates]}
        if isinstance(request, Highlights):
            session = self._session()
            marks = session.rules.highlights(session.state, request.focus)
            return {"highlights": [h.model_dump(mode="json") for h in marks]}
        if isinstance(request, Suggest):
            return self._suggest(request)
        return self._simple(request.cmd)

    def _suggest(self, request: Suggest) -> dict[str, Any]:
        session = self._session()
        rules, state = session.rules, session.state
        if rules.name not in BOT_GAMES:
            raise ProtocolError(
                "no_suggestion",
                f"The companion plays {' and '.join(BOT_GAMES)}; it has no suggestion "
                f"for {rules.title}.",
            )
        seat = rules.current_player(state)
        if seat is None:
            raise ProtocolError("no_suggestion", "The game is over: there is nothing to play.")
        seconds = (
            DEFAULT_BUDGET_SECONDS[request.level]
            if request.budget_ms is None
            else request.budget_ms / 1000
        )
        budget = Budget(seconds, self.clock or TickingClock())
        decision = decide(make_bot(rules, request.level, request.seed), rules, state, seat, budget)
        return {
            "seat": seat,
            "level": decision.level,
            "action": rules.dump_action(decision.action),
            "reason": decision.reason,
            "nodes": decision.nodes,
            "depth": decision.depth,
        }

    def _simple(self, cmd: str) -> dict[str, Any]:
        if cmd == "games":
            journal = self._journal()
            return {"games": [g.model_dump(mode="json") for g in journal.games()]}
        if cmd == "schema":
            return {"schema": protocol_schema()}
        if cmd == "view":
            session = self._session()
            board = session.rules.board(session.state)
            return {
                "panel": dataclasses.asdict(session.rules.panel(session.state)),
                "board": None if board is None else dataclasses.asdict(board),
            }
        session = self._session()
        if cmd == "undo":
            action = session.undo()
            return {"undone": session.rules.dump_action(action), **self._state()}
        if cmd == "redo":
            events = session.redo()
            return {"events": [e.model_dump(mode="json") for e in events], **self._state()}
        if cmd == "dump":
            return {
                "game": session.rules.name,
                "position": session.rules.dump_position(session.state),
            }
        if cmd == "outcome":
            outcome = session.outcome
            return {"outcome": None if outcome is None else outcome.model_dump(mode="json")}
        if cmd == "export":
            return {"record": session.export()}
        return self._state()  # "state"

    def _state(self) -> dict[str, Any]:
        session = self._session()
        rules, state = session.rules, session.state
        outcome = session.outcome
        dice = rules.dice_request(state)
        return {
            "game": rules.name,
            "game_id": session.game_id,
            "players": list(state.players),
            "status": rules.status(state),
            "current_player": rules.current_player(state),
            "dice": None if dice is None else dice.model_dump(mode="json"),
            "outcome": None if outcome is None else outcome.model_dump(mode="json"),
            "can_undo": session.can_undo,
            "can_redo": session.can_redo,
            "actions": len(session.actions),
        }

    def after_answer(self) -> None:
        """Work no answer waits for, done once it is sent: the game's due snapshot
        (:meth:`Session.save_snapshot`). A failure here is left for the next request,
        whose own write reports the journal's trouble."""
        if self.session is not None:
            with contextlib.suppress(RefereeError):
                self.session.save_snapshot()

    def leave_game(self) -> None:
        """The current game is left (another one is asked for, or the input ended):
        save the position the table sees as its latest (:meth:`Session.save_position`).
        A failure is left for the next write, which reports the journal's trouble."""
        if self.session is not None:
            with contextlib.suppress(RefereeError):
                self.session.save_position()

    def _session(self) -> Session:
        if self.session is None:
            raise ProtocolError("no_game", 'No game yet: send "new", "load" or "resume" first.')
        return self.session

    def _journal(self) -> Journal:
        if self.journal is None:
            raise ProtocolError("no_journal", "This referee runs without a journal.")
        return self.journal


ERROR_CODES: dict[str, str] = {
    "bad_json": "the line is not JSON",
    "bad_request": "not a request: no cmd, a missing, unknown or wrong-typed field",
    "unknown_command": "cmd is not one of the commands",
    "line_too_long": "the line is longer than 1 MiB",
    "no_game": "a game command before new, load or resume",
    "no_journal": "games or resume on a referee without a journal",
    "invalid_options": "unknown game, bad player count or names, bad options",
    "invalid_position": "a load position that does not validate",
    "invalid_action": "an action that is not well formed",
    "illegal_action": "a well-formed action the rules forbid now (ruling says which)",
    "journal_error": "the journal could not be read or written; nothing was applied or saved",
    "game_not_found": "resume of a game id the journal does not hold",
    "game_in_use": "resume or a move of a game another program plays now",
    "no_suggestion": "suggest for a game over or a game the bots do not play",
    "internal_error": "a bug; the referee keeps running",
}
"""Every error ``code`` a reply can carry (docs/protocol.md explains each)."""

_COMMANDS = frozenset(
    {"hello", "new", "load", "resume", "act", "legal", "corrections", "highlights", "suggest"}
    | {"undo", "redo", "state", "dump", "outcome", "export", "games", "schema", "view"}
)


def protocol_schema() -> dict[str, Any]:
    """JSON Schema of the requests and of every present game's actions and options."""
    games: dict[str, Any] = {}
    for name in available_games():
        rules = get_rules(name)
        games[name] = {
            "title": rules.title,
            "action": rules.action_adapter.json_schema(),
            "options": rules.options_model.model_json_schema(),
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "colossus-companion referee protocol",
        "version": PROTOCOL_VERSION,
        "request": REQUEST_ADAPTER.json_schema(),
        "error_codes": ERROR_CODES,
        "games": games,
    }

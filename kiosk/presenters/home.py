"""The home screen: the games present in this build, games to resume, recent results.

Lessons ("Learn it") are journaled as demo games: at most :data:`LESSONS_SHOWN`
unfinished one is offered beside the real games and never takes a real game's place,
and a finished lesson is not a result. A locked shop kiosk lists only the games of the
current visit (``shown``, from :class:`kiosk.shop.ShopMode`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.games import GameSummary, available_games, game_summary
from companion.journal import GameInfo, GameStatus, Journal
from kiosk.presenters.companion_seats import load_seats

RECENT_RESULTS = 5
RESUMABLE_SHOWN = 6
LESSONS_SHOWN = 1
#: A locked shop kiosk lists only this visit's games, which were just played: it looks
#: through this many of the newest games beyond the ones it shows, and no further.
VISIT_LOOKED_AT = 50


@dataclass(frozen=True)
class GameCard:
    name: str
    title: str
    players: str  # "1 player", "2–4 players"
    learn: bool = False  # it has a scripted first game: "Learn it in 10 minutes"


@dataclass(frozen=True)
class ResumeCard:
    game_id: int
    game: str
    title: str
    players: str
    detail: str  # "12 actions · 2026-11-22 04:50"


@dataclass(frozen=True)
class ResultLine:
    game_id: int
    text: str


@dataclass(frozen=True)
class HomeView:
    games: tuple[GameCard, ...]
    resumable: tuple[ResumeCard, ...]
    recent: tuple[ResultLine, ...]
    problems: tuple[str, ...]  # games whose module failed to load


def lesson_games() -> frozenset[str]:
    """The games with a scripted first game ("Learn it"): the lesson files shipped in
    ``kiosk/teaching/first_games``, listed without loading the teaching package (Home at
    launch); a lesson is read and checked when it starts (``kiosk.teaching.lessons``)."""
    spec = importlib.util.find_spec("kiosk.teaching")  # found, not imported
    if spec is None or not spec.submodule_search_locations:
        return frozenset()
    folder = Path(next(iter(spec.submodule_search_locations))) / "first_games"
    return frozenset(path.stem for path in folder.glob("*.toml"))


def player_span(game: GameSummary) -> str:
    low, high = game.min_players, game.max_players
    if low == high:
        return f"{low} player" if low == 1 else f"{low} players"
    return f"{low}–{high} players"


def _when(info: GameInfo) -> str:
    return info.updated.replace("T", " ")[:16]


class HomePresenter:
    """Reads the registry and the journal; nothing here changes either."""

    def __init__(
        self,
        journal: Journal,
        games: Callable[[], list[str]] = available_games,
        shown: Callable[[int], bool] | None = None,
    ) -> None:
        self.journal = journal
        self._games = games
        self._shown = shown

    def _summaries(self) -> tuple[dict[str, GameSummary], list[str]]:
        """The games' summaries: the five games' modules are not loaded for a list."""
        found: dict[str, GameSummary] = {}
        problems: list[str] = []
        for name in self._games():
            try:
                found[name] = game_summary(name)
            except Exception as exc:  # a game module still being written must not kill home
                problems.append(f"{name}: {exc}")
        return found, problems

    def view(self) -> HomeView:
        rules, problems = self._summaries()
        lessons = lesson_games()
        cards = tuple(
            GameCard(name=name, title=r.title, players=player_span(r), learn=name in lessons)
            for name, r in rules.items()
        )

        # Short indexed reads, whatever the number of games (Journal.recent_games).
        def latest(status: GameStatus, limit: int, *, lessons: bool = False) -> list[GameInfo]:
            return self.journal.recent_games(
                status,
                limit,
                only_demo=lessons,
                keep=lambda info: (
                    info.game in rules and (self._shown is None or self._shown(info.game_id))
                ),
                looked_at=None if self._shown is None else limit + VISIT_LOOKED_AT,
            )

        def players(info: GameInfo) -> str:  # "Ann, Companion (Hard)"
            return ", ".join(load_seats(self.journal, info.game_id).labels(info.players))

        def card(info: GameInfo, title: str) -> ResumeCard:
            return ResumeCard(
                game_id=info.game_id,
                game=info.game,
                title=title,
                players=players(info),
                detail=f"{info.entries} moves · {_when(info)}",
            )

        resumable = [card(i, rules[i.game].title) for i in latest("active", RESUMABLE_SHOWN)]
        # A lesson is offered on its own, never as a result.
        lesson_cards = [
            card(i, f"Lesson: {rules[i.game].title}")
            for i in latest("active", LESSONS_SHOWN, lessons=True)
        ]
        recent = [
            ResultLine(
                game_id=info.game_id,
                text=f"{rules[info.game].title} · {players(info)} — "
                + str((info.outcome or {}).get("text", "finished")),
            )
            for info in latest("finished", RECENT_RESULTS)
        ]
        return HomeView(
            games=cards,
            resumable=(*resumable, *lesson_cards),
            recent=tuple(recent),
            problems=tuple(problems),
        )

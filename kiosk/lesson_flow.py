"""The kiosk's lesson flow: teach mode's progress, guided setup and the scripted lessons.

:class:`LessonFlow` owns what a taught game adds to the game on screen — the guided
setup before play (:class:`~kiosk.presenters.guided_setup.GuidedSetupPresenter`), the
lesson panel over play (:class:`~kiosk.presenters.lesson.LessonPresenter`) and teach
mode's progress, each saved per tap so a power cut resumes where it was — and asks the
navigation (:class:`Stage`, the kiosk) to show it. The teaching package, the session and
these presenters are imported in the methods that need them, with the first game: Home
needs none of them and launch is shorter without (docs/kiosk.md, "Startup").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, Protocol

from companion.errors import RefereeError
from companion.journal import Journal

if TYPE_CHECKING:  # loaded with the first game, not at launch (see the module docstring)
    from companion.session import Session
    from kiosk.presenters.guided_setup import GuidedSetupPresenter
    from kiosk.presenters.lesson import LessonPresenter, LessonView
    from kiosk.presenters.play import PlayPresenter
    from kiosk.teaching.lessons import Lesson
    from kiosk.teaching.progress import LessonPlace, ProgressStore, SetupProgress

#: A tap (or table button) on the guided-setup screen.
GuidedStep = Literal["done", "back", "skip"]


class Stage(Protocol):
    """What the lesson flow asks of the navigation (:class:`kiosk.navigation.Kiosk`)."""

    @property
    def play(self) -> PlayPresenter | None: ...

    def show_game(self, session: Session) -> None: ...

    def go_home(self) -> None: ...

    def back_to_play(self) -> None: ...

    def show_guided_setup(self, guided: GuidedSetupPresenter) -> None: ...

    def refresh_guided_setup(self) -> None: ...

    def after_change(self) -> None: ...


class LessonFlow:
    """Teach mode, guided setup and lessons for the games one kiosk shows."""

    def __init__(self, journal: Journal, stage: Stage, problems: list[str]) -> None:
        self.journal = journal
        self.stage = stage
        self.problems = problems
        #: Guided setup while it is on screen (before play).
        self.guided: GuidedSetupPresenter | None = None
        #: The scripted first game on screen, if the game is one.
        self.lesson: LessonPresenter | None = None
        self._progress: ProgressStore | None = None

    @property
    def progress(self) -> ProgressStore:
        """Teach mode's progress per game, durable across a power cut (made with the
        first game: the teaching package is not needed for Home)."""
        if self._progress is None:
            from kiosk.teaching.progress import ProgressStore

            self._progress = ProgressStore(self.journal)
        return self._progress

    # --- a game shown, started, left ------------------------------------------------------

    def game_started(self, session: Session, *, teach: bool, guided: bool) -> None:
        """Setup's "Start game" made ``session``: teach mode and guided setup as chosen."""
        from kiosk.teaching.progress import SETUP_START, TeachProgress

        journaled = session.game_id is not None and not self.journal.read_only
        if teach and session.game_id is not None and journaled:
            self.progress.save(session.game_id, TeachProgress())
        if guided and session.game_id is not None and journaled:
            self.progress.save_setup(session.game_id, SETUP_START)
        self.stage.show_game(session)
        play = self.stage.play
        if teach and play is not None and play.teacher.progress is None:
            play.teacher.start(TeachProgress())  # a game outside the journal: taught all the same
            play.changed()
        if guided and not journaled:
            self.open_guided_setup(session)  # a game outside the journal: guided all the same

    def leave(self) -> None:
        """Another game (or Home) is shown: the lesson panel and guided setup go."""
        self.guided = None
        if self.lesson is not None:
            self.lesson.close()
            self.lesson = None

    def follow(self, play: PlayPresenter, game_id: int) -> None:
        """``play`` (a journaled game) is on screen: teach mode resumes where it was (its
        progress is saved per tap), a lesson at its step."""
        from kiosk.teaching.lessons import lesson_for

        store = self.progress
        play.teacher.start(store.load(game_id))
        play.teacher.report_to(lambda progress: store.save(game_id, progress))
        place = store.load_lesson(game_id)
        lesson = None if place is None else lesson_for(play.rules.name)
        if lesson is not None and place is not None:
            self._follow_lesson(play, lesson, place, game_id)

    def resume_setup(self, session: Session) -> None:
        """After :meth:`follow`: a setup not finished is shown before play, where it was."""
        if session.game_id is None:
            return
        setup = self.progress.load_setup(session.game_id)
        if setup is not None and not setup.finished:
            self.open_guided_setup(session, setup)

    # --- guided setup ---------------------------------------------------------------------

    def open_guided_setup(self, session: Session, progress: SetupProgress | None = None) -> None:
        """Show ``session``'s guided setup at ``progress`` (None: its first step; play
        comes after it); each tap is journaled as the game's note, so a power cut resumes
        at the same step."""
        from kiosk.presenters.guided_setup import GuidedSetupPresenter
        from kiosk.teaching import load_teaching
        from kiosk.teaching.progress import SETUP_START

        game_id = session.game_id
        store = self.progress
        save = (
            None
            if game_id is None or self.journal.read_only
            else lambda done: store.save_setup(game_id, done)
        )
        guided = GuidedSetupPresenter(
            session, load_teaching(), SETUP_START if progress is None else progress, on_step=save
        )
        if guided.finished:
            return
        self.guided = guided
        self.stage.show_guided_setup(guided)
        self.stage.after_change()

    def guide(self, step: GuidedStep) -> None:
        """A tap on the guided-setup screen; after the last step or a skip, play (and its
        highlights on the LEDs)."""
        guided = self.guided
        if guided is None:
            return
        steps: dict[GuidedStep, Callable[[], None]] = {
            "done": guided.done,
            "back": guided.back,
            "skip": guided.skip,
        }
        steps[step]()
        if guided.finished:
            self.guided = None
            self.stage.back_to_play()
        else:
            self.stage.refresh_guided_setup()
        self.stage.after_change()

    # --- lessons --------------------------------------------------------------------------

    def start_lesson(self, game: str) -> bool:
        """ "Learn <game> in 10 minutes" (Home, the shop's demo): the game's scripted
        first game — the table set up with guided setup, then play with teach mode on.
        The one place a lesson starts; False (and Home says why) when it cannot."""
        from companion.session import Session
        from kiosk.teaching.lessons import lesson_for
        from kiosk.teaching.progress import SETUP_START, LessonPlace, TeachProgress

        lesson = lesson_for(game)
        if lesson is None:
            return False
        journal = None if self.journal.read_only else self.journal
        try:
            session = Session.new(
                game,
                lesson.players,
                lesson.options,
                seed=lesson.seed,
                journal=journal,
                demo=True,  # journaled (a power cut resumes it) but not a real game
            )
        except RefereeError as error:
            self.problems.append(f"The lesson could not start: {error.message}")
            self.stage.go_home()
            return False
        if session.game_id is not None and journal is not None:
            self.progress.save(session.game_id, TeachProgress())
            self.progress.save_lesson(session.game_id, LessonPlace())
            self.progress.save_setup(session.game_id, SETUP_START)  # set up first
        self.stage.show_game(session)
        play = self.stage.play
        if play is not None and play.teacher.progress is None:  # a game outside the journal
            play.teacher.start(TeachProgress())
            self._follow_lesson(play, lesson, LessonPlace(), None)
            play.changed()
            self.open_guided_setup(session)
        return True

    def _follow_lesson(
        self, play: PlayPresenter, lesson: Lesson, place: LessonPlace, game_id: int | None
    ) -> None:
        """Put ``lesson``'s panel over ``play``, its place saved per change; its check is
        the first step of the kiosk's change pipeline (before the LEDs)."""
        from kiosk.presenters.lesson import LessonPresenter

        store = self.progress
        self.lesson = LessonPresenter(
            play,
            lesson,
            place,
            None if game_id is None else lambda where: store.save_lesson(game_id, where),
            follow=False,
        )

    def check(self, play: PlayPresenter) -> None:
        """The change pipeline's first step: the lesson over ``play`` checks the change."""
        lesson = self.lesson
        if lesson is not None and lesson.play is play:
            lesson.check()

    def lesson_view(self, play: object) -> LessonView | None:
        """The lesson panel of the game ``play`` shows (None: no lesson)."""
        lesson = self.lesson
        return None if lesson is None or lesson.play is not play else lesson.view()

"""The teaching texts (kiosk/teaching/*.toml): complete, true to docs/rulings.md, in the
project's own words, refused with a clear message when broken — and docs/teaching.md,
the coverage list generated from them.

Regenerate docs/teaching.md after changing a text: ``COMPANION_WRITE_DOCS=1`` and run
this file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from companion.bot import RandomBot
from companion.games import get_rules
from companion.session import Session
from kiosk.teaching import (
    COMMON,
    SetupStepText,
    Teaching,
    TeachingFileError,
    load_teaching,
    parse_teaching,
)
from kiosk.teaching.lessons import load_lessons
from tests.helpers.rulings import RULINGS_DOC, Entry, cited, parse_rulings
from tests.helpers.teaching import GAMES, GOOD
from tests.helpers.teaching_examples import example_counts
from tests.kiosk.helpers import assert_imports_without_kivy

ROOT = Path(__file__).resolve().parents[2]
COVERAGE_DOC = ROOT / "docs" / "teaching.md"
#: Words in a row that a text may share with docs/rulings.md before it counts as copied.
SHARED_WORDS = 8


@pytest.fixture(scope="module")
def teaching() -> Teaching:
    return load_teaching()


@pytest.fixture(scope="module")
def entries() -> dict[str, Entry]:
    return parse_rulings(RULINGS_DOC.read_text(encoding="utf-8"))


def test_every_ruling_the_code_cites_has_a_text(teaching: Teaching) -> None:
    missing = {
        ruling: places[0] for ruling, places in cited().items() if ruling not in teaching.home
    }
    assert missing == {}, "add a text to kiosk/teaching/<game>.toml"


def test_every_text_explains_a_ruling_of_docs_rulings(
    teaching: Teaching, entries: dict[str, Entry]
) -> None:
    assert sorted(set(teaching.home) - set(entries)) == []


def test_each_game_has_its_file_and_every_file_loads_from_the_package(teaching: Teaching) -> None:
    assert set(teaching.files) == {*GAMES, COMMON}
    assert load_teaching() is teaching  # read once


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = _words(text)
    return {tuple(words[i : i + SHARED_WORDS]) for i in range(len(words) - SHARED_WORDS + 1)}


def test_texts_are_written_for_newcomers_not_copied(
    teaching: Teaching, entries: dict[str, Entry]
) -> None:
    """No text repeats 8 words in a row of docs/rulings.md (the referee's reference),
    and none is shortened or says less than its title."""
    reference = set().union(*(_shingles(entry.body) for entry in entries.values()))
    copied = []
    for ruling, file in teaching.home.items():
        text = teaching.files[file].texts[ruling]
        if _shingles(text.text) & reference:
            copied.append(ruling)
        assert "…" not in text.text + text.title, ruling
        assert len(_words(text.text)) >= 15, f"{ruling} is too short to teach anything"
    for game, lesson in load_lessons().items():  # the scripted first games' steps too
        for number, step in enumerate(lesson.steps, start=1):
            if _shingles(step.text) & reference:
                copied.append(f"{game} lesson step {number}")
            assert "…" not in step.text + step.title + step.goal, (game, number)
    assert copied == []


@pytest.mark.parametrize("game", GAMES)
def test_every_role_and_count_a_game_shows_has_its_rulings(game: str, teaching: Teaching) -> None:
    """A short random game: every role lit (also with a piece picked), every row of the
    facts panel and every roll asked for has rulings behind it, so "Why?" has an answer."""
    rules = get_rules(game)
    players = ["Ann", "Bob"] if rules.min_players <= 2 <= rules.max_players else ["Ann"]
    session = Session.new(game, players, seed=3, journal=None)
    bot = RandomBot(3)
    unexplained: set[str] = set()
    for _ in range(40):
        state = session.state
        if session.outcome is not None:
            break
        lights = list(rules.highlights(state, None))
        picked = next((h.cell for h in lights if h.role.value == "selectable"), None)
        if picked is not None:
            lights += rules.highlights(state, picked)
        unexplained |= {
            f"role {h.role.value}" for h in lights if not teaching.rulings_of_role(game, h.role)
        }
        unexplained |= {
            f"row {row.label}"
            for row in rules.panel(state).rows
            if not teaching.rulings_of_count(game, row.label)
        }
        request = rules.dice_request(state)
        if request is not None and not teaching.rulings_of_dice(game, request.purpose):
            unexplained.add(f"dice {request.purpose}")
        session.submit(bot.choose(rules, state))
    assert unexplained == set()


# --- a broken file is refused with its name and key -------------------------------------


def test_the_parser_reads_good_files() -> None:
    teaching = parse_teaching(GOOD)
    assert teaching.home == {"0.2.1": "common", "K-R01": "kolossus"}
    assert teaching.rulings_of_count("kolossus", "Mana") == ("0.2.1",)
    text = teaching.text("K-R01")
    assert text is not None and text.title == "The board"


@pytest.mark.parametrize(
    ("file", "change", "message"),
    [
        ("kolossus", ("K-R01", "K-R1"), "kolossus.toml: texts.K-R1.[key]: String should match"),
        ("kolossus", ('title = "The board"\n', ""), "kolossus.toml: texts.K-R01.title: Field"),
        ("kolossus", ("fix =", "fixed ="), "kolossus.toml: roles.fixed.[key]: Input should be"),
        ("kolossus", ('Mana = ["0.2.1"]', 'Mana = ["K-R09"]'), "kolossus.toml: counts.Mana: no"),
        ("kolossus", ('"K-R"', '"0.2."'), "kolossus.toml: texts.K-R01: not one of this file's"),
        (
            "kolossus",
            (
                '"K-R"]',
                '"K-R", "0.2."]\n[texts."0.2.1"]\ntitle = "Again"\ntext = "' + "x" * 40 + '"',
            ),
            "kolossus.toml: texts.0.2.1: already explained in common.toml",
        ),
        ("kolossus", ("[counts]", "[counts"), "kolossus.toml: Expected ']'"),
        (
            "kolossus",
            ("prefixes", "prefix"),
            "kolossus.toml: prefixes: Field required (and 1 more)",
        ),
    ],
)
def test_the_parser_names_file_and_key_of_a_broken_file(
    file: str, change: tuple[str, str], message: str
) -> None:
    broken = dict(GOOD)
    broken[file] = broken[file].replace(*change)
    with pytest.raises(TeachingFileError) as refused:
        parse_teaching(broken)
    assert str(refused.value).startswith(message), str(refused.value)


def test_the_loader_and_the_why_presenter_need_no_kivy() -> None:
    assert_imports_without_kivy("kiosk.teaching", "kiosk.presenters.why")


# --- docs/teaching.md -----------------------------------------------------------------------


def coverage_doc(teaching: Teaching) -> str:
    """docs/teaching.md: per game, the rulings that have a teaching text, and which
    rulings explain its highlight roles and its facts-panel counts."""
    citations = cited()
    covered = sum(1 for ruling in citations if ruling in teaching.home)
    lines = [
        "# Teaching texts: which rulings the companion explains",
        "",
        "Generated by `tests/kiosk/test_teaching.py` from `kiosk/teaching/*.toml` (run it",
        "with `COMPANION_WRITE_DOCS=1` after changing a text); the test fails when this page",
        'is out of date. "Why?" on the play screen shows these texts ([kiosk.md](kiosk.md)).',
        "",
        f"The code cites {len(citations)} rulings; {covered} of them have a teaching text.",
        "",
    ]
    for name in [*GAMES, COMMON]:
        file = teaching.files[name]
        title = "Every game" if name == COMMON else get_rules(name).title
        lines += [f"## {title}", "", f"`kiosk/teaching/{name}.toml`: {len(file.texts)} texts.", ""]
        lines += ["| Ruling | Title |", "|---|---|"]
        lines += [f"| {ruling} | {text.title} |" for ruling, text in file.texts.items()]
        if file.roles:
            lines += ["", "Lit on the board, explained by:", ""]
            lines += [f"- {role.value}: {', '.join(ids)}" for role, ids in file.roles.items()]
        if file.counts:
            lines += ["", "Counts of the facts panel, explained by:", ""]
            lines += [f"- {key}: {', '.join(ids)}" for key, ids in file.counts.items()]
        if file.dice:
            lines += ["", "Rolls, explained by:", ""]
            lines += [f"- {key}: {', '.join(ids)}" for key, ids in file.dice.items()]
        if file.setup:
            lines += ["", "Guided setup, step by step ([kiosk.md](kiosk.md#guided-setup)):", ""]
            lines += [_setup_line(number, step) for number, step in enumerate(file.setup, 1)]
        lines.append("")
    lines += examples_doc()
    lines += lessons_doc()
    return "\n".join(lines)


def examples_doc() -> list[str]:
    """How many executable examples back each game's texts, setup steps and lesson
    steps (an example of common.toml counts for the game it asks)."""
    counts = example_counts()
    kinds = ("text", "setup step", "lesson step")
    lines = [
        "## Executable examples",
        "",
        "Every text above, every guided-setup step and every lesson step carries at least",
        "one example: a position and a question the real referee answers (legal, refused",
        "naming its ruling, a count, a fact). `tests/kiosk/test_teaching_examples.py` runs",
        "them all ([kiosk/teaching/examples.py](../kiosk/teaching/examples.py) says how",
        "they are written). Each text has at least one example that puts its claim to",
        "work: an action the referee must allow or refuse with the text's ruling, actions",
        "of a kind found in the legal list, or actions played and what follows checked —",
        "never only a count at the start. A position that would take a long game to reach",
        "(the last turn of round 12) is set directly and checked like a loaded game.",
        "",
        "| Game | Texts | Setup steps | Lesson steps | In all |",
        "|---|---|---|---|---|",
    ]
    for game in GAMES:
        found = counts.get(game)
        row = [found[kind] if found else 0 for kind in kinds]
        title = get_rules(game).title
        lines.append(f"| {title} | {' | '.join(map(str, row))} | {sum(row)} |")
    total = [sum(c[kind] for c in counts.values()) for kind in kinds]
    lines += [f"| All games | {' | '.join(map(str, total))} | {sum(total)} |", ""]
    return lines


def lessons_doc() -> list[str]:
    """The scripted first games ("Learn <game> in 10 minutes"): each game's steps."""
    lines = [
        "## Scripted first games",
        "",
        '"Learn <game> in 10 minutes" (Home, the shop\'s demo) sets the table up with guided',
        "setup, then plays the game's lesson from `kiosk/teaching/first_games/<game>.toml`",
        "with teach mode on. A *watch* step lights the action it suggests; a *try* step",
        "lets the player find one meeting its goal and takes back one that does not. A goal",
        "this roll cannot meet moves the lesson on.",
        "",
    ]
    for game, lesson in sorted(load_lessons().items(), key=lambda item: GAMES.index(item[0])):
        players = ", ".join(lesson.players)
        lines += [
            f"### {get_rules(game).title}",
            "",
            f"{len(lesson.steps)} steps; players {players}; seed {lesson.seed}.",
            "",
            "| Step | Kind | Title | Ruling | Goal |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| {number} | {step.kind} | {step.title} | {step.ruling} | {step.goal} |"
            for number, step in enumerate(lesson.steps, start=1)
        ]
        lines.append("")
    return lines


def _setup_line(number: int, step: SetupStepText) -> str:
    """``3. The Beast (BM-R05), lit: piece:beast``: a guided-setup step as written."""
    extra = [f"lit: {', '.join(step.light)}"] if step.light else []
    if step.each != "step":
        extra.append(f"once per {step.each}")
    extra += [f"when {name} is {', '.join(map(str, values))}" for name, values in step.when.items()]
    tail = f"; {'; '.join(extra)}" if extra else ""
    ruling = f" ({step.ruling})" if step.ruling else ""
    return f"{number}. {step.title}{ruling}{tail}"


def test_the_coverage_doc_is_current(teaching: Teaching) -> None:
    current = coverage_doc(teaching)
    if os.environ.get("COMPANION_WRITE_DOCS") == "1":
        COVERAGE_DOC.write_text(current, encoding="utf-8")
    committed = COVERAGE_DOC.read_text(encoding="utf-8") if COVERAGE_DOC.exists() else ""
    assert committed == current, "run: COMPANION_WRITE_DOCS=1 pytest tests/kiosk/test_teaching.py"


# --- texts once found wrong: each fault, named ------------------------------------------------

FOUND_WRONG = [
    # (ruling, what the text must say, what it said wrongly)
    ("K-R13", "Guardian or the Colossus may still turn once", "walk past or around"),
    ("K-R02", "pyramid's corner Woods", "the one square that touches the pyramid"),
    ("BC-R02", "topped up to 10 Parts", "you get no cards that turn"),
    ("BC-R09", "keep one or none", "all but one go to your opponent"),
    ("BM-R01", "Until your table loads the board file", "matches the island on your table"),
    ("CS-R05", "both trackers", "depend on the card you drew. Type"),
    ("CS-R06", "limit, not a duty", "counts toward the cards you need"),
]


@pytest.mark.parametrize(("ruling", "says", "said"), FOUND_WRONG, ids=[r for r, *_ in FOUND_WRONG])
def test_a_text_found_wrong_now_says_what_the_ruling_says(
    teaching: Teaching, ruling: str, says: str, said: str
) -> None:
    """Checked line by line against the seeds and the rulings, these texts taught a wrong
    or incomplete rule (K-R13 hid that Guardians and the Colossus may turn round a
    blocker; BC-R09 forbade the legal 0/4 split): each now says what the ruling says,
    and its examples (tests/kiosk/test_teaching_examples.py) show the referee agrees."""
    text = teaching.text(ruling)
    assert text is not None
    assert says in text.text and said not in text.text


def test_guided_setup_steps_found_wrong_now_say_what_the_rulings_say(teaching: Teaching) -> None:
    """Kolossus: the Citadel moves with a quake of line 5 (K-R04, K-R41), each warband
    has its own pool and the weapons all differ (K-R26); Colossi: Age I is turned up in
    setup, who takes the Mantle, Traits when on; no step cites an unrelated ruling."""
    steps = {
        (game, step.title): step for game, file in teaching.files.items() for step in file.setup
    }
    citadel = steps[("kolossus", "The Citadel of Time")].text
    assert "may shift it" in citadel and "whatever quakes" not in citadel
    weapons = steps[("kolossus", "Titan Weapons")].text
    assert "four different" in weapons and "own mana pool" in weapons and "shared" not in weapons
    assert "Turn Age I face up now" in steps[("colossi", "Age cards")].text
    assert "played Colossi the most" in steps[("colossi", "The Mantle")].text
    assert steps[("colossi", "Traits")].when == {"use_traits": (True,)}
    assert steps[("builders", "Who starts")].ruling is None  # was BC-R02 (Curse turns)
    assert steps[("builders", "The decks")].ruling is None  # was BC-R14 (empty deck)
    assert steps[("colossus_solo", "Advanced Actions")].ruling is None  # was CS-R03

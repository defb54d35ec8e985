"""Setup presenter: players, seat colours and options rendered from the options model."""

from __future__ import annotations

from companion.games import get_rules
from companion.games.builders import BuildersOptions
from companion.games.kolossus import KolossusOptions
from companion.journal import Journal
from kiosk.presenters.setup import SetupPresenter
from tests.kiosk.helpers import assert_imports_without_kivy


def test_setup_presenter_does_not_import_kivy() -> None:
    assert_imports_without_kivy("kiosk.presenters.setup", "tests.kiosk.test_presenters_setup")


def test_options_render_by_type_with_rulings() -> None:
    view = SetupPresenter(get_rules("builders")).view()
    kinds = {o.name: o for o in view.options}
    assert kinds["forced_build"].kind == "switch"
    assert kinds["forced_build"].ruling == "BC-R03"
    assert kinds["forced_build"].value is False
    assert kinds["reveal_source"].kind == "choice"
    assert kinds["reveal_source"].ruling == "BC-R04"
    assert "target_then_stockpile" in kinds["reveal_source"].choices
    assert kinds["blueprints"].kind == "fixed"
    assert all(o.description for o in view.options)


def test_stepper_respects_field_bounds() -> None:
    presenter = SetupPresenter(get_rules("toy_pig"))
    option = next(o for o in presenter.view().options if o.name == "target")
    assert (option.kind, option.minimum, option.maximum, option.ruling) == (
        "stepper",
        5,
        100,
        "TOY-R1",
    )
    presenter.values["target"] = 6
    presenter.step("target", -1)
    presenter.step("target", -1)  # 4 is below the bound: refused silently, stays 5
    assert presenter.value("target") == 5
    assert next(o for o in presenter.view().options if o.name == "target").changed
    option = next(o for o in presenter.view().options if o.name == "target")
    assert (option.can_decrease, option.can_increase) == (False, True)  # at its minimum
    presenter.values["target"] = 100
    option = next(o for o in presenter.view().options if o.name == "target")
    assert (option.can_decrease, option.can_increase) == (True, False)  # at its maximum


def test_toggle_and_choose_reach_the_session(tmp_path: object) -> None:
    presenter = SetupPresenter(get_rules("builders"))
    presenter.toggle("forced_build")
    presenter.choose("reveal_source", "stockpile")
    presenter.choose("reveal_source", "not-a-choice")  # ignored
    session = presenter.start(seed=3, journal=None)
    assert session is not None
    assert isinstance(session.options, BuildersOptions)
    assert session.options.forced_build is True
    assert session.options.reveal_source == "stockpile"


def test_players_add_remove_and_seat_order() -> None:
    presenter = SetupPresenter(get_rules("builders"))
    assert [p.name for p in presenter.view().players] == ["Player 1", "Player 2"]
    presenter.remove_player(0)  # at the minimum of 2: refused
    assert len(presenter.names) == 2
    for _ in range(5):
        presenter.add_player()
    assert len(presenter.names) == 4 and not presenter.view().can_add_player
    presenter.rename(3, "  Dora  ")
    presenter.move_up(3)
    assert presenter.names[2] == "Dora"
    colours = [p.colour for p in presenter.view().players]
    assert len(set(colours)) == 4


def test_solo_game_has_one_player() -> None:
    view = SetupPresenter(get_rules("colossus_solo")).view()
    assert len(view.players) == 1 and not view.can_add_player


def test_bad_players_show_the_refusal_and_start_nothing() -> None:
    journal = Journal(":memory:")
    presenter = SetupPresenter(get_rules("builders"), names=("Ann", "Ann"))
    assert presenter.start(seed=1, journal=journal) is None
    banner = presenter.view().banner
    assert banner is not None and "same name" in banner.message
    assert banner.code == "invalid_options"
    assert journal.games() == []


def test_start_journals_the_game() -> None:
    journal = Journal(":memory:")
    presenter = SetupPresenter(get_rules("builders"), names=("Ann", "Bob"))
    session = presenter.start(seed=11, journal=journal)
    assert session is not None and session.game_id is not None
    [info] = journal.games()
    assert info.players == ("Ann", "Bob") and info.seed == 11


def test_K_R21_corner_colours_and_seats_are_set_per_corner() -> None:
    presenter = SetupPresenter(get_rules("kolossus"), names=("Ann", "Bob"))
    options = {o.name: o for o in presenter.view().options}
    colours = options["colours"]
    assert colours.kind == "list" and colours.ruling == "K-R21"
    assert [e.label for e in colours.elements] == [
        "NW corner",
        "NE corner",
        "SE corner",
        "SW corner",
    ]
    assert options["controllers"].automatic and options["controllers"].optional
    presenter.toggle("controllers")  # by hand: every corner gets a player
    seats = {o.name: o for o in presenter.view().options}["controllers"]
    assert not seats.automatic and seats.elements[0].choice_labels == ("Ann", "Bob")
    presenter.choose_element("controllers", 2, 1)  # Bob on NE and SE: not a diagonal pair
    assert presenter.start(seed=1, journal=None) is None
    banner = presenter.view().banner
    assert banner is not None and "K-R21" in banner.text
    presenter.choose_element("controllers", 2, 0)
    presenter.choose_element("colours", 0, "red")
    presenter.choose_element("colours", 3, "blue")
    presenter.choose_element("colours", 1, "purple")  # not a colour: ignored
    session = presenter.start(seed=1, journal=None)
    assert session is not None
    assert isinstance(session.options, KolossusOptions)
    assert session.options.colours == ("red", "yellow", "green", "blue")
    assert session.options.controllers == (0, 1, 0, 1)

"""Names the dead-code check (vulture, run by scripts/test) sees no use of, and why each
stays. Read by vulture only, never run or imported.

Every entry says who uses the name. pyproject.toml's [tool.vulture] already leaves out
Kivy's `on_*` event handlers, pydantic's `model_config` and its validators. A name used
only by tests belongs here only when it is an API those tests check the contract through
(a simulated device's controls, a test hook's reader); otherwise it is dead: remove it.
"""

from typing import Any

_: Any = None

# --- called by Kivy (events, overrides of Kivy's own methods, properties Kivy reads) -----
_.build  # kiosk.app.CompanionApp: Kivy's App.run() calls build()
_.open_settings  # kiosk.app.CompanionApp: Kivy calls it on F1 (overridden to refuse)
_.handle_exception  # kiosk.guard: Kivy's ExceptionManager calls its handlers' method
_.base_widget  # on_kv_post(base_widget): the argument Kivy passes
_.invalidate  # kiosk.widgets.lists.RowKeepingAdapter: Kivy's RecycleView calls it
_._size_needs_update  # kiosk.widgets.lists: Kivy's RecycleLayout reads the flag
_._bind_inactive_bar_color  # kiosk.widgets.scrolling: overrides Kivy's ScrollView method
_._bar_color  # kiosk.widgets.scrolling: Kivy's ScrollView draws its bar in this colour
_.scroll_to  # kiosk.widgets.lists.RowList: ScrollView's method, fixed for a RecycleView
_.animate  # kiosk.widgets.lists.RowList.scroll_to: an argument of Kivy's signature
_.shorten  # Kivy Label property the screens set
_.halign  # Kivy Label property the screens set
_.valign  # Kivy Label property the screens set
_.orientation  # Kivy BoxLayout property the screens set
_.background_color  # Kivy Button property the screens set
_.disabled_color  # Kivy Button property the screens set
_.cols_minimum  # Kivy GridLayout property (kiosk.screens.scores)
_.row_default_height  # Kivy GridLayout property (kiosk.widgets.cards)
_.row_force_default  # Kivy GridLayout property (kiosk.widgets.cards)
_.borderless  # Kivy Window property (kiosk.shop: a locked kiosk)
_.show_cursor  # Kivy Window property (kiosk.shop: a locked kiosk)

# --- read by the layout files (kiosk/kv/*.kv), which vulture does not parse --------------
_.HEADER_HEIGHT  # kiosk.theme, read by admin.kv, guided_setup.kv and screens.kv
_.PLAY_HEADER_HEIGHT  # kiosk.theme, read by screens.kv
_.SIDEBAR_WIDTH  # kiosk.theme, read by screens.kv
_.BACKGROUND  # kiosk.theme, read by screens.kv
_.ACCENT_TEXT  # kiosk.theme, read by admin.kv and widgets.kv
_.BUTTON  # kiosk.theme, read by widgets.kv
_.BUTTON_DOWN  # kiosk.theme, read by widgets.kv
_.DISABLED_TEXT  # kiosk.theme, read by widgets.kv
_.TEXT_ROW  # kiosk.widgets.lists, read by widgets.kv
_.ScoreChart  # kiosk.widgets.chart, placed by scores.kv
_.register_default_font  # kiosk.fonts, called by widgets.kv when it loads
_.next_mode  # kiosk.screens.play, the view switch in screens.kv
_.next_mode_label  # kiosk.screens.play, the view switch's text in screens.kv
_.dismiss_banner  # kiosk.presenters.play, the banner's button in screens.kv
_.exit_pressed  # kiosk.screens.admin, "Exit app" in admin.kv
_.staff_games  # kiosk.shop, "Every game (staff)" in admin.kv
_.change_pin  # kiosk.shop, "Change PIN" in admin.kv

# --- other libraries' attributes and protocols ---------------------------------------------
_.levelname  # logging.LogRecord attribute kiosk.app's log filter sets
_.text_factory  # sqlite3.Connection attribute (kiosk.salvage reads damaged text)
_.when_activated  # gpiozero callback (firmware_bridge.buttons, dice.gpio_die)
_.when_deactivated  # gpiozero callback (firmware_bridge.buttons, dice.gpio_die)
_.SessionExpiryInterval  # paho-mqtt MQTT v5 property (kiosk.fleet.watch)
_.ReceiveMaximum  # paho-mqtt MQTT v5 property (kiosk.fleet.watch)
_.exc_type  # firmware_bridge.leds.strip: __exit__'s argument, fixed by the protocol
_.services  # firmware_bridge.dice.godice_source.BleClient: what godice calls on bleak
_.start_notify  # firmware_bridge.dice.godice_source.BleClient: what godice calls on bleak
_.write_gatt_char  # firmware_bridge.dice.godice_source.BleClient: godice calls it
_.char_specifier  # firmware_bridge.dice.godice_source.BleClient: bleak's argument name
_.callback  # firmware_bridge.dice.godice_source.BleClient: bleak's argument name
_.max_speed_hz  # spidev.SpiDev attribute: the SPI clock (firmware_bridge.leds.spi)

# --- data read by name: model fields dumped to the journal, views and messages; config --
# --- values parsed from TOML and JSON; counters reported as a whole -----------------------
_.seed_document  # companion.rules.Rules and each game's rules: the seed's description
_.due_turn  # companion.games.builders.model: a state field (journaled)
_.added  # companion.games.colossus_solo.model: an action field (journaled)
_.paid  # companion.games.colossus_solo.model: an action field (journaled)
_.deck_cards  # companion.games.colossus_solo.model: a state field (journaled)
_.cards_left  # companion.games.colossus_solo.model: a state field (journaled)
_.traits_drawn  # companion.games.island.colossi_model: a state field (journaled)
_.retiring_beasts  # companion.games.island.colossi_model: a state field (journaled)
_.yellow  # companion.games.kolossus.actions: an action field (a warband's crystals, journaled)
_.NW  # companion.games.kolossus.state.StartZones: an option field (journaled)
_.NE  # companion.games.kolossus.state.StartZones: an option field (journaled)
_.SE  # companion.games.kolossus.state.StartZones: an option field (journaled)
_.SW  # companion.games.kolossus.state.StartZones: an option field (journaled)
_.fallen_landscapes  # companion.games.kolossus.quake: an event field (journaled)
_.resync  # firmware_bridge.board.messages: a message field (the wire format)
_.rotation  # kiosk.settings.sections: a [kiosk] setting (deploy/kivy_config.py)
_.D4  # firmware_bridge.dice.godice_source.GoDiceShell: a [dice.godice] config value
_.D8  # firmware_bridge.dice.godice_source.GoDiceShell: a [dice.godice] config value
_.D12  # firmware_bridge.dice.godice_source.GoDiceShell: a [dice.godice] config value
_.D20  # firmware_bridge.dice.godice_source.GoDiceShell: a [dice.godice] config value
_.ROW_MAJOR  # firmware_bridge.layout.Wiring: a layout file's value
_.ignored  # firmware_bridge.dice.godice_source: a die's count of results it ignored
_.uptime_s  # kiosk.fleet.messages: a field of the health message
_.load_1m  # kiosk.fleet.messages: a field of the health message
_.unconfirmed  # kiosk.fleet.state: a field of the link state file (companion doctor)
_.examples  # kiosk.teaching: a teaching file's field (tests/kiosk/test_teaching_examples.py)
_.duplicates  # firmware_bridge.board.tracker.TrackerStats and dice.serial_tray stats
_.gaps  # firmware_bridge.board.tracker.TrackerStats: a diagnostics counter
_.contradictions  # firmware_bridge.board.tracker.TrackerStats: a diagnostics counter
_.bitmaps  # firmware_bridge.board.tracker.TrackerStats: read by kiosk.doctor_checks
_.deep  # kiosk.pace.IdlePace: read by bench/bench_kiosk.py's child (code in a string)

# --- the simulated devices' and the app's test hooks: the API tests drive them through ---
_.repeat_last_change  # firmware_bridge.dice.sim_board: replays a change (fault tests)
_.bitmaps_sent  # firmware_bridge.dice.sim_board: how often the host asked for the board
_.send_status  # firmware_bridge.dice.sim_tray: a tray's status frame on demand
_.plugged  # firmware_bridge.dice.sim_tray: whether the simulated cable is in
_.unacked  # firmware_bridge.dice.sim_tray: the rolls the host has not acknowledged
_.handshakes  # firmware_bridge.dice.sim_tray: a counter of the simulated tray
_.resent  # firmware_bridge.dice.sim_tray: a counter of the simulated tray
_.pings  # firmware_bridge.dice.sim_tray: a counter of the simulated tray
_.forget  # firmware_bridge.dice.sim_tray: a tray whose store of unacked results overflowed
_.lit_leds  # firmware_bridge.rig: reads the COMPANION_SIM_LEDS frame file (Xvfb tests)
_.decode_frame  # firmware_bridge.leds.spi: reads an SPI frame back (tests, logic-analyser captures)
_.layout_to_json  # firmware_bridge.layout: writes what parse_layout reads (round trip)
_.LICENCE  # kiosk.fonts: the bundled font's licence, which must ship with it
_.WIDTH  # kiosk.theme: the panel's size, which the layout tests lay screens out at
_.HEIGHT  # kiosk.theme: the panel's size, which the layout tests lay screens out at
_.is_draw  # companion.outcome.Outcome: part of the result every game returns
_.cells_updated  # kiosk.widgets.board: the widget's redraw counters (what a move redraws)
_.rebuilds  # kiosk.widgets.board: the widget's redraw counters
_.redraws  # kiosk.widgets.board: the widget's redraw counters
_.relayouts  # kiosk.widgets.board: the widget's redraw counters
_.bad_reads  # firmware_bridge.dice.gpio_die: a counter of unreadable faces
_.in_flight  # kiosk.fleet.publisher: how many records wait for the broker
_.delivered  # kiosk.fleet.publisher: a counter of confirmed records
_.feedback_on  # firmware_bridge.buttons: whether the roll button's light is on
_.pressing  # kiosk.presenters.long_press: whether a long press is under way
_.premaking  # kiosk.widgets.board: whether the board is making layers while still
_.cell_side  # kiosk.widgets.board: the drawn side of a cell (touch-target tests)
_._zoom_frame  # kiosk.widgets.board: where the zoomed board is drawn (touch tests)
_._minimap_frame  # kiosk.widgets.board: where the miniature board is drawn (tests)
_.bytes_per_frame  # firmware_bridge.leds.spi: the SPI frame's size
_.closed  # firmware_bridge.leds.strip.LedStrip: whether the strip was closed (dark)
_.sound  # kiosk.doctor_checks.JournalHealth: the journal check's verdict
_.durability  # companion.journal.Journal: the journal mode and sync level it writes with

# --- used only by tests, in files other work is reshaping now: for the lead to decide ----
_.pump_idle  # bench/bench_dice_latency.py, imported by tests/bridge/test_dice_to_leds.py
_.is_legal  # companion.rules.Rules (tests/games/island/test_chain_back.py)
_.CENTRE  # companion.games.kolossus.board (tests only)
_.defence  # companion.games.kolossus.state (tests only)
_.board_json_schema  # companion.games.island.board (tests/games/island/test_board.py)
_.cell_at  # kiosk.presenters.board (tests only)
_.grid_geometry  # kiosk.presenters.board (tests only)
_.cell_side_px  # kiosk.presenters.board (tests only)
_.tile_taps  # kiosk.presenters.cards (tests/kiosk/taps.py)
_.board_taps  # kiosk.presenters.play (tests/kiosk/taps.py)
_.own_position  # kiosk.teaching.lessons (tests/kiosk/test_teaching_examples.py)
_.unlocking_for_action  # kiosk.shop (tests/kiosk/test_widgets_shop.py)
_.rolling  # kiosk.hardware: written, never read (tests only)
_.building  # kiosk.screens.setup: whether options are still being made (tests/kiosk/ui.py)
_.parse_board  # companion.games.island.board: the board file's parser (tests only)
_.parse_content  # companion.games.island.content: the content file's parser (tests only)
_.show_group  # BoardInput: the menu group shown without a tap (tests/kiosk/test_presenters_play.py)
_.parse_blueprint_table  # companion.games.builders.content: the Blueprint table parser (tests only)

"""The island games: Beast Master (seed 001) and Colossi (seed 002).

One implementation of the island (board graph, control, Road Movement, exploring,
deaths, effect editors) in :mod:`.board`, :mod:`.mechanics` and :mod:`.turns`; one
referee skeleton and the shared options in :mod:`.referee`; the facts panel, the board
view and the cells of actions in :mod:`.views`; the two rule sets in
:mod:`.beast_master` and :mod:`.colossi` (with :mod:`.colossi_model` and
:mod:`.colossi_ages`), each exposing ``RULES``.
Board files and content files are parsed from text/dicts by :func:`.board.parse_board`
and :func:`.content.parse_content`; reading the files is the kiosk's job.
"""

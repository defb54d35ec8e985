"""The island games: Beast Master (seed 001) and Colossi (seed 002).

One implementation of the island (board graph, control, Road Movement, exploring,
deaths, effect editors) in :mod:`.board`, :mod:`.mechanics` and :mod:`.turns`; one
referee skeleton and the shared options in :mod:`.referee`; the facts panel, the board
view and the cells of actions in :mod:`.views`; the two games in the packages
:mod:`.beast_master` and :mod:`.colossi`, each of every game's shape (``content``,
``model``, ``play``, ``rules``, ``views``) and exporting its ``RULES``.
Board files and content files are parsed from text/dicts by :func:`.board.parse_board`
and :func:`.content.parse_content`; reading the files is the kiosk's job.
"""

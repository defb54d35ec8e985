"""Electronic dice: the serial tray protocol, its reader and simulator, GPIO dice.

Every source posts :mod:`firmware_bridge.dice.messages` values; a
:class:`~firmware_bridge.dice.collector.DiceCollector` turns single-die results into the
``companion.dice.Roll`` that answers the game's pending ``DiceRequest``.
"""

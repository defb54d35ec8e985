"""The sensing board: a sensor under each square reports where miniatures stand.

The board speaks the dice tray's framed protocol (its own versioned message types, see
docs/dice-protocol.md 1.10) and is read by the same serial reader, which keeps the
occupancy consistent with :class:`~firmware_bridge.board.tracker.OccupancyTracker` and
posts :class:`~firmware_bridge.board.messages.BoardOccupancy` snapshots. Turning what is
sensed into moves is the kiosk's job (``kiosk/presenters/sensing.py``): it asks the
referee, which this package never does.
"""

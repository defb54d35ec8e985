"""The referee: rules engines for five games, the session, its journal and the protocol.

Pure and deterministic: no I/O except :mod:`companion.journal`, no threads, no Kivy,
no hardware imports. Everything else in the product depends on this package, never
the other way round.
"""

__version__ = "0.1.0"

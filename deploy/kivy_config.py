"""Print the kiosk's Kivy ``config.ini``: one touch provider, the screen's rotation, no log files.

Run by ``deploy/install-pi`` with the app's own Python (so the file matches the installed
Kivy), and written to ``$KIVY_HOME/config.ini`` of the service::

    python deploy/kivy_config.py --rotate 180 > /var/lib/colossus-companion/kivy/config.ini

Kivy itself supplies every default (its config has no optional keys), then four things
change:

- **Touch without duplicates.** Kivy's defaults read the panel twice on a Pi: the
  ``probesysfs`` provider and the ``mouse`` provider, which gets SDL's mouse events
  synthesised from the same touches. Here ``[input]`` holds exactly one line: probesysfs
  finds the multitouch panel (any ``/dev/input/event*`` with ABS_MT_POSITION_X, whatever
  its number) and hands it to the ``mtdev`` provider. ``select_all=0`` keeps keyboards and
  mice out even where Kivy thinks it is on a legacy Pi.
- **Rotation.** ``[graphics] rotation`` turns the picture; since Kivy 2.1 the window also
  turns every touch by the same angle (``MotionEvent.scale_for_screen``), so the touch
  provider gets no rotation of its own (that would turn the touches twice).
- **No log files on the SD card**: ``log_enable = 0`` (the service also sets
  ``KIVY_NO_FILELOG=1``); logs go to stderr and journald.
- **Kiosk manners**: no mouse cursor, Escape does not quit, the on-screen keyboard docks.

The config version is Kivy's own, so Kivy never "upgrades" the file (an upgrade would
add the default input providers back and rewrite the file).
"""

from __future__ import annotations

import argparse
import configparser
import io
import os
import sys
import tempfile
from collections.abc import Sequence

ROTATIONS = ("0", "90", "180", "270")
TOUCH_PROVIDER = "probesysfs,provider=mtdev,select_all=0"


def kivy_config_text(rotation: int) -> str:
    """The config.ini text for this Kivy version with the kiosk's settings."""
    with tempfile.TemporaryDirectory() as home:
        os.environ.update(
            {
                "KIVY_HOME": home,
                "KIVY_NO_CONFIG": "1",  # Kivy's defaults only: never this user's config.ini
                "KIVY_NO_ARGS": "1",
                "KIVY_NO_FILELOG": "1",
                "KIVY_NO_CONSOLELOG": "1",
                "KIVY_LOG_MODE": "PYTHON",
            }
        )
        from kivy.config import Config

        for key in Config.options("input"):
            Config.remove_option("input", key)
        Config.set("input", "touchscreen", TOUCH_PROVIDER)
        Config.set("graphics", "rotation", str(rotation))
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
        Config.set("graphics", "width", "800")  # the official 7" panel
        Config.set("graphics", "height", "480")
        Config.set("graphics", "allow_screensaver", "0")
        Config.set("kivy", "log_enable", "0")
        Config.set("kivy", "log_level", "info")
        Config.set("kivy", "exit_on_escape", "0")
        Config.set("kivy", "keyboard_mode", "systemanddock")
        out = io.StringIO()
        out.write("; Written by deploy/install-pi (deploy/kivy_config.py); it is rewritten on\n")
        out.write("; every install. Touch: one provider only, see docs/deploy.md.\n")
        configparser.RawConfigParser.write(Config, out)
        return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rotate", choices=ROTATIONS, default="0", help="screen rotation")
    args = parser.parse_args(argv)
    sys.stdout.write(kivy_config_text(int(args.rotate)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Reading ``companion.toml``: where it is, what is wrong with it, and what runs anyway.

:func:`load_config` never raises for a bad file: it returns simulated defaults plus a
list of problems, each naming the file, the line and key, and what is wrong, so the
kiosk can start and show the problem on screen.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from pydantic import ValidationError

from firmware_bridge.config import (
    ENV_CONFIG,
    ENV_HARDWARE,
    ConfigProblem,
    default_config_path,
    source_switch_problems,
    toml_problem,
    validation_problem,
)
from firmware_bridge.platform import Platform, detect_platform
from kiosk.settings.sections import CompanionConfig, FleetConfig, KioskConfig


@dataclass(frozen=True)
class LoadedConfig:
    """The configuration to run with, where it came from, and what was wrong with it."""

    config: CompanionConfig
    path: Path | None
    problems: tuple[ConfigProblem, ...] = ()
    forced_simulation: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


def load_config(
    path: Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    platform: Platform | None = None,
) -> LoadedConfig:
    """Read, validate and resolve the configuration. Never raises for a bad file."""
    env = os.environ if environ is None else environ
    found_platform = platform if platform is not None else detect_platform()
    problems: list[ConfigProblem] = []
    explicit = path is not None or bool(env.get(ENV_CONFIG))
    chosen = path if path is not None else Path(env[ENV_CONFIG]) if env.get(ENV_CONFIG) else None
    chosen = (chosen or default_config_path()).expanduser()

    config: CompanionConfig | None = None
    used_path: Path | None = None
    try:
        is_file, exists = chosen.is_file(), chosen.exists()
    except OSError as error:  # e.g. a folder on the way this user may not enter
        is_file = exists = False
        problems.append(
            ConfigProblem(
                str(chosen), "", f"the configuration file cannot be checked ({error.strerror})"
            )
        )
    if is_file:
        used_path = chosen
        config, file_problems = parse_config_file(chosen)
        problems.extend(file_problems)
    elif exists:
        problems.append(ConfigProblem(str(chosen), "", "this is not a file (a folder?)"))
    elif explicit and not problems:
        origin = f"(from {ENV_CONFIG})" if path is None else ""
        problems.append(
            ConfigProblem(
                str(chosen), "", f"the configuration file does not exist {origin}".strip()
            )
        )
    hardware = env.get(ENV_HARDWARE, "").strip().lower()
    if hardware not in ("", "sim", "auto"):
        problems.append(
            ConfigProblem(
                ENV_HARDWARE,
                "",
                f'"{hardware}" is not understood; use "sim" to simulate every device',
            )
        )
    if config is None:  # no file, or a broken one: the defaults, or what is valid of it
        config = CompanionConfig() if used_path is None else salvage_config(used_path)
    # A problem the devices depend on: start with simulated hardware so the app comes up
    # and can show it.
    hardware_problem = any(problem.hardware for problem in problems)
    resolved = config.simulated() if hardware_problem else config.resolved(found_platform)
    forced = hardware == "sim"
    if forced:
        resolved = resolved.simulated()
    return LoadedConfig(resolved, used_path, tuple(problems), forced)


def salvage_config(path: Path) -> CompanionConfig:
    """What can be kept of a file that is broken somewhere: each valid section.

    Hardware still starts simulated (the caller sees the problems), but the data
    directory and the shop's ``[kiosk]`` settings survive a typo in another section, and
    an invalid ``[kiosk]`` still keeps ``locked = true`` — a mistake in the file must
    never open a shop's kiosk to the public.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return CompanionConfig()
    kept: dict[str, object] = {}
    for key in CompanionConfig.model_fields:
        if key in data:
            try:
                CompanionConfig.model_validate({key: data[key]})
            except ValidationError:
                continue
            kept[key] = data[key]
    try:
        config = _anchor_paths(CompanionConfig.model_validate(kept), path.parent)
    except ValidationError:  # valid alone, clashing together (a GPIO pin used twice)
        config = _anchor_paths(
            CompanionConfig.model_validate(
                {k: v for k, v in kept.items() if k in ("data_dir", "kiosk")}
            ),
            path.parent,
        )
    section = data.get("kiosk")
    if "kiosk" not in kept and isinstance(section, Mapping) and section.get("locked") is True:
        config = config.model_copy(update={"kiosk": KioskConfig(locked=True)})
    return config


def parse_config_file(path: Path) -> tuple[CompanionConfig | None, list[ConfigProblem]]:
    """Parse and validate one file; relative paths in it are taken from its directory."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None, [ConfigProblem(str(path), "", "the file is not UTF-8 text")]
    except OSError as error:
        return None, [ConfigProblem(str(path), "", f"cannot read it ({error.strerror or error})")]
    return parse_config_text(text, source=str(path), base_dir=path.parent)


def parse_config_text(
    text: str, source: str = "configuration", base_dir: Path | None = None
) -> tuple[CompanionConfig | None, list[ConfigProblem]]:
    """Validate TOML text. Returns the config (None if broken) and the problems found."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return None, [toml_problem(error, source)]
    problems = source_switch_problems(data, text, source)
    data, fleet_problems = _checked_fleet(data, text, source)
    try:
        config = CompanionConfig.model_validate(data)
    except ValidationError as error:
        problems += [validation_problem(source, text, item) for item in error.errors()]
        return None, problems + fleet_problems
    if problems:
        return None, problems + fleet_problems
    if base_dir is not None:
        config = _anchor_paths(config, base_dir)
    return config, fleet_problems


def _checked_fleet(
    data: dict[str, object], text: str, source: str
) -> tuple[dict[str, object], list[ConfigProblem]]:
    """Check ``[fleet]`` on its own: when it is wrong, its problems are reported (as not
    the hardware's) and the rest of the file is used without it (fleet off)."""
    section = data.get("fleet")
    if section is None:
        return data, []
    try:
        FleetConfig.model_validate(section)
    except ValidationError as error:
        problems = [
            replace(
                validation_problem(source, text, {**item, "loc": ("fleet", *item["loc"])}),
                hardware=False,
            )
            for item in error.errors()
        ]
        return {key: value for key, value in data.items() if key != "fleet"}, problems
    return data, []


def _anchor_paths(config: CompanionConfig, base_dir: Path) -> CompanionConfig:
    def anchor(path: Path) -> Path:
        path = path.expanduser()
        return path if path.is_absolute() else base_dir / path

    leds = config.leds
    if leds.layout is not None:
        leds = leds.model_copy(update={"layout": anchor(leds.layout)})
    fleet = config.fleet.model_copy(
        update={
            key: anchor(path)
            for key in ("ca_file", "certfile", "keyfile")
            if (path := getattr(config.fleet, key)) is not None
        }
    )
    return config.model_copy(
        update={"leds": leds, "fleet": fleet, "data_dir": anchor(config.data_dir)}
    )

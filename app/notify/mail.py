"""Email: the signed links, the mails (plain text + HTML, in the user's language) and the
sender (aiosmtplib) run by the shared job queue (``email_jobs``, :mod:`app.jobqueue`).

A job's ``payload`` holds what the mail needs (``kind``, ``lang``, the game or the games, the
token of its link); the mail is rendered when it is sent. Every notice mail carries a one-click
unsubscribe (RFC 8058): ``List-Unsubscribe: <https://.../api/email/unsubscribe?token=...>`` and
``List-Unsubscribe-Post: List-Unsubscribe=One-Click``; the token is signed and names the user
and the kind it turns off.
"""

from __future__ import annotations

import asyncio
import html
import io
import logging
import secrets
from datetime import datetime
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import getaddresses, make_msgid
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import aiosmtplib
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from .. import serverkeys
from .texts import text

log = logging.getLogger("menagerie.notify.mail")

VERIFY_SALT = "menagerie-email-verify"
UNSUBSCRIBE_SALT = "menagerie-email-unsubscribe"


#: headers whose value is an ASCII ``<URI>`` list that must go out exactly as written: the
#: standard policy turns a line over 78 characters without a space into RFC 2047
#: encoded-words (``=?utf-8?q?=3Chttps...?=``), where no mail client finds the link (RFC 2369
#: allows a long line; RFC 5322's hard limit is 998 characters)
VERBATIM_HEADERS = frozenset({"list-unsubscribe", "list-unsubscribe-post"})


class _SmtpPolicy(EmailPolicy):
    """``email.policy.SMTP`` (CRLF, headers folded and encoded as usual) except that the
    :data:`VERBATIM_HEADERS` are written unfolded and unencoded."""

    def _verbatim(self, name: str, value) -> str | None:
        if name.lower() not in VERBATIM_HEADERS:
            return None
        text_value = str(value)
        if not text_value.isascii() or "\r" in text_value or "\n" in text_value:
            raise ValueError(f"{name} must be one line of ASCII")
        return f"{name}: {text_value}{self.linesep}"

    def fold(self, name, value):
        return self._verbatim(name, value) or super().fold(name, value)

    def fold_binary(self, name, value):
        line = self._verbatim(name, value)
        return line.encode("ascii") if line else super().fold_binary(name, value)


SMTP_POLICY = _SmtpPolicy(linesep="\r\n")


def to_bytes(message: EmailMessage) -> bytes:
    """The message as it goes over SMTP."""
    out = io.BytesIO()
    BytesGenerator(out, policy=SMTP_POLICY).flatten(message)
    return out.getvalue()


class Links:
    """Signed tokens for the links in mails (itsdangerous). The key is ``secret_key`` when it is
    set; otherwise a key the server made once and keeps in the database (``server_keys``, name
    ``mail_links``, like the Web Push key), so a link made by one process works on every other
    and after a restart. :meth:`ready` loads it (once); every async path calls it first."""

    def __init__(self, settings, db=None) -> None:
        self.db = db
        self._verify: URLSafeTimedSerializer | None = None
        self._unsub: URLSafeTimedSerializer | None = None
        self._lock = asyncio.Lock()
        self._secret = settings.secret_key
        if self._secret or db is None:
            self._use(self._secret or secrets.token_urlsafe(32))
        self.base = settings.public_url.rstrip("/")
        self.verify_seconds = int(settings.email_verify_hours * 3600)

    def _use(self, key: str) -> None:
        self._verify = URLSafeTimedSerializer(key, salt=VERIFY_SALT)
        self._unsub = URLSafeTimedSerializer(key, salt=UNSUBSCRIBE_SALT)

    async def ready(self) -> Links:
        """Load the shared key from the database the first time (no-op afterwards)."""
        if self._verify is None:
            async with self._lock:
                if self._verify is None:
                    self._use(await serverkeys.load_or_make(
                        self.db, "mail_links", lambda: secrets.token_urlsafe(32)))
        return self

    def _serializers(self) -> tuple[URLSafeTimedSerializer, URLSafeTimedSerializer]:
        if self._verify is None or self._unsub is None:
            raise RuntimeError("Links.ready() was not awaited")
        return self._verify, self._unsub

    def verify_token(self, user_id: int, address: str) -> str:
        return self._serializers()[0].dumps({"u": user_id, "e": address})

    def check_verify(self, token: str) -> tuple[int, str] | None:
        """(user id, address) of a valid, unexpired verification token, else None."""
        try:
            data = self._serializers()[0].loads(token, max_age=self.verify_seconds)
            return int(data["u"]), str(data["e"])
        except (BadSignature, SignatureExpired, KeyError, TypeError, ValueError):
            return None

    def unsubscribe_token(self, user_id: int, kind: str) -> str:
        return self._serializers()[1].dumps({"u": user_id, "k": kind})

    def check_unsubscribe(self, token: str) -> tuple[int, str] | None:
        try:
            data = self._serializers()[1].loads(token)
            return int(data["u"]), str(data["k"])
        except (BadSignature, KeyError, TypeError, ValueError):
            return None

    def game(self, game_id: int) -> str:
        return f"{self.base}/game.html?id={game_id}"

    def lobby(self) -> str:
        return f"{self.base}/"

    def verify(self, token: str) -> str:
        return f"{self.base}/api/email/verify?token={token}"

    def unsubscribe(self, token: str) -> str:
        return f"{self.base}/api/email/unsubscribe?token={token}"


def local_time(iso_time: str, tz: str | None) -> str:
    """``2030-01-01T18:00:00Z`` as ``2030-01-01 20:00 (Europe/Kyiv)`` in the user's zone."""
    try:
        when = datetime.fromisoformat(iso_time.replace("Z", "+00:00"))
        zone = ZoneInfo(tz or "UTC")
    except (ValueError, ZoneInfoNotFoundError):
        return iso_time
    return f"{when.astimezone(zone):%Y-%m-%d %H:%M} ({tz or 'UTC'})"


def _html(paragraphs: list[str], links: list[tuple[str, str]], footer: list[str]) -> str:
    body = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    body += "".join(f'<p><a href="{html.escape(url)}">{html.escape(label)}</a></p>'
                    for label, url in links)
    foot = "".join(f"<p style=\"color:#777;font-size:small\">{p}</p>" for p in footer)
    return f"<!doctype html><html><body style=\"font-family:sans-serif\">{body}{foot}</body></html>"


def render(payload: dict[str, Any], links: Links, to_addr: str, sender: str) -> EmailMessage:
    """The mail of one job."""
    kind, lang = payload["kind"], payload.get("lang", "en")
    paragraphs: list[str] = []
    buttons: list[tuple[str, str]] = []
    if kind == "verify":
        subject = text(lang, "verify.subject")
        paragraphs.append(text(lang, "verify.body"))
        buttons.append((text(lang, "verify.button"), links.verify(payload["token"])))
    elif kind == "digest":
        games = payload["games"]
        subject = text(lang, "digest.subject", n=len(games))
        paragraphs.append(text(lang, "digest.body"))
        buttons += [(g["title"], links.game(g["id"])) for g in games]
    elif kind == "daily_challenge":  # today's challenge is open: a link to the lobby's card
        subject = text(lang, "daily_challenge.subject")
        paragraphs.append(text(lang, "daily_challenge.body"))
        buttons.append((text(lang, "daily_challenge.button"), links.lobby()))
    else:  # a notice about one game: your_turn, reminder, game_over, chat_mention, invitation
        game = payload["game"]
        words = {"title": game["title"], "by": payload.get("by") or "?"}
        subject = text(lang, f"{kind}.subject", **words)
        paragraphs.append(text(lang, f"{kind}.body", **words))
        if payload.get("excerpt"):
            paragraphs.append(f"“{payload['excerpt']}”")
        if payload.get("deadline"):
            paragraphs.append(text(lang, "your_turn.deadline",
                                   deadline=local_time(payload["deadline"], payload.get("tz"))))
        buttons.append((text(lang, "open_game"), links.game(game["id"])))

    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = sender
    message["To"] = to_addr
    message["Message-ID"] = make_msgid(domain="menagerie")
    message["X-Menagerie-Kind"] = kind
    footer: list[str] = []
    plain = paragraphs + [f"{label}: {url}" for label, url in buttons]
    if payload.get("unsubscribe"):
        url = links.unsubscribe(payload["unsubscribe"])
        message["List-Unsubscribe"] = f"<{url}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        plain += ["", "--", text(lang, "footer"), f"{text(lang, 'unsubscribe')}: {url}"]
        footer = [html.escape(text(lang, "footer")),
                  f'<a href="{html.escape(url)}">{html.escape(text(lang, "unsubscribe"))}</a>']
    message.set_content("\n\n".join(plain) + "\n")
    message.add_alternative(_html(paragraphs, buttons, footer), subtype="html")
    return message


async def send(settings, message: EmailMessage) -> str | None:
    """Hand one mail to the SMTP server: None when it was accepted, else the error to record
    (coarse: the class of the failure and the server's reply code)."""
    security = settings.smtp_security
    sender = getaddresses([str(message["From"])])[0][1]
    try:
        await aiosmtplib.send(
            to_bytes(message), sender=sender, recipients=[str(message["To"])],
            hostname=settings.smtp_host, port=settings.smtp_port,
            username=settings.smtp_username or None, password=settings.smtp_password or None,
            use_tls=security == "ssl", start_tls=True if security == "starttls" else False,
            timeout=settings.smtp_timeout)
    except aiosmtplib.SMTPResponseException as exc:
        return f"SMTP {exc.code}"
    except (aiosmtplib.SMTPException, OSError) as exc:
        return type(exc).__name__
    return None


def unsubscribe_page(lang: str, state: str) -> str:
    """The page a person sees who opens the unsubscribe link in a browser: ``ask`` (a button
    that POSTs to the same address: opening a link never unsubscribes, since mail scanners open
    links too), ``done`` or ``bad``."""
    button = ""
    if state == "ask":
        button = (f'<form method="post"><button type="submit">'
                  f'{html.escape(text(lang, "unsubscribe"))}</button></form>')
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>Menagerie</title></head><body style=\"font-family:sans-serif\">"
            f"<p>{html.escape(text(lang, 'unsubscribe.' + state))}</p>{button}"
            f'<p><a href="/">Menagerie</a></p></body></html>')

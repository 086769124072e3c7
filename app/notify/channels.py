"""The delivery channels of notices: what the dispatcher hands a notice to.

A channel is small on purpose (push plugs in the same way)::

    class Channel(Protocol):
        name: str                                   # its switch in prefs["channels"]
        available: bool                             # configured on this server at all
        def accepts(self, recipient) -> bool        # configured, and this user can get it
        async def enqueue(self, session, notice, recipient) -> None
            # add its durable job rows in ``session``: the dispatcher commits them together
            # with the throttle's record, so a notice is queued whole or not at all
        def wake(self) -> None                      # after the commit: look for due jobs now

The dispatcher (:mod:`app.notify.service`) has already applied the user's preferences (kind,
channel switch, quiet hours, "only when away", the per-game throttle) when it calls ``enqueue``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..jobqueue import JobWorker, stepped_backoff
from ..models_delivery import EmailJob
from . import mail, store

#: waits between attempts of a mail, in units of ``email_backoff_base``
BACKOFF_STEPS = (1, 6, 24, 120, 720)


@dataclass(frozen=True)
class Notice:
    kind: str                 #: your_turn, reminder, game_over, chat_mention, invitation
    game_id: int
    game: str                 #: the engine name
    title: str
    version: int = 0
    deadline: str | None = None
    by: str = ""              #: chat_mention, invitation: the username of who caused it
    excerpt: str = ""         #: chat_mention: the start of the line


@dataclass(frozen=True)
class Recipient:
    user_id: int
    lang: str
    prefs: dict[str, Any]
    email: str | None         #: the verified address, or None
    tz: str = "UTC"           #: the user's time zone (IANA name)


class Channel(Protocol):
    name: str

    @property
    def available(self) -> bool: ...

    def accepts(self, recipient: Recipient) -> bool: ...

    async def enqueue(self, session, notice: Notice, recipient: Recipient) -> None: ...

    def wake(self) -> None: ...


class EmailChannel:
    """Mails through SMTP, queued in ``email_jobs`` and sent by the shared job worker."""

    name = "email"

    def __init__(self, db, settings) -> None:
        self.db = db
        self.settings = settings
        self.links = mail.Links(settings, db)
        self.worker = JobWorker(
            db, EmailJob, name="email", load=self._load, send=self._send,
            max_attempts=lambda: settings.email_max_attempts,
            backoff=lambda n: stepped_backoff(settings.email_backoff_base, BACKOFF_STEPS, n),
            poll=settings.email_poll_seconds, drain=settings.smtp_timeout + 1)

    @property
    def available(self) -> bool:
        """Whether this server sends mail at all (an SMTP host is set)."""
        return bool(self.settings.smtp_host)

    def accepts(self, recipient: Recipient) -> bool:
        return self.available and recipient.email is not None

    def add_job(self, session, user_id: int, to_addr: str, payload: dict) -> None:
        store.add_email_job(session, user_id, to_addr, payload)

    async def enqueue(self, session, notice: Notice, recipient: Recipient) -> None:
        assert recipient.email is not None
        links = await self.links.ready()
        self.add_job(session, recipient.user_id, recipient.email, {
            "kind": notice.kind, "lang": recipient.lang, "deadline": notice.deadline,
            "tz": recipient.tz,
            "game": {"id": notice.game_id, "game": notice.game, "title": notice.title,
                     "version": notice.version},
            "by": notice.by, "excerpt": notice.excerpt,
            "unsubscribe": links.unsubscribe_token(recipient.user_id, notice.kind)})

    def wake(self) -> None:
        self.worker.wake()

    def start(self) -> None:
        if self.available:
            self.worker.start()

    async def stop(self) -> None:
        await self.worker.stop()

    @staticmethod
    async def _load(session, ids: list[int]) -> list:
        return await store.email_jobs(session, ids)

    async def _send(self, job) -> str | None:
        message = mail.render(job.payload, await self.links.ready(), job.to_addr, self.settings.smtp_from)
        return await mail.send(self.settings, message)

"""Notifications for players who are away (issue #21): preferences, the dispatcher, email.

- :mod:`.prefs`: what a user chose, the quiet hours and the per-game throttle;
- :mod:`.channels`: the ``Channel`` protocol and the email channel (the shared job queue);
- :mod:`.mail`: signed links, the mails in the user's language, the SMTP sender;
- :mod:`.service`: :class:`NotifyService`, the dispatcher, the address, the daily digest.
"""

from .channels import Channel, EmailChannel, Notice, Recipient
from .service import NotifyService

__all__ = ["Channel", "EmailChannel", "Notice", "NotifyService", "Recipient"]

"""The words of the mails in each language (en, uk, de). ``{title}``, ``{url}`` and the like
are filled by :mod:`app.notify.mail`."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "daily_challenge.subject": "Today's challenge is open",
        "daily_challenge.body": "Today's daily challenge is open: the same deal for every "
                                "player, one attempt each. Keep your streak going.",
        "daily_challenge.button": "To today's challenge",
        "chat_mention.subject": "{by} mentioned you in {title}",
        "chat_mention.body": "{by} mentioned you in the chat of {title}:",
        "game_invitation.subject": "{by} invites you to a game of {title}",
        "game_invitation.body": "{by} invites you to a game of {title} and keeps a seat for "
                                "you. Accept or decline it in the lobby.",
        "invitation_declined.subject": "{by} declined your invitation to {title}",
        "invitation_declined.body": "{by} declined your invitation to {title}. Their seat is "
                                    "free again: invite someone else from the lobby.",
        "invitation.subject": "{by} offers a rematch of {title}",
        "invitation.body": "{by} offers a rematch of {title}. Accept or decline it at the "
                           "table.",
        "your_turn.subject": "Your turn in {title}",
        "your_turn.body": "It is your turn in {title}.",
        "your_turn.deadline": "Decide before {deadline}.",
        "reminder.subject": "Reminder: your time in {title} runs out soon",
        "reminder.body": "{title} is still waiting for your decision.",
        "resigned.subject": "{by} resigned in {title}",
        "resigned.body": "{by} resigned in {title}. When two players are left, the game is over "
                         "and you win; with more, a bot plays their seat to the end.",
        "aborted.subject": "{title} was aborted",
        "aborted.body": "{by} aborted {title} before its play began. Nobody won; it is not "
                        "rated.",
        "matched.subject": "Quick match: {title} with {by}",
        "matched.body": "Your seek was paired: a game of {title} with {by} has started.",
        "game_over.subject": "{title} is over",
        "game_over.body": "The game {title} has ended. See the final scores at the table.",
        "open_game": "Open the game",
        "verify.subject": "Confirm your email address for Menagerie",
        "verify.body": "Open this link to receive Menagerie notices at this address. "
                       "If you did not ask for it, ignore this mail.",
        "verify.button": "Confirm the address",
        "digest.subject": "{n} games are waiting for you",
        "digest.body": "These games are waiting for your decision:",
        "unsubscribe": "Stop these mails",
        "unsubscribe.ask": "Stop this kind of mail from Menagerie?",
        "unsubscribe.done": "Done: you will not get this kind of mail any more. You can turn it "
                            "on again in the Notifications section of the lobby.",
        "unsubscribe.bad": "This link is invalid.",
        "footer": "You get this mail because you chose it in your Menagerie account.",
    },
    "uk": {
        "daily_challenge.subject": "Сьогоднішній виклик уже доступний",
        "daily_challenge.body": "Щоденний виклик на сьогодні доступний: однакова роздача для "
                                "всіх, одна спроба. Не переривайте свою серію.",
        "daily_challenge.button": "До сьогоднішнього виклику",
        "chat_mention.subject": "{by} згадує вас у грі {title}",
        "chat_mention.body": "{by} згадує вас у чаті гри {title}:",
        "game_invitation.subject": "{by} запрошує вас до гри {title}",
        "game_invitation.body": "{by} запрошує вас до гри {title} і тримає для вас місце. "
                                "Прийняти чи відхилити запрошення можна в лобі.",
        "invitation_declined.subject": "{by} відхиляє ваше запрошення до гри {title}",
        "invitation_declined.body": "{by} відхиляє ваше запрошення до гри {title}. Місце знову "
                                    "вільне: запросіть когось іншого в лобі.",
        "invitation.subject": "{by} пропонує реванш у грі {title}",
        "invitation.body": "{by} пропонує реванш у грі {title}. Прийняти чи відхилити його "
                           "можна за столом.",
        "your_turn.subject": "Ваш хід у грі {title}",
        "your_turn.body": "Зараз ваш хід у грі {title}.",
        "your_turn.deadline": "Вирішіть до {deadline}.",
        "reminder.subject": "Нагадування: ваш час у грі {title} скоро спливе",
        "reminder.body": "Гра {title} досі чекає на ваше рішення.",
        "resigned.subject": "{by} здається у грі {title}",
        "resigned.body": "{by} здається у грі {title}. Якщо гравців було двоє, гру завершено і "
                         "ви перемагаєте; якщо більше, їхнє місце до кінця грає бот.",
        "aborted.subject": "Гру {title} перервано",
        "aborted.body": "{by} перериває гру {title} до початку гри. Ніхто не переміг; гра не "
                        "впливає на рейтинг.",
        "matched.subject": "Швидка гра: {title} з {by}",
        "matched.body": "Для вашого пошуку знайдено суперника: гра {title} з {by} почалася.",
        "game_over.subject": "Гру {title} завершено",
        "game_over.body": "Гра {title} закінчилася. Підсумкові очки — за столом.",
        "open_game": "Відкрити гру",
        "verify.subject": "Підтвердьте адресу пошти для Menagerie",
        "verify.body": "Відкрийте це посилання, щоб отримувати сповіщення Menagerie на цю "
                       "адресу. Якщо ви цього не просили, просто пропустіть цей лист.",
        "verify.button": "Підтвердити адресу",
        "digest.subject": "На вас чекають ігор: {n}",
        "digest.body": "Ці ігри чекають на ваше рішення:",
        "unsubscribe": "Більше не надсилати такі листи",
        "unsubscribe.ask": "Більше не надсилати такі листи від Menagerie?",
        "unsubscribe.done": "Готово: такі листи більше не надходитимуть. Увімкнути їх знову "
                            "можна в розділі «Сповіщення» в лобі.",
        "unsubscribe.bad": "Це посилання недійсне.",
        "footer": "Ви отримали цей лист, бо обрали це у своєму обліковому записі Menagerie.",
    },
    "de": {
        "daily_challenge.subject": "Die heutige Herausforderung ist da",
        "daily_challenge.body": "Die tägliche Herausforderung für heute ist da: dieselbe "
                                "Auslage für alle, ein Versuch. Halte deine Serie am Leben.",
        "daily_challenge.button": "Zur heutigen Herausforderung",
        "chat_mention.subject": "{by} hat dich in {title} erwähnt",
        "chat_mention.body": "{by} hat dich im Chat von {title} erwähnt:",
        "game_invitation.subject": "{by} lädt dich zu einer Partie {title} ein",
        "game_invitation.body": "{by} lädt dich zu einer Partie {title} ein und hält dir einen "
                                "Platz frei. In der Lobby kannst du annehmen oder ablehnen.",
        "invitation_declined.subject": "{by} hat deine Einladung zu {title} abgelehnt",
        "invitation_declined.body": "{by} hat deine Einladung zu {title} abgelehnt. Der Platz "
                                    "ist wieder frei: lade in der Lobby jemand anderen ein.",
        "invitation.subject": "{by} bietet eine Revanche für {title} an",
        "invitation.body": "{by} bietet eine Revanche für {title} an. Am Tisch kannst du sie "
                           "annehmen oder ablehnen.",
        "your_turn.subject": "Du bist am Zug: {title}",
        "your_turn.body": "In {title} bist du jetzt am Zug.",
        "your_turn.deadline": "Entscheide dich vor {deadline}.",
        "reminder.subject": "Erinnerung: deine Zeit in {title} läuft bald ab",
        "reminder.body": "{title} wartet noch auf deine Entscheidung.",
        "resigned.subject": "{by} hat in {title} aufgegeben",
        "resigned.body": "{by} hat in {title} aufgegeben. Zu zweit ist die Partie damit vorbei "
                         "und du gewinnst; mit mehr Leuten spielt ein Bot den Platz zu Ende.",
        "aborted.subject": "{title} wurde abgebrochen",
        "aborted.body": "{by} hat {title} vor Spielbeginn abgebrochen. Niemand hat gewonnen; "
                        "die Partie wird nicht gewertet.",
        "matched.subject": "Schnellpartie: {title} mit {by}",
        "matched.body": "Deine Suche wurde gepaart: eine Partie {title} mit {by} hat begonnen.",
        "game_over.subject": "{title} ist zu Ende",
        "game_over.body": "Die Partie {title} ist beendet. Die Endwertung steht am Tisch.",
        "open_game": "Zur Partie",
        "verify.subject": "Bestätige deine E-Mail-Adresse für Menagerie",
        "verify.body": "Öffne diesen Link, um Menagerie-Benachrichtigungen an diese Adresse "
                       "zu bekommen. Wenn du das nicht angefordert hast, ignoriere diese Mail.",
        "verify.button": "Adresse bestätigen",
        "digest.subject": "{n} Partien warten auf dich",
        "digest.body": "Diese Partien warten auf deine Entscheidung:",
        "unsubscribe": "Diese Mails abbestellen",
        "unsubscribe.ask": "Diese Art von Mails von Menagerie abbestellen?",
        "unsubscribe.done": "Erledigt: du bekommst diese Art von Mails nicht mehr. In der Lobby "
                            "unter „Benachrichtigungen“ kannst du sie wieder einschalten.",
        "unsubscribe.bad": "Dieser Link ist ungültig.",
        "footer": "Du bekommst diese Mail, weil du sie in deinem Menagerie-Konto gewählt hast.",
    },
}


def text(lang: str, key: str, **params) -> str:
    table = TEXTS.get(lang) or TEXTS["en"]
    return (table.get(key) or TEXTS["en"][key]).format(**params)

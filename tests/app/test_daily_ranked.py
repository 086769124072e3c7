"""Issue #31, finding 3: three throwaway accounts played the daily challenge at random and the
main account replayed the best line: every one of its views matched, and it ranked above all
three. Now only accounts past the threshold (docs/daily.md, "Who is ranked") play the day's
deal and are ranked; a throwaway plays the day's practice deal (another seed), listed as
unranked, so it learns nothing about the ranked deal. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from app import times
from app.daily.calendar import day_of, seed_of
from app.models import DailyAttempt, Game, User
from app.models_delivery import NotificationPrefs

from .conftest import make_settings, play_to_end, running_app
from .test_daily import TOY


def _settings(db_url, **extra):
    values = dict(scheduler=False, daily_ranked_min_account_days=7, daily_ranked_min_games=2,
                  daily_ranked_need_email=True)
    values.update(extra)
    return make_settings(db_url, **values)


async def _age(api, player, days: float) -> None:
    async with api.services.db.write() as s:
        await s.execute(update(User).where(User.id == player.id).values(
            created_at=times.utcnow() - timedelta(days=days)))
        await s.commit()


async def _finished_games(api, player, n: int) -> None:
    for _ in range(n):
        gid = await api.toy_game(player, bots=[1], options={"rounds": 2})
        await play_to_end(api, gid, [player])


async def _play_daily(api, player) -> dict:
    r = await player.post(f"/api/daily/{TOY.name}/start")
    assert r.status_code == 201, r.text
    gid = r.json()["game"]["id"]
    await play_to_end(api, gid, [player])
    await api.services.signals.drain()
    return r.json()


async def _seed(api, gid: int) -> str:
    async with api.services.db.read() as s:
        return await s.scalar(select(Game.seed).where(Game.id == gid))


async def test_throwaways_play_the_practice_deal_and_are_not_ranked(db_url):
    async with running_app(_settings(db_url)) as api:
        api.services.daily.kinds = (TOY,)
        daily = api.services.daily
        day = day_of(times.utcnow())
        secret = await daily.secret()
        ranked_seed = seed_of(secret, TOY.name, day)

        main = await api.user("mainacct")
        await _age(api, main, 8)
        await _finished_games(api, main, 1)
        assert await daily.eligible(main.id) is False   # one finished game of two
        await _finished_games(api, main, 1)
        assert await daily.eligible(main.id) is True    # no mail on this server: no address

        # the attack: three throwaways play first
        throwaways = [await api.user(f"throwaway{i}") for i in range(3)]
        for t in throwaways:
            assert (await t.get("/api/daily")).json()["ranked"] is False
            started = await _play_daily(api, t)
            # the practice deal: nothing learnt about the ranked one
            assert await _seed(api, started["game"]["id"]) != ranked_seed
        seeds = {await _seed(api, g) for g in [
            a.game_id for a in (await _attempts(api)) if not a.ranked]}
        assert len(seeds) == 1  # one practice deal for the day, shared by the unranked

        assert (await main.get("/api/daily")).json()["ranked"] is True
        started = await _play_daily(api, main)
        assert await _seed(api, started["game"]["id"]) == ranked_seed

        board = (await main.get(f"/api/daily/{day.isoformat()}/{TOY.name}/leaderboard")).json()
        assert [(e["user"]["username"], e["rank"]) for e in board["entries"]] == [
            ("mainacct", 1)]
        assert board["total"] == 1 and board["players"] == 4
        assert sorted(e["user"]["username"] for e in board["unranked"]) == [
            "throwaway0", "throwaway1", "throwaway2"]
        assert all(e["rank"] is None and e["ranked"] is False for e in board["unranked"])
        assert all(e["game_id"] is None for e in board["unranked"])  # sealed while the day runs
        you = (await throwaways[0].get(
            f"/api/daily/{day.isoformat()}/{TOY.name}/leaderboard")).json()["you"]
        assert you["ranked"] is False and you["rank"] is None and you["in_time"] is True
        assert you["status"] == "finished"  # still played to its end, with its own result
        mine = (await main.get("/api/daily")).json()["kinds"][0]["attempt"]
        assert mine["ranked"] is True and mine["rank"] == 1


async def test_the_threshold_needs_age_games_and_a_verified_address_when_mail_is_on(db_url):
    async with running_app(_settings(db_url, smtp_host="127.0.0.1")) as api:
        daily = api.services.daily
        ada = await api.user("ada")
        await _finished_games(api, ada, 2)
        assert await daily.eligible(ada.id) is False    # a new account
        await _age(api, ada, 6.9)
        assert await daily.eligible(ada.id) is False    # not a week old
        await _age(api, ada, 7.1)
        assert await daily.eligible(ada.id) is False    # mail is on: no verified address
        async with api.services.db.write() as s:
            s.add(NotificationPrefs(user_id=ada.id, prefs={}, lang="en", tz="UTC",
                                    email="ada@example.org", email_verified_at=times.utcnow(),
                                    updated_at=times.utcnow()))
            await s.commit()
        assert await daily.eligible(ada.id) is True


async def _attempts(api) -> list:
    async with api.services.db.read() as s:
        return list((await s.execute(select(DailyAttempt).order_by(DailyAttempt.id)))
                    .scalars().all())

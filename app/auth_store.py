"""Storage of the accounts (app/auth.py says how logins work): the SQL of the ``users`` and
``tokens`` tables that registering, logging in and out, and the token check make, as
functions of the caller's session. The other stores never name the table: they lock a user's
row through :func:`lock_user` (``creator_load`` in the game store, the analyses', webhooks' and
vacations' per-user limits), read users through the functions below in their own session, and
put a player's name in their own statement's rows through :func:`username_of` (a column this
module defines, so a list with names stays one statement; tests/test_architecture.py)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select

from .db import flush_unique
from .models import Token, User


async def name_taken(s: Any, key: str) -> bool:
    """Whether a user has the username key (the lower-case name)."""
    return await s.scalar(select(User.id).where(User.username_key == key)) is not None


async def lookalike_taken(s: Any, skeletons: Iterable[str]) -> bool:
    """Whether a user's name has one of these confusable skeletons."""
    return bool(await s.scalar(select(User.id).where(
        User.username_skeleton.in_(list(skeletons))).limit(1)))


async def add_user(s: Any, username: str, key: str, skeleton: str,
                   password_hash: str) -> User:
    """A new account (flushed: its id is known); :class:`~app.db.Duplicate` when the name was
    taken meanwhile."""
    user = User(username=username, username_key=key, username_skeleton=skeleton,
                password_hash=password_hash)
    s.add(user)
    await flush_unique(s)
    return user


def username_of(user_id: Any) -> Any:
    """The username of the user of id ``user_id`` (a column of the caller's query, or a
    value) as a column of the caller's select: a correlated subquery on the users' primary
    key, NULL when ``user_id`` is NULL (an outer join's answer; a player's rows go with the
    account, ``ON DELETE CASCADE``, so an inner join's too)."""
    return select(User.username).where(User.id == user_id).scalar_subquery()


def username_key_of(user_id: Any) -> Any:
    """The username key (lower-case name) of the user of id ``user_id``, as a column of the
    caller's select (to order by name)."""
    return select(User.username_key).where(User.id == user_id).scalar_subquery()


def id_named(key: str) -> Any:
    """The id of the user whose username key is ``key``, as a value of the caller's query
    (NULL: nobody has that name, which matches no row)."""
    return select(User.id).where(User.username_key == key).scalar_subquery()


async def usernames(s: Any, user_ids: Iterable[int]) -> dict[int, str]:
    """``{id: username}`` of these users (one query; none for no ids)."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    return {i: n for i, n in (await s.execute(
        select(User.id, User.username).where(User.id.in_(ids)))).all()}


async def users_by_key(s: Any, keys: Iterable[str]) -> list[Any]:
    """``id, username, username_key`` of the users with these username keys, in id order."""
    return list((await s.execute(
        select(User.id, User.username, User.username_key)
        .where(User.username_key.in_(list(keys))).order_by(User.id))).all())


async def named(s: Any, key: str) -> Any:
    """``id, username, created_at`` of the user whose username key is ``key`` (None: no
    such user)."""
    return (await s.execute(select(User.id, User.username, User.created_at).where(
        User.username_key == key))).first()


async def created_at(s: Any, user_id: int) -> datetime | None:
    """When the account was made (None: no such user)."""
    made: datetime | None = await s.scalar(select(User.created_at).where(User.id == user_id))
    return made


async def user_by_key(s: Any, key: str) -> User | None:
    found: User | None = (await s.execute(select(User).where(User.username_key == key))
                          ).scalar_one_or_none()
    return found


async def password_hash(s: Any, user_id: int) -> str | None:
    found: str | None = await s.scalar(select(User.password_hash).where(User.id == user_id))
    return found


async def set_password(s: Any, user_id: int, hashed: str) -> bool:
    """The user's new password hash (False: no such user)."""
    user = await s.get(User, user_id)
    if user is None:
        return False
    user.password_hash = hashed
    return True


def add_token(s: Any, user_id: int, digest: str, now: datetime, expires: datetime) -> None:
    """A login token (its digest) of the user, valid until ``expires``."""
    s.add(Token(user_id=user_id, token_hash=digest, created_at=now, expires_at=expires))


async def drop_expired(s: Any, user_id: int, now: datetime) -> None:
    """The user's tokens expired at ``now`` go."""
    await s.execute(delete(Token).where(Token.user_id == user_id, Token.expires_at < now))


async def drop_token(s: Any, digest: str) -> int:
    """The token of that digest goes; how many went (0 or 1)."""
    result = await s.execute(delete(Token).where(Token.token_hash == digest))
    return int(result.rowcount or 0)


async def drop_tokens_of(s: Any, user_id: int, keep: str | None = None) -> int:
    """Every token of the user goes but the one of digest ``keep``; how many went."""
    query = delete(Token).where(Token.user_id == user_id)
    if keep:
        query = query.where(Token.token_hash != keep)
    result = await s.execute(query)
    return int(result.rowcount or 0)


async def token_expiries(s: Any, digests: list[str]) -> list[Any]:
    """``token_hash, expires_at`` of the tokens among these digests."""
    return list((await s.execute(select(Token.token_hash, Token.expires_at).where(
        Token.token_hash.in_(digests)))).all())


async def token_user(s: Any, digest: str) -> Any:
    """``id, username, expires_at`` of the token's user (None: no such token)."""
    return (await s.execute(
        select(User.id, User.username, Token.expires_at)
        .join(Token, Token.user_id == User.id)
        .where(Token.token_hash == digest))).first()


async def lock_user(s: Any, user_id: int) -> None:
    """Lock the user's row in ``s``'s transaction (``FOR UPDATE`` on PostgreSQL; SQLite has one
    writer at a time): two writes checked against one per-user limit (games, analyses,
    webhooks, vacations) queue instead of both passing."""
    await s.execute(select(User.id).where(User.id == user_id).with_for_update())

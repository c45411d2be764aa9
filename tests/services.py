"""The services the bot builds beside its game service, built over a test's game service."""

from __future__ import annotations

from bot.service import GameService, PersonalData, Seasons, ServerSettings


def privacy_of(service: GameService, retention_days: int = 30) -> PersonalData:
    """A person's and a server's data, over ``service``'s storage and games."""
    return PersonalData(service.db, service, retention_days=retention_days)


def servers_of(service: GameService) -> ServerSettings:
    """The servers' settings, over ``service``'s storage and clock."""
    return ServerSettings(service.db, service.clock)


def seasons_of(service: GameService) -> Seasons:
    """The servers' seasons, over ``service``'s storage, clock and shards."""
    return Seasons(service.db, service.clock, owns=service.plan.owns)

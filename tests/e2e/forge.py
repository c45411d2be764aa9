"""Interactions a well-behaved client never sends, sent anyway: what an abusive user (or a
broken client) can put on the wire. SimCord's public API checks every option against the
command's schema; these helpers build the raw INTERACTION_CREATE payload themselves, with
SimCord's own record of the interaction, so the answer (or its absence) is observed as usual.
"""

from __future__ import annotations

from typing import Any

from simcord import actors as sa
from simcord import interactions as si
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult


async def _emit(env: Any, member: Any, channel: Any, type_: int, data: dict[str, Any],
                message: Any = None) -> InteractionResult:
    record = _post(env, member, channel, type_, data, message)
    await env._settle_internal(dispatch="INTERACTION_CREATE")
    return InteractionResult(env, record)


def _post(env: Any, member: Any, channel: Any, type_: int, data: dict[str, Any],
          message: Any = None) -> Any:
    backend = env.backend
    record, payload = si.base_payload(backend, type=type_, channel_id=channel.id,
                                      guild_id=member.guild.id, user_id=member.id, data=data)
    if message is not None:
        stored = sa._visible_message(member, message)
        payload["message"] = dict(sa.serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
    env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)
    return record


async def forged_command(env: Any, member: Any, channel: Any, name: str,
                         options: list[dict[str, Any]], sub: str | None = None
                         ) -> InteractionResult:
    """``/name [sub] options`` with ``options`` as raw option dicts (any type, any value)."""
    command = env.backend.find_command(name, member.guild.id)
    assert command is not None, name
    if sub is not None:
        options = [{"name": sub, "type": 1, "options": options}]
    data = {"id": str(command["id"]), "name": name, "type": 1, "options": options}
    return await _emit(env, member, channel, int(InteractionType.APPLICATION_COMMAND), data)


async def commands_together(env: Any, member: Any, channels: list[Any], name: str,
                            sub: str) -> list[InteractionResult]:
    """``/name sub`` (no options) in every channel, all reaching the bot at the same moment."""
    command = env.backend.find_command(name, member.guild.id)
    assert command is not None, name
    data = {"id": str(command["id"]), "name": name, "type": 1,
            "options": [{"name": sub, "type": 1, "options": []}]}
    records = [_post(env, member, channel, int(InteractionType.APPLICATION_COMMAND), data)
               for channel in channels]
    await env._settle_internal(dispatch="INTERACTION_CREATE")
    return [InteractionResult(env, r) for r in records]


async def forged_component(env: Any, member: Any, message: Any, custom_id: str,
                           component_type: int, values: list[str] | None = None
                           ) -> InteractionResult:
    """A click on ``message`` carrying any custom_id, as any component type."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = values
    channel = type("C", (), {"id": message.channel.id})()
    return await _emit(env, member, channel, int(InteractionType.MESSAGE_COMPONENT), data,
                       message)


async def forged_modal(env: Any, member: Any, channel: Any, custom_id: str
                       ) -> InteractionResult:
    """A modal submit the bot never asked for."""
    data = {"custom_id": custom_id, "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "x", "value": "y"}]}]}
    return await _emit(env, member, channel, int(InteractionType.MODAL_SUBMIT), data)


SELECT = int(ComponentType.STRING_SELECT)
BUTTON = int(ComponentType.BUTTON)

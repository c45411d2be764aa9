"""The INTERACTION_CREATE payloads the benchmarks emit: a click or selection on a message, a
slash command, built as SimCord's own actors build them (:class:`tools.benchbot.simworld.World`
emits them without SimCord's settle polling).
"""

from __future__ import annotations

from typing import Any

from tools.benchbot.tables import Move


def click_payload(env: Any, move: Move) -> tuple[Any, dict[str, Any]]:
    """The INTERACTION_CREATE of ``move``'s click or selection, as SimCord's actors build it
    (its record and payload), to be emitted without SimCord's settle.
    """
    from simcord import actors as sa
    from simcord import interactions as si
    from simcord.backend import serializers
    from simcord.enums import SELECT_TYPES, ComponentType, InteractionType

    backend = env.backend
    stored = sa._visible_message(move.actor, move.message)
    types = (ComponentType.BUTTON,) if move.values is None else SELECT_TYPES
    comp = sa._find_component(stored.components, types=tuple(types),
                              custom_id=move.custom_id, label=None)
    data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
    if move.values is not None:
        data["values"] = list(move.values)
    record, payload = si.base_payload(
        backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=stored.channel_id,
        guild_id=move.actor.guild.id, user_id=move.actor.id, data=data)
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    return record, payload


def slash_payload(env: Any, actor: Any, channel: Any, name: str, options: dict[str, Any]
                  ) -> tuple[Any, dict[str, Any]]:
    """The INTERACTION_CREATE of ``/name options`` as SimCord's ``slash`` builds it."""
    from simcord import actors as sa
    from simcord import interactions as si
    from simcord.enums import AppCommandType, InteractionType

    parts = name.split()
    root = sa._resolve_visible_command(actor, channel.id, parts[0],
                                       AppCommandType.CHAT_INPUT)
    leaf, nesting = si.walk_to_subcommand(root, parts[1:])
    leaf_options, resolved = si.build_options(actor, name, leaf, options,
                                              channel_id=channel.id)
    data: dict[str, Any] = {"id": root["id"], "name": root["name"],
                            "type": root.get("type", AppCommandType.CHAT_INPUT),
                            "options": si.nest_options(root, nesting, leaf_options)}
    if resolved:
        data["resolved"] = resolved
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    return si.base_payload(env.backend, type=InteractionType.APPLICATION_COMMAND,
                           channel_id=channel.id, guild_id=actor.guild.id,
                           user_id=actor.id, data=data)

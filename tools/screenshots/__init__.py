"""Screenshots of the bot's messages through SimCord's preview (a developer tool)."""

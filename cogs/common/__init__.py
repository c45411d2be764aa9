"""What every game cog shares: dynamic components, answering interactions, permissions."""

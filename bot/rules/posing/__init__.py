"""Posing Pandas, the side game of five pose dice and an eleven-box score card, as a pure engine."""

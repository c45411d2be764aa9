"""The pure rules engines: Panda Royale with the Mayhem options, Posing Pandas, computer
players, the game log and its validator. No Discord, no I/O, no clock.
"""

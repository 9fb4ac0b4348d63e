"""Players: ratings on the levels' scale (Glicko-2, :mod:`.glicko2` and :mod:`.ratings`),
the local profile that remembers a player's games (:mod:`.profile`), and the habits the
coach finds over a player's games (:mod:`.habits`). docs/players.md tells the whole
story. Nothing here needs the web extra."""

"""The kinds of values the checker gives every expression (its types), by name.

Shared by the checker, which works them out, and the runtime, which reads the kinds of a rule's
local slots (to know which hold cards); here so that neither imports the other.
"""
NUMBER, FLAG, CARD, PLAYER, SUIT, ZONE, PLAYERS, SYMBOL, NONE, ANY = (
    "number", "yes/no", "card", "player", "suit", "zone", "players", "symbol", "none", "any")
TEXT, CARDS, RANK = "text", "cards", "rank"   # CARDS only in `say`; RANK only how `say` shows it

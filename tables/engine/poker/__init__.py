"""Poker hand evaluation: the 52 card codes and the best five of 5 to 7 cards."""

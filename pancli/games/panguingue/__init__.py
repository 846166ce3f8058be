"""Panguingue: cards, melds, conditions, house rules, rulings, rearranging, the solver, turns and the hand engine."""

"""Mendelev's five-deal contract rummy."""

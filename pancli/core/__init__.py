"""Pure code every game and layer shares: errors, payments and tallies, settle-up, the knob schema."""

"""Help texts that several commands give their options."""

PRESET_HELP = "House rules preset: hoyle, cardroom-ca, online-pan, japanese-wp (default hoyle)."
RULES_HELP = "House rules file (TOML), as written by `pan rules init`."

"""other_games"""

"""after_game"""

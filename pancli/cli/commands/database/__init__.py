"""database"""

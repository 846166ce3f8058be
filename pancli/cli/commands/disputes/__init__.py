"""disputes"""

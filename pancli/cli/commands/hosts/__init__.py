"""hosts"""

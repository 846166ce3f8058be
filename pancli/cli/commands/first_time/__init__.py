"""first_time"""

"""Battles, the carried items at their end, and the post-battle sequence."""

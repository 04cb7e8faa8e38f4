"""Headroom's design document and performance-model engine (numpy only, never Qt)."""

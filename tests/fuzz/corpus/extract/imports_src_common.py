"""Shared text helpers (the older copy kept for the packaging scripts)."""


def slugify(text):
    return "-".join(text.lower().split())

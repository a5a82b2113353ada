import sqlite3


def open_store():
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE places (name TEXT PRIMARY KEY, lat REAL, lon REAL)")
    return connection

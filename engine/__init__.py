"""sukno's engine: rules, tables, the club, records and storage.

Plain Python and sqlite3 only: nothing here imports asyncio, textual or asyncssh
(a test checks it), so rules can be tested, replayed and benchmarked alone.
"""

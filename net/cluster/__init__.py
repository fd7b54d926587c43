"""Several ``sukno serve`` nodes on one PostgreSQL club: notices, leases, replicas, the bus.

``notices`` is the reusable LISTEN/NOTIFY plumbing; ``node`` is what ``sukno serve --node`` runs.
"""

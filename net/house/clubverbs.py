"""The admin's verbs on the club's tables and its ledger: tables, open, close, seat, watch, grant.

What is pure club logic is ``engine.table.admin_ops``; here it meets the server: a table another
node owns is closed by that node (``House.ask``), and a seat change there is its owner's answer.
"""

from __future__ import annotations

from typing import Any

from engine.game import IllegalAction
from engine.table import admin_ops
from engine.table.admin_ops import AdminError
from net.cluster.answers import settled
from net.house.verbs import House, Reply, flag, need

VERBS = ("tables", "open", "close", "seat", "watch", "grant")


async def tables(house: House, args: list[str], who: str) -> Reply:
    need(args, 0, "tables", 0)
    rows = admin_ops.tables_rows(house.club)
    return Reply(True, admin_ops.tables_text(rows), {"tables": rows, "shutting_down": house.shutting_down})


async def open(house: House, args: list[str], who: str) -> Reply:
    need(args, 1, "open GAME [name=value …] [seats=N]")
    if house.shutting_down:
        raise AdminError("the club is shutting down; no new tables")
    table = admin_ops.open_table(house.club, args[0], args[1:])
    options = " ".join(f"{k}={v}" for k, v in table.options.items())
    return Reply(True, f"opened table {table.id}: {table.game_name}, {len(table.seats)} seats ({options})",
                 {"table": table.id, "game": table.game_name, "options": dict(table.options),
                  "seats": len(table.seats)})


async def close(house: House, args: list[str], who: str) -> Reply:
    words = list(args)
    args, after = flag(args, "--after-deal")
    need(args, 1, "close TABLE [--after-deal]", 1)
    table = admin_ops.table_of(house.club, args[0])
    node = getattr(house.server, "node", None)
    if node is not None and table.id in node.replicas:  # another node owns it: it closes it
        lease = house.server.store.lease(table.id)
        if lease is None or lease[2] <= 0:
            raise AdminError(f"table {table.id} has no owner just now (a node is taking it over); try again")
        return await house.ask(lease[0], ["close", *words], who)
    if admin_ops.close_table(house.club, table, bool(after)):
        return Reply(True, f"closed table {table.id}", {"table": table.id, "closed": True})
    return Reply(True, f"table {table.id} closes when its deal ends; no new deal starts there",
                 {"table": table.id, "closed": False})


async def seat(house: House, args: list[str], who: str) -> Reply:
    need(args, 3, "seat TABLE SEAT bot|NAME", 3)
    table = admin_ops.table_of(house.club, args[0])
    if args[2].lower() == "bot":
        seat, name = admin_ops.seat_bot(house.club, table, args[1])
        name = await _answer(name)  # at a table another node owns: its answer
        return Reply(True, f"{name} sits at table {table.id}, seat {seat + 1}",
                     {"table": table.id, "seat": seat + 1, "name": name, "bot": True})
    name = house.account_name(args[2])
    seat = await _answer(admin_ops.seat_player(house.club, table, args[1], name))
    return Reply(True, f"{name} sits at table {table.id}, seat {seat + 1}",
                 {"table": table.id, "seat": seat + 1, "name": name})


async def watch(house: House, args: list[str], who: str) -> Reply:
    need(args, 1, "watch TABLE", 1)
    table = admin_ops.table_of(house.club, args[0])
    shown, data = admin_ops.admin_view(table)
    return Reply(True, shown, data)


async def grant(house: House, args: list[str], who: str) -> Reply:
    need(args, 2, "grant NAME AMOUNT", 2)
    try:
        amount = int(args[1])
    except ValueError:
        raise AdminError(f"{args[1]!r} is not an amount: a whole number of kopecks, e.g. 5000") from None
    if amount == 0:
        raise AdminError("a grant of zero changes nothing")
    store = getattr(house.server, "store", None)
    if store is None:
        raise AdminError("this server keeps no ledger yet (the store is not wired in); nothing was granted")
    from engine.store.base import GRANTS

    account = store.account(args[0])
    if account is None:
        raise AdminError(f"there is no account named {args[0]!r}")
    name = getattr(account, "name", args[0])
    store.post([(name, amount), (GRANTS, -amount)], reason=f"admin grant by {who}")
    return Reply(True, f"granted {amount} kopecks to {name}; balance {store.balance(name)}",
                 {"name": name, "amount": amount, "balance": store.balance(name)})


async def _answer(result: Any) -> Any:
    """A seat change's result, once the table's owner answered it; its refusal in the admin's words."""
    try:
        return await settled(result)
    except IllegalAction as err:
        raise AdminError(err.message if hasattr(err, "message") else str(err)) from None

"""English texts (the fallback catalogue)."""

MESSAGES: dict[str, str] = {
    "club.name": "The Green Baize",
    "money.rub": "r.",
    "word.yes": "yes",
    "word.no": "no",
    "money.kop": "k.",
    "lang.set": "You now speak English here.",
    "lang.bad": "Unknown language {value!r}: type lang ru or lang en.",
    # welcome
    "welcome.title": "Welcome to the Green Baize, a club of old Russian card games.",
    "welcome.ask": "The doorman opens the book of names. What shall he write? (2–16 letters, digits, _ or -)",
    "welcome.bad_name": "{name!r} will not do: use 2–16 letters (Latin or Cyrillic), digits, _ or -.",
    "welcome.taken": "The name {name!r} is taken; choose another.",
    "welcome.placeholder": "your name",
    # header / hall
    "header.hall": "{name} · {money} · {online} online",
    "header.guest": "{name} (guest) · {online} online",
    "hall.describe": (
        "The hall of the club. Lamps hang low over {count} tables of green baize; "
        "at the far end the doorman keeps the book of names."
    ),
    "hall.alone": "Nobody else is in the hall.",
    "hall.people": "Here: {names}.",
    "hall.table_empty": "Table {id} ({game}) stands empty.",
    "hall.table_some": "At table {id} ({game}) sit {names}; {free} seat(s) free.",
    "hall.table_full": "At table {id} ({game}) sit {names}; the table is full.",
    "hall.table_playing": "At table {id} ({game}) {names} are playing deal {deal}.",
    "hall.you_sit": "You have a seat at table {id}: type sit {id} to go back to it.",
    "hall.guest_note": "You are a guest: you may watch and talk, but not sit down to play.",
    "hall.hint": "look · tables · who · sit N · watch N · say … · help · quit",
    "tables.head": "  #  game                        stakes     seats           watching",
    "tables.none": "The club has no tables open.",
    "stakes.per_point": "{money}/pt",
    "tables.full": "full",
    "who.list": "Online ({count}): {names}.",
    "who.seat": "{name} (table {id})",
    "who.guest": "{name} (guest)",
    # events of the hall
    "hall.enter": "{name} comes into the club.",
    "hall.leave": "{name} leaves the club.",
    "hall.say": "{name} says: {text}",
    "hall.table_open": "A new table {table} is set up for {game}.",
    # commands
    "cmd.unknown": "I do not know {word!r}. Did you mean {suggest}? Type help for the commands.",
    "cmd.unknown_plain": "I do not know {word!r}. Type help for the commands.",
    "cmd.need_table": "Which table? Type {verb} N, e.g. {verb} 1.",
    "cmd.bad_number": "{value!r} is not a table number.",
    "cmd.bad_seat": "{value!r} is not a seat number.",
    "cmd.say_what": "Say what? Type say and your words.",
    "cmd.not_at_table": "You are not at a table; that works at a table.",
    "cmd.guest_sit": "Guests may watch and talk but not sit down to play.",
    "cmd.sat": "You sit down at table {id}, seat {seat}.",
    "cmd.stood": "You stand up from table {id}.",
    "cmd.left_table": "You walk back into the hall.",
    "cmd.already_hall": "You are already in the hall.",
    "cmd.watching": "You watch table {id}. Type leave to go back to the hall.",
    "cmd.spectator_no_act": "You are only watching; sit down to play.",
    "cmd.no_rules": "No rules for {game!r}; the club plays: {games}.",
    "cmd.no_help": "No help on {topic!r}; topics: {topics}.",
    "cmd.complete": "Possible: {options}",
    "cmd.select_card": "Card {n}: {card}. Enter to do it, or edit the line.",
    "cmd.no_card": "You have no card {n}.",
    "cmd.ready": "You are ready. The deal starts when everyone is.",
    # table texts
    "table.header": "Table {id} · {game}{variant} · {pot_label} {pot}{trump} · deal {deal}",
    "felt.score": "score",
    "table.pot": "pot",
    "felt.trump": "trump",
    "table.kitty": "kitty",
    "table.trump": " · trump {suit}",
    "table.you": "you",
    "table.dealer": "dealer",
    "table.empty_seat": "(empty seat)",
    "table.tricks": "{n} trick(s)",
    "table.watching": "You are watching table {id}: every hidden card shows as a back.",
    "table.hint_act": "You may: {actions}",
    "table.hint_wait": "Waiting for {names}.",
    "table.hint_ready": "Type start when you are ready ({ready} of {total} ready).",
    "table.hint_need": "Waiting for {count} more player(s) to sit down.",
    "table.hint_over": "The session is over. Type start for a new one, or stand.",
    "table.hint_spectator": "You are watching. say … to talk, leave to go back to the hall.",
    "table.hand_keys": "1–9 or click a card, Enter confirms",
    "table.no_hand": "",
    "table.balance": "{name}: {money}",
    # status words on the felt
    "table.look_seats": "Table {id}, {game}. Seats: {seats}.",
    "table.look_felt": "On the felt: {cards}.",
    "table.look_pot": "The pot holds {pot}.",
    "table.look_trump": "Trumps are {suit}.",
    "table.look_watchers": "Watching: {names}.",
    "status.to play": "to play",
    "status.holder": "holds the best card",
    "status.played": "played",
    "status.led": "led",
    "status.knock": "knocked",
    "status.pass": "passed",
    "status.golets": "golets",
    "status.dark": "dark",
    "status.forced": "forced to play",
    "status.remiz": "remiz",
    "status.compelled": "compelled",
    "status.shlejf": "shlejf",
    "status.knocked": "knocked",
    "status.ready": "ready",
    # table errors (engine/table.py keys)
    "table.already_seated": "You already sit at table {table}.",
    "table.session_running": "A game is in progress at this table; wait for its end.",
    "table.full": "Table {table} is full.",
    "table.no_seat": "There is no seat {seat} here.",
    "table.seat_taken": "Seat {seat} is taken.",
    "table.not_seated": "You do not sit at this table.",
    "table.in_deal": "You cannot stand up in the middle of a deal.",
    "table.in_deal_start": "A deal is being played now.",
    "table.need_players": "Waiting for {count} more player(s).",
    "table.no_deal": "No deal is being played; type start when you are ready.",
    "club.no_table": "There is no table {table}.",
    "chat.empty": "Say what? Type say and your words.",
    "action.suggest": "{reason} You may: {actions}.",
    # narration of table events
    "ev.sit": "{name} sits down in seat {seatno}.",
    "ev.stand": "{name} stands up.",
    "ev.watch": "{name} comes to watch.",
    "ev.unwatch": "{name} stops watching.",
    "ev.say": "{name} says: {text}",
    "ev.table_ready": "{name} is ready.",
    "ev.deal_start": "Deal {deal}: {who} deals.",
    "ev.deal_over": "The deal is over. {money}",
    "ev.session_over": "The session is over. {balances}",
    "ev.ante": "{who} antes {amount}; the pot holds {pot}.",
    "ev.antes": "Everyone antes {each}; the pot holds {pot}.",
    "ev.trump_turned": "{who} turns up {card}: trumps are {suit}.",
    "ev.shlejf_trump": "{who} keeps the trump face down (shlejf).",
    "ev.redeal": "{who} turned up the ace {card}: the same dealer deals again.",
    "ev.shlejf": "{who} keeps the shlejf.",
    "ev.open": "{who} opens the trump.",
    "ev.look": "{who} looks at his cards.",
    "ev.dark": "{who} goes in the dark.",
    "ev.knock": "{who} knocks.",
    "ev.pass": "{who} passes.",
    "ev.golets": "{who} takes the golets.",
    "ev.forced_dealer": "{who} must play with them (forced dealer).",
    "ev.buying": "Buying begins.",
    "ev.buy": "{who} buys {count} card(s).",
    "ev.buy_dark": "{who} buys in the dark.",
    "ev.buy_shlejf": "{who} buys the shlejf.",
    "ev.discard": "{who} discards.",
    "ev.razrez_round": "Razrez: the passed players may buy in.",
    "ev.razrez": "{who} buys in (razrez).",
    "ev.razrez_declined": "{who} declines the razrez.",
    "ev.dealer_takes_pot": "Nobody plays: {who} takes the pot, {amount}.",
    "ev.play_starts": "Play begins; {who} leads. Each trick is worth {stake}.",
    "ev.play_begins": "Play begins; {who} leads.",
    "ev.play": "{who} plays {card}.",
    "ev.lead": "{who} leads {card}.",
    "ev.trick": "{who} takes the trick.",
    "ev.trick_paid": "{who} takes the trick and {amount}.",
    "ev.remiz": "{who} took no trick: remiz, {amount} into the pot.",
    "ev.deal_end": "The deal is settled.",
    "ev.dealt": "",
    "ev.reveal": "{who} turns up {card}.",
    "ev.bid": "{who} bids {price}.",
    "ev.sell": "{who} offers the card for sale.",
    "ev.trade": "{who} buys {card} from {seller} for {price}.",
    "ev.ready": "{who} is done trading.",
    "ev.window_open": "{who} holds the best card, {card}: trading is open.",
    "ev.window_closed": "Trading is closed.",
    "ev.speculator": "The speculator K♠ turns up: a redeal.",
    "ev.win": "{who} wins with {card} and takes {pot}.",
    "ev.take": "{who} takes card {place} from {from}.",
    "ev.draw": "{who} draws a card.",
    "ev.pays": "{who} pays {amount}.",
    "ev.receives": "{who} receives {amount}.",
    "ev.generic": "{who}{kind}{data}",
    # help
    "help.topics": "hall, table, cards, russian",
    "help.hall": (
        "In the hall: look (describe the room), tables (list them), who (who is online), "
        "sit N [seat], watch N, say … (or ' …), rules [game], lang ru|en, help [topic], quit."
    ),
    "help.table": (
        "At a table: the game's verbs (play C, knock, pass, buy …), start (alias next) when ready, "
        "look, say …, stand (leave the seat between deals), leave (back to the hall), quit. "
        "Tab completes verbs and your legal cards; Up/Down recall earlier lines."
    ),
    "help.cards": "Cards: rank then suit, e.g. Q♠, qs, 10h, th, дп (дама пик). Ranks 2–10 T J Q K A / В Д К Т; suits ♠♣♦♥ S C D H / п т к б ч.",
    "help.russian": "Russian verbs: ход/играть (play), стук (knock), пас (pass), голец (golets), купить (buy), снести (discard), сесть (sit), смотреть (watch), встать (stand), уйти (leave), сказать (say), кто (who), столы (tables), правила (rules), помощь (help), выход (quit).",
    # rules in brief
    "rules.list": "The club plays: {games}. Type rules and a game's name.",
    "rules.stukolka": (
        "Stukolka: 4–7 players, 52 cards, 3 cards each, the next card shows trumps. In turn each player knocks "
        "to play or passes; in the base game one may take the golets, a blind hand. Each trick takes a third of "
        "the pot; who played and took no trick is in remiz and pays the pot's worth into the next pot. "
        "Follow suit and beat if you can; else trump and beat if you can. The dealer antes every deal."
    ),
    "rules.kopilka": (
        "The Kitty: 4 players, 5 cards each and a stock. Long suits are exchanged before play; in tricks a player "
        "void in the led suit draws from the stock. Payments go into and out of the kitty each deal; "
        "the partiya is settled at its end."
    ),
    "rules.french3": (
        "French three-hander: 3 players and a widow. Each in turn may buy from the widow; the deal is played in "
        "tricks and scored above and below the line; money moves when a game is settled."
    ),
    "rules.ukr_pairs": (
        "Ukrainian pairs: 2 against 2, 9 cards each, partners sit opposite. Tricks score for the team; "
        "money moves when a match is won."
    ),
    "rules.speculator": (
        "Speculator: everyone antes and gets 3 face-down cards nobody sees. Cards are turned up one by one round "
        "the table as one trick, diamonds trump. The holder of the best card may sell it while the others bid; "
        "the K♠ turned up forces a redeal. The best card at the end takes the pot."
    ),
    "rules.highcard": "High card: a test game. Knock, then play; the highest card of the led suit wins.",
}

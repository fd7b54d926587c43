"""Русские тексты (ключи те же, что в en.py; тест сверяет их)."""

MESSAGES: dict[str, str] = {
    "club.name": "Зелёное сукно",
    "money.rub": "р.",
    "word.yes": "да",
    "word.no": "нет",
    "money.kop": "к.",
    "lang.set": "Теперь здесь говорят по-русски.",
    "lang.bad": "Неизвестный язык {value!r}: наберите lang ru или lang en.",
    # welcome
    "welcome.title": "Добро пожаловать в «Зелёное сукно», клуб старинных русских карточных игр.",
    "welcome.ask": "Швейцар раскрывает книгу имён. Как вас записать? (2–16 букв, цифр, _ или -)",
    "welcome.bad_name": "{name!r} не годится: 2–16 букв (латиница или кириллица), цифр, _ или -.",
    "welcome.taken": "Имя {name!r} уже занято; выберите другое.",
    "welcome.placeholder": "ваше имя",
    # header / hall
    "header.hall": "{name} · {money} · в клубе {online}",
    "header.guest": "{name} (гость) · в клубе {online}",
    "hall.describe": (
        "Зал клуба. Над {count} столами зелёного сукна низко висят лампы; "
        "в дальнем конце швейцар хранит книгу имён."
    ),
    "hall.alone": "Больше в зале никого нет.",
    "hall.people": "Здесь: {names}.",
    "hall.table_empty": "Стол {id} ({game}) пуст.",
    "hall.table_some": "За столом {id} ({game}) сидят {names}; свободно мест: {free}.",
    "hall.table_full": "За столом {id} ({game}) сидят {names}; стол полон.",
    "hall.table_playing": "За столом {id} ({game}) {names} играют сдачу {deal}.",
    "hall.you_sit": "У вас место за столом {id}: наберите сесть {id}, чтобы вернуться.",
    "hall.guest_note": "Вы гость: можно смотреть и говорить, но не садиться играть.",
    "hall.hint": "осмотреться · столы · кто · сесть N · смотреть N · сказать … · помощь · выход",
    "tables.head": "  #  игра                        ставки     места           зрители",
    "tables.none": "В клубе нет открытых столов.",
    "stakes.per_point": "{money}/очко",
    "tables.full": "полон",
    "who.list": "В клубе ({count}): {names}.",
    "who.seat": "{name} (стол {id})",
    "who.guest": "{name} (гость)",
    # events of the hall
    "hall.enter": "{name} входит в клуб.",
    "hall.leave": "{name} уходит из клуба.",
    "hall.say": "{name} говорит: {text}",
    "hall.table_open": "Накрыт новый стол {table}: {game}.",
    # commands
    "cmd.unknown": "Не знаю {word!r}. Может быть, {suggest}? Наберите помощь.",
    "cmd.unknown_plain": "Не знаю {word!r}. Наберите помощь.",
    "cmd.need_table": "Какой стол? Наберите {verb} N, например {verb} 1.",
    "cmd.bad_number": "{value!r} — не номер стола.",
    "cmd.bad_seat": "{value!r} — не номер места.",
    "cmd.say_what": "Что сказать? Наберите сказать и слова.",
    "cmd.not_at_table": "Вы не за столом; это делается за столом.",
    "cmd.guest_sit": "Гости могут смотреть и говорить, но не садиться играть.",
    "cmd.sat": "Вы садитесь за стол {id}, место {seat}.",
    "cmd.stood": "Вы встаёте из-за стола {id}.",
    "cmd.left_table": "Вы возвращаетесь в зал.",
    "cmd.already_hall": "Вы и так в зале.",
    "cmd.watching": "Вы смотрите стол {id}. Наберите уйти, чтобы вернуться в зал.",
    "cmd.spectator_no_act": "Вы только смотрите; сядьте, чтобы играть.",
    "cmd.no_rules": "Правил игры {game!r} нет; в клубе играют: {games}.",
    "cmd.no_help": "Нет справки о {topic!r}; разделы: {topics}.",
    "cmd.complete": "Варианты: {options}",
    "cmd.select_card": "Карта {n}: {card}. Enter — сделать, или исправьте строку.",
    "cmd.no_card": "У вас нет карты {n}.",
    "cmd.ready": "Вы готовы. Сдача начнётся, когда будут готовы все.",
    # table texts
    "table.header": "Стол {id} · {game}{variant} · {pot_label} {pot}{trump} · сдача {deal}",
    "table.pot": "кон",
    "felt.trump": "козырь",
    "table.kitty": "копилка",
    "table.trump": " · козырь {suit}",
    "table.you": "вы",
    "table.dealer": "сдаёт",
    "table.empty_seat": "(свободно)",
    "table.tricks": "взяток: {n}",
    "table.watching": "Вы смотрите стол {id}: скрытые карты видны рубашкой.",
    "table.hint_act": "Можно: {actions}",
    "table.hint_wait": "Ждём: {names}.",
    "table.hint_ready": "Наберите start (начать), когда готовы (готовы {ready} из {total}).",
    "table.hint_need": "Ждём ещё игроков: {count}.",
    "table.hint_over": "Игра окончена. start — новая, встать — уйти с места.",
    "table.hint_spectator": "Вы смотрите. сказать … — говорить, уйти — в зал.",
    "table.hand_keys": "1–9 или щелчок по карте, Enter — подтвердить",
    "table.no_hand": "",
    "table.balance": "{name}: {money}",
    # status words on the felt
    "status.knock": "стукнул",
    "status.pass": "пас",
    "status.golets": "голец",
    "status.dark": "в тёмную",
    "status.forced": "обязан играть",
    "status.remiz": "ремиз",
    "status.compelled": "обязан",
    "status.shlejf": "шлейф",
    "status.knocked": "стукнул",
    "status.ready": "готов",
    # table errors (engine/table.py keys)
    "table.already_seated": "Вы уже сидите за столом {table}.",
    "table.session_running": "За этим столом идёт игра; дождитесь её конца.",
    "table.full": "Стол {table} полон.",
    "table.no_seat": "Места {seat} здесь нет.",
    "table.seat_taken": "Место {seat} занято.",
    "table.not_seated": "Вы не сидите за этим столом.",
    "table.in_deal": "Нельзя вставать посреди сдачи.",
    "table.in_deal_start": "Сейчас идёт сдача.",
    "table.need_players": "Ждём ещё игроков: {count}.",
    "table.no_deal": "Сдача не идёт; наберите start, когда будете готовы.",
    "club.no_table": "Стола {table} нет.",
    "chat.empty": "Что сказать? Наберите сказать и слова.",
    "action.suggest": "{reason} Можно: {actions}.",
    # narration of table events
    "ev.sit": "{name} садится на место {seatno}.",
    "ev.stand": "{name} встаёт из-за стола.",
    "ev.watch": "{name} подходит посмотреть.",
    "ev.unwatch": "{name} больше не смотрит.",
    "ev.say": "{name} говорит: {text}",
    "ev.table_ready": "{name} готов.",
    "ev.deal_start": "Сдача {deal}: сдаёт {who}.",
    "ev.deal_over": "Сдача окончена. {money}",
    "ev.session_over": "Игра окончена. {balances}",
    "ev.ante": "{who} ставит {amount}; в кону {pot}.",
    "ev.antes": "Все ставят по {each}; в кону {pot}.",
    "ev.trump_turned": "{who} открывает {card}: козыри {suit}.",
    "ev.shlejf_trump": "{who} оставляет козырь закрытым (шлейф).",
    "ev.redeal": "{who} открыл туза {card}: тот же сдающий сдаёт снова.",
    "ev.shlejf": "{who} оставляет шлейф.",
    "ev.open": "{who} открывает козырь.",
    "ev.look": "{who} смотрит свои карты.",
    "ev.dark": "{who} играет в тёмную.",
    "ev.knock": "{who} стучит.",
    "ev.pass": "{who} пасует.",
    "ev.golets": "{who} берёт гольца.",
    "ev.forced_dealer": "{who} обязан играть (вынужденный сдающий).",
    "ev.buying": "Начинается прикупка.",
    "ev.buy": "{who} прикупает карт: {count}.",
    "ev.buy_dark": "{who} прикупает в тёмную.",
    "ev.buy_shlejf": "{who} покупает шлейф.",
    "ev.discard": "{who} сносит карту.",
    "ev.razrez_round": "Разрез: спасовавшие могут прикупить.",
    "ev.razrez": "{who} играет в разрез.",
    "ev.razrez_declined": "{who} отказывается от разреза.",
    "ev.dealer_takes_pot": "Никто не играет: {who} забирает кон, {amount}.",
    "ev.play_starts": "Игра начинается; ходит {who}. Взятка стоит {stake}.",
    "ev.play_begins": "Игра начинается; ходит {who}.",
    "ev.play": "{who} кладёт {card}.",
    "ev.lead": "{who} ходит {card}.",
    "ev.trick": "{who} берёт взятку.",
    "ev.trick_paid": "{who} берёт взятку и {amount}.",
    "ev.remiz": "{who} без взятки: ремиз, {amount} в кон.",
    "ev.deal_end": "Расчёт по сдаче окончен.",
    "ev.dealt": "",
    "ev.reveal": "{who} открывает {card}.",
    "ev.bid": "{who} даёт {price}.",
    "ev.sell": "{who}: «Продаю!»",
    "ev.trade": "{who} покупает {card} у {seller} за {price}.",
    "ev.ready": "{who} больше не торгуется.",
    "ev.window_open": "У {who} старшая карта, {card}: торг открыт.",
    "ev.window_closed": "Торг закрыт.",
    "ev.speculator": "Открылся спекулянт, К♠: пересдача.",
    "ev.win": "{who} выигрывает картой {card} и берёт {pot}.",
    "ev.take": "{who} берёт карту {place} у {from}.",
    "ev.draw": "{who} берёт карту из колоды.",
    "ev.pays": "{who} платит {amount}.",
    "ev.receives": "{who} получает {amount}.",
    "ev.generic": "{who}{kind}{data}",
    # help
    "help.topics": "hall (зал), table (стол), cards (карты), russian (русский)",
    "help.hall": (
        "В зале: осмотреться (look), столы (tables), кто (who), сесть N [место] (sit), смотреть N (watch), "
        "сказать … или ' … (say), правила [игра] (rules), lang ru|en, помощь [раздел] (help), выход (quit)."
    ),
    "help.table": (
        "За столом: глаголы игры (ход C, стук, пас, купить …), start/начать (next), когда готовы, "
        "осмотреться, сказать …, встать (между сдачами), уйти (в зал), выход. "
        "Tab дополняет глаголы и ваши карты; стрелки вверх/вниз — прежние строки."
    ),
    "help.cards": "Карты: ранг, затем масть: Д♠, дп, qs, 10ч, 10h. Ранги 2–10 В Д К Т / J Q K A; масти ♠♣♦♥ п т к б ч / S C D H.",
    "help.russian": "Глаголы: ход/играть (play), стук (knock), пас (pass), голец (golets), купить (buy), снести (discard), сесть (sit), смотреть (watch), встать (stand), уйти (leave), сказать (say), кто (who), столы (tables), правила (rules), помощь (help), выход (quit).",
    # rules in brief
    "rules.list": "В клубе играют: {games}. Наберите правила и название игры.",
    "rules.stukolka": (
        "Стуколка: 4–7 игроков, 52 карты, по 3 карты, следующая карта — козырь. По очереди каждый стучит "
        "(играет) или пасует; в основной игре можно взять гольца — закрытую руку. Каждая взятка берёт треть кона; "
        "кто играл и не взял ни одной — в ремизе и платит в следующий кон столько, сколько было в кону. "
        "Отвечать в масть и бить, если можно; иначе козырять. Сдающий ставит за сдачу."
    ),
    "rules.kopilka": (
        "Копилка: 4 игрока, по 5 карт и колода. Перед игрой обмен длинными мастями; кто не имеет масти хода, "
        "берёт из колоды. Платежи идут в копилку и из неё каждую сдачу; расчёт в конце партии."
    ),
    "rules.french3": (
        "Французская игра втроём: 3 игрока и прикуп. По очереди можно прикупать; сдача играется во взятки, "
        "запись идёт в гору и под гору; деньги — при расчёте игры."
    ),
    "rules.ukr_pairs": (
        "Украинская парная: двое на двое, по 9 карт, партнёры сидят друг против друга. Взятки идут команде; "
        "деньги — при выигрыше матча."
    ),
    "rules.speculator": (
        "Спекулянт: все ставят и получают по 3 закрытые карты, которых не видит никто. Карты открывают по одной "
        "по кругу как одну взятку, бубны — козыри. Владелец старшей карты может её продать, другие торгуются; "
        "открытый К♠ — пересдача. Старшая карта в конце берёт кон."
    ),
    "rules.highcard": "Старшая карта: тестовая игра. Стук, затем ход; старшая карта масти хода берёт.",
}

"""`sukno verify FILE` and `sukno shuffle` (sukno-shuffle/1): output lines and exit statuses 0/1/2."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.games import get_game
from engine.record import record_of
from engine.shuffle import Sealed, repeatable_seed

RECORDS = Path(__file__).parent.parent / "records"
SEED_HEX = bytes(range(32)).hex()


def run(*args: str) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "net.cli.main", *args], capture_output=True, text=True, timeout=60)
    assert "Traceback" not in proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


def sealed_record(game_name: str = "stukolka", deals: int = 3, seed: int = 1) -> dict:
    """A session played at random from sealed decks, each deal's ``fair`` set as a table sets it."""
    cls = get_game(game_name)
    game = cls([f"P{i}" for i in range(cls.min_players)])
    rng = random.Random(seed)
    for k in range(deals):
        sealed = Sealed(repeatable_seed(seed, k))
        sealed.cut("P0", f"cut {k}")
        if k % 2:
            sealed.cut("P1", "верба")
        game.start_deal(sealed.decks(cls.deck_size))
        while game.in_deal:
            seat = rng.choice(game.to_act())
            legal = game.legal_actions(seat)
            onward = [a for a in legal if a.verb not in ("bid", "sell")]  # Спекулянт: no endless trading
            game.apply(seat, rng.choice(onward or legal))
        game.deals[-1].fair = sealed.fair()
    return record_of(game).to_json()


def write(tmp_path: Path, data: object, name: str = "r.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_shuffle_prints_the_vector_decks_and_the_seal() -> None:
    status, out, _ = run("shuffle", "--seed", SEED_HEX, "--deck", "36")
    assert status == 0 and out == (
        "10♣ A♠ 8♣ K♠ Q♠ 6♥ K♥ 7♥ 6♠ 7♦ 10♥ 8♥ K♣ 10♠ 9♦ 9♥ 8♦ 10♦ J♣ A♦ A♥ A♣ 7♠ J♥ 7♣ K♦ 9♣ J♦ J♠ 6♦ Q♦ 8♠ "
        "Q♣ 6♣ 9♠ Q♥\n")
    status, out, _ = run("shuffle", "--seed", SEED_HEX, "--deck", "32", "--cut", "Anna:верба\nBoris:42",
                         "--redeal", "1")
    assert status == 0 and out.split() == (
        "Q♠ K♠ A♦ J♥ 9♠ A♥ 10♦ K♣ Q♣ J♣ 8♣ Q♥ 8♠ 10♠ 7♦ J♦ 9♦ 10♥ 7♠ 9♣ A♠ J♠ 8♦ 9♥ K♦ Q♦ 8♥ A♣ 7♣ K♥ 7♥ 10♣"
    ).split()
    status, out, _ = run("shuffle", "--seed", "5a" * 32, "--deck", "48", "--cut", "Vera:x")
    assert status == 0 and out.startswith("Q♠ 6♣ 10♦ Q♥ 4♣") and out.rstrip().endswith("K♠ 9♣ J♣")
    status, out, _ = run("shuffle", "--seed", SEED_HEX, "--seal")
    assert status == 0 and out == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd\n"


@pytest.mark.parametrize("args", [
    ["--seed", "00", "--deck", "36"],
    ["--seed", SEED_HEX, "--deck", "40"],
    ["--seed", SEED_HEX],
    ["--seed", SEED_HEX, "--deck", "36", "--redeal", "-1"],
    ["--deck", "36"],
])
@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_shuffle_refuses_bad_arguments_with_status_2(args: list[str]) -> None:
    status, out, err = run("shuffle", *args)
    assert status == 2 and out == "" and err


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_sealed_record_verifies_deal_by_deal(tmp_path: Path) -> None:
    data = sealed_record()
    status, out, _ = run("verify", str(write(tmp_path, data)))
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 3
    for k, line in enumerate(lines, 1):
        assert line == f"deal {k}: fair (seal {data['deals'][k - 1]['fair']['seal'][:8]}…)"


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_record_without_fair_lists_not_sealed_and_still_replays(tmp_path: Path) -> None:
    status, out, _ = run("verify", str(RECORDS / "stukolka_D1.json"))
    assert status == 0 and out == "deal 1: not sealed\n"
    data = sealed_record()
    path = write(tmp_path, data)
    status, out, _ = run("replay", "--brief", str(path))
    assert status == 0 and json.loads(out)["ok"] is True


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_one_swapped_card_fails_naming_the_deal(tmp_path: Path) -> None:
    data = sealed_record()
    deck = data["deals"][1]["decks"][0]
    deck[0], deck[7] = deck[7], deck[0]
    status, out, err = run("verify", str(write(tmp_path, data)))
    assert status == 1
    assert out.splitlines()[0].startswith("deal 1: fair")
    assert out.splitlines()[-1] == "deal 2: NOT fair: deck 0 differs (first at card 1)"
    assert "deal 2" in err


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_wrong_seal_fails_naming_the_deal(tmp_path: Path) -> None:
    data = sealed_record()
    data["deals"][2]["fair"]["seal"] = "0" * 64
    status, out, _ = run("verify", str(write(tmp_path, data)))
    assert status == 1 and out.splitlines()[-1].startswith("deal 3: NOT fair: seal mismatch")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_changed_cut_fails_naming_the_deal(tmp_path: Path) -> None:
    data = sealed_record()
    data["deals"][0]["fair"]["cut"] = data["deals"][0]["fair"]["cut"].replace("cut 0", "cut 1")
    status, out, _ = run("verify", str(write(tmp_path, data)))
    assert status == 1 and len(out.splitlines()) == 1
    assert out.startswith("deal 1: NOT fair: deck 0 differs")


@pytest.mark.parametrize("mangle", [
    lambda d: "{not json",
    lambda d: {**d, "format": "other"},
    lambda d: d["deals"][0].update(fair={"protocol": "sukno-shuffle/9", "seal": "0" * 64, "seed": "0" * 64,
                                         "cut": ""}) or d,
    lambda d: d["deals"][0]["fair"].update(seed="xyz") or d,
    lambda d: d["deals"][0]["fair"].pop("cut") and d,
    lambda d: d["deals"][0].update(fair="yes") or d,
])
def test_a_malformed_file_exits_2(tmp_path: Path, mangle) -> None:
    data = mangle(sealed_record(deals=1))
    status, out, err = run("verify", str(write(tmp_path, data)))
    assert status == 2 and out == "" and "sukno verify" in err


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    status, _, err = run("verify", str(tmp_path / "none.json"))
    assert status == 2 and "no such file" in err


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("game", ["kopilka", "french3", "ukr_pairs", "speculator"])
def test_every_game_sealed_verifies(tmp_path: Path, game: str) -> None:
    status, out, _ = run("verify", str(write(tmp_path, sealed_record(game, deals=2, seed=4))))
    assert status == 0 and [line.split(":")[1].split()[0] for line in out.splitlines()] == ["fair", "fair"]


def test_a_record_of_sealed_deals_with_one_seal_taken_away_is_not_fair(tmp_path) -> None:
    record = sealed_record(deals=3)
    del record["deals"][1]["fair"]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    status, out, err = run("verify", str(path))
    assert status == 1
    assert "deal 2: NOT fair: not sealed, in a record whose other deals are" in out + err


def test_one_sealed_deal_copied_many_times_is_not_fair(tmp_path) -> None:
    record = sealed_record(deals=1)
    record["deals"] = record["deals"] * 200
    path = tmp_path / "copied.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    status, out, err = run("verify", str(path))
    assert status == 1 and "deal 2: NOT fair: the seal of deal 1 again: a copied deal" in out + err


def test_a_record_past_the_bounds_is_refused_before_it_is_read(tmp_path, monkeypatch) -> None:
    import engine.record
    from engine.record import MAX_BYTES, RecordError, load_record

    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:  # 200 MB, sparse: what a hostile sender may post
        f.truncate(200 * 1024 * 1024)
    status, _, err = run("verify", str(huge))
    assert status == 2 and "209,715,200 bytes, more than a record may have" in err and "not read" in err

    def read(*args: object) -> None:  # the file is refused by its size: reading it would fail this test
        raise AssertionError("the 200 MB record was read")

    monkeypatch.setattr(engine.record, "read_object", read)
    with pytest.raises(RecordError, match="more than a record may have"):
        load_record(huge)
    small = write(tmp_path, sealed_record(deals=1), "small.json")
    with pytest.raises(AssertionError, match="was read"):  # the same path does read a record within the bound
        load_record(small)
    record = sealed_record(deals=1)
    record["deals"] = record["deals"] * 5001
    many = tmp_path / "many.json"
    many.write_text(json.dumps(record), encoding="utf-8")
    assert many.stat().st_size < MAX_BYTES
    status, _, err = run("verify", str(many))
    assert status == 2 and "5,001 deals, more than a record may hold" in err


def test_deals_are_checked_as_they_are_parsed_and_their_errors_still_name_the_deal(tmp_path) -> None:
    from engine.record import RecordError, load_record

    record = sealed_record(deals=3)
    loaded = load_record(write(tmp_path, record))
    assert [d.actions for d in loaded.deals] == [d["actions"] for d in record["deals"]]
    assert loaded.to_json() == record  # nothing lost by reading deals as they are parsed
    shared = {id(line) for deal in loaded.deals for line in deal.actions}
    assert len(shared) == len({line for deal in loaded.deals for line in deal.actions})  # one copy of each line
    bad = json.loads(json.dumps(record))
    bad["deals"][2]["decks"][0][5] = "Z♠"
    with pytest.raises(RecordError, match="deal 3, deck 1: 'Z♠' is not a card"):
        load_record(write(tmp_path, bad, "bad.json"))
    hidden = json.loads(json.dumps(record))
    hidden["options"]["x"] = record["deals"][0]  # a deal where a table option belongs is no option
    with pytest.raises(RecordError, match="'options' must be an object of table options"):
        load_record(write(tmp_path, hidden, "hidden.json"))
    status, _, err = run("verify", str(tmp_path / "hidden.json"))
    assert status == 2 and "'options' must be an object of table options" in err


def test_a_record_from_a_pipe_is_read_up_to_the_bound_and_no_further() -> None:
    from engine.record import MAX_BYTES

    record = json.dumps(sealed_record(deals=2), ensure_ascii=False).encode("utf-8")
    for sent, status, said in ((record, 0, "deal 2: fair"), (b" " * (MAX_BYTES + 1) + record, 2,
                                                             "more than a record may have (8,388,608 bytes); not read")):
        proc = subprocess.run([sys.executable, "-m", "net.cli.main", "verify", "/dev/stdin"], input=sent,
                              capture_output=True, timeout=60)
        out = (proc.stdout + proc.stderr).decode("utf-8")
        assert proc.returncode == status and said in out and "Traceback" not in out, out

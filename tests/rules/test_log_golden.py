"""Golden logs: the exact bytes of the game log must never change for the same seed.

The hashes below were taken before the simulator was optimised. Every game log line the project
writes for a seed (``./dev simulate --log``
and ``bot.rules.gamelog.log_lines`` over the engine's events) must stay byte-for-byte the same:
old logs replay, and outside tools compare them. The games cover every subset of the Mayhem
options, 2 to 10 players, the random and the heuristic computer players (alone and mixed), and
Posing Pandas with 1 to 10 players.

If a hash changes, the log format or the game changed: that is a breaking change, not a
refactoring. Never update a hash to make this test pass without a decision to change the log.
"""

from __future__ import annotations

import hashlib
import io
from itertools import combinations
from pathlib import Path

import pytest

from bot.rules.gamelog import log_lines
from bot.rules.registry import kind_of
from bot.sim.runner import play_game
from tools.sim.__main__ import main

OPTIONS = ("mischief", "cannon", "mercenary")
SUBSETS = [c for k in range(4) for c in combinations(OPTIONS, k)]
AIS = ("random", "heuristic", "heuristic,random")
ROYALE_GAMES = {"random": 2, "heuristic": 1, "heuristic,random": 1}


def _royale_runs() -> list[tuple[str, str, int]]:
    """(options, ai, seed) of each simulate run: players 2-10 run inside each one."""
    return [(",".join(sub) or "none", ai, 1000 * i + 100 * j)
            for i, sub in enumerate(SUBSETS) for j, ai in enumerate(AIS)]


def _summary(text: str) -> str:
    """The simulate summary line without its speed figure (which varies run to run)."""
    head, _, _ = text.partition(" games/s")
    return head.rsplit(";", 1)[0]


def _simulate(tmp_path: Path, game: str, players: int, games: int, seed: int, ai: str,
              options: str = "none") -> tuple[bytes, str]:
    log = tmp_path / f"{game}-{players}-{seed}.jsonl"
    out = io.StringIO()
    if "," in ai:  # one name per seat, cycling the list (as simulate once did by itself)
        ai = ",".join((ai.split(",") * players)[:players])
    argv = ["simulate", "--game", game, "--players", str(players), "--games", str(games),
            "--seed", str(seed), "--ai", ai, "--log", str(log)]
    if game == "royale":
        argv += ["--expansions", options]
    assert main(argv, out=out) == 0
    return log.read_bytes(), _summary(out.getvalue())


def _royale_run(tmp_path: Path, options: str, ai: str, seed: int) -> tuple[str, str]:
    """Simulate 2 to 10 players; the sha256 of every log byte and of the summaries."""
    logs = hashlib.sha256()
    summaries = hashlib.sha256()
    for n in range(2, 11):
        data, summary = _simulate(tmp_path, "royale", n, ROYALE_GAMES[ai], seed + n, ai,
                                  options)
        logs.update(data)
        summaries.update(summary.encode() + b"\n")
    return logs.hexdigest(), summaries.hexdigest()


# (options, ai, seed) -> (sha256 of the logs, sha256 of the summary lines)
ROYALE_GOLDEN: dict[tuple[str, str, int], tuple[str, str]] = {
    ('none', 'random', 0):
        ("d7890e575be7fecb50568422f4bc1ad61b08192969e0ce3b8af50f5a29cb0815",
         "1e65fe3afba240b181dfc6d1333e371ce549edd779f55e85036be90e82289e7b"),
    ('none', 'heuristic', 100):
        ("a31eae9d6f09f2bd0087ee37e6f380fb68975ff0b716fe06a9797eb20bc31f17",
         "ddfaab41f1c43e5e170501bfceed311150fd8c13290241733521bb45713c60bb"),
    ('none', 'heuristic,random', 200):
        ("affcaa803c4dc120eb1138ef69de7645b04e5c7e04ff630b6a67843a7b384a7c",
         "f52b15d3b38c173f39de00255363140ec3e85ae471e23f9eac134692df33fce2"),
    ('mischief', 'random', 1000):
        ("d41ee7765de1a72fbcf15237ebc243cc3099151b1b1dd8ee14a5347b4fa4c4fb",
         "df5f187cd4cf3303fc7ae3fb5202ff0a517983b2125626e2c6ec84a8fee871fd"),
    ('mischief', 'heuristic', 1100):
        ("41e9f7c939bc10f490545baf6f2f24ca0279ee0e83cb7d7300581a8541804108",
         "4d6b4b10d96e192c8a388f8471748cfafe0ee3fadd6dc10df153b70f1c1ce8e0"),
    ('mischief', 'heuristic,random', 1200):
        ("9fefd48dfb524f11eadf81470cd7a5e99edef5bd33178de685cc07c3b0239c6d",
         "ed7cbaa7c367612d48e0ee43feb97416496e9222f8d8edfb7e02b264e41f04e6"),
    ('cannon', 'random', 2000):
        ("3040d8816e799bf40cd7833702d974c5759443ef471eb9ae25ba76c3fc0612d6",
         "05f0a622de38246e586a5adff0918f6b26896c64dfb1666878c3d33a8c13865a"),
    ('cannon', 'heuristic', 2100):
        ("ae2cb5d070d85cc519e9567c451270120901b2da0b03f7f0431fb64aecdcb5be",
         "3988da8333c9195f67582955f6f4993e88520b474874a3d58f2da2641b4586b2"),
    ('cannon', 'heuristic,random', 2200):
        ("fd1cb4af4fb296f713375031f3750b256f45e82d952918dcaa300dbf733b72e3",
         "5c44dbb771800667572b0584ed3e2052e3f77e24824efe935f1af3656a16ce73"),
    ('mercenary', 'random', 3000):
        ("196c513dd66730fdc178b4d2d1b09962e8eae2b7a5bb025aecb41deb16dfec67",
         "807bb5d939a5cec18efe960c9b0d85bf490e8144bdf8c838add25691eae696af"),
    ('mercenary', 'heuristic', 3100):
        ("1be44506c1dc6e5e34ca9ffe20523e2d1fbc0cfbeafe3b9cd4565021467604f0",
         "31a9f3ee3f3bc2236443f890d6f05d69fd3441a98874295dd2d4b9de1b2b35c0"),
    ('mercenary', 'heuristic,random', 3200):
        ("f29ae509222457c1f2c878134f0bcce3ff269fd6b4b80c6f47296d7fca902b25",
         "e2b1a62dd18355d21bb787a5cb73a52f856d87d92e8a535d62d7dd77aee79510"),
    ('mischief,cannon', 'random', 4000):
        ("0af03d925f9d14fb13f8de0c5db16b169544be967a620306226dae3d1011624d",
         "3fc0725ec58c0a74513a9675a6b995658b47ed66d651e7858100217720360bd5"),
    ('mischief,cannon', 'heuristic', 4100):
        ("20838ebedc3c9263ec4150940f06f8f9c360c965e144f12f9833cc193fdee501",
         "2a1c11c4dcd8edc29e9917952d666b23458fe316614257c91d40dff50e7bb5d2"),
    ('mischief,cannon', 'heuristic,random', 4200):
        ("389eaae7a97cac66ace4d3563713613b259db181a176765101e43ff4f01c84a9",
         "55ac8e8369d017b18746ff2bbce9d6bdda445b4398c8bdb3a707ecea7746c363"),
    ('mischief,mercenary', 'random', 5000):
        ("5c952e204da4078ece0514f2a3a599e2e65c009df6d47c64c225de5bead7fcc2",
         "6b6d1848023092b1d132005ff5989bd1d4f9f881b675d2653551c87d70777082"),
    ('mischief,mercenary', 'heuristic', 5100):
        ("421341c660f2cce5a134180e3f702c319cd3cc38aefd6af585dc05da3c98b859",
         "16b730f1c7cf5d331131e0d9e6490c35522e771a1eb786930a3c5962e82c5f9b"),
    ('mischief,mercenary', 'heuristic,random', 5200):
        ("528d520c69552806ca6d5e735d147deb0fd58dfa3ab5150c331fbbb08dd1be10",
         "987a5b82eef16db9c072253d8939e646a80c7c2ec20146be868994377828d2fe"),
    ('cannon,mercenary', 'random', 6000):
        ("a01cc18b3f65145ac92bbbc5c14500c4cb5a3de79d0b5eae693a2b08db16afcb",
         "d87d4bd30290ea676b7d2a16d7e2b195516dca7f0aa35c9d1f50749d4bd7ad50"),
    ('cannon,mercenary', 'heuristic', 6100):
        ("b560f36ef4f749c7148862418e06ed0bd27ae2c2b6d26f51b3bc4f382563c387",
         "79649a2012fd5264e9f1025478945c0576f6e6488bf9b6a41b27b7906a6adf67"),
    ('cannon,mercenary', 'heuristic,random', 6200):
        ("c90b8aad4256172fff059ddd9e1e3ddbac2bc7130a36dbe0e17429ffdaed71c9",
         "6b1a806bc76b0da3f1527a02cb70db9ccf2eee5baa1f4ecc2c39f08596d8c76e"),
    ('mischief,cannon,mercenary', 'random', 7000):
        ("ca0b37bd00fbe4f5f332ab34facae7d2c43d52b2fb64717b2128f158214a56ec",
         "f5d6f9d6d1b920b55a4b54b6eeb8e8acd663072dcdefffb9b30650473af7714c"),
    ('mischief,cannon,mercenary', 'heuristic', 7100):
        ("0c5f5ad5374c3d45a6d11514782fa8565c9d01cc642cc6b3060544b9ac441421",
         "20e864bd88954c0bd4e7f5bb516e31197048f450c92033a745fb8ea687996962"),
    ('mischief,cannon,mercenary', 'heuristic,random', 7200):
        ("7cb04600e78070e0bc81414a6534c1546fb94234710eb5b63ab55dfe2de9d1db",
         "f502aa1b7378bb22218505d71f66bc95f1ba00856ff6de6b536ed14c1a41fed1"),
}

POSING_RUNS = [(n, ai, 77 + 10 * n) for n in (1, 2, 4, 7, 10) for ai in ("random", "heuristic")]
POSING_GOLDEN: dict[tuple[int, str, int], tuple[str, str]] = {
    (1, 'random', 87):
        ("aefe93488ffedea9a2d38e4b093752d946dcca3071bcef5fd10b2ddc0c15b98f",
         "1ab3d73d15cd81765dc6b778587d20429b76d09176e4b6510313324c8d8226cf"),
    (1, 'heuristic', 87):
        ("0418f25ffa43ebcc4707d9735a25e4fe5997df3dae4411293c8406581a67ac8f",
         "86618824972df69646ad93bd80a67c589e756b9e8295cb6fcb61eca8ced82f77"),
    (2, 'random', 97):
        ("50e9ade43402c58b6686ec9e358b5946c212db74307a9faa62932e4ecb03f1c9",
         "f85af979051ce2619e346162aa5ad0816952de93e49333d49448910fe721cc1a"),
    (2, 'heuristic', 97):
        ("0aa5f0731ace405b38fcf5f66ba128539783f567755bb863fcba2359d616140e",
         "e70044f8db1eb0b12ee683cabd9756b2a29baf718d985d17b15bc89c7ac118d4"),
    (4, 'random', 117):
        ("720c696bca6f2e588b09005a9bc935d6453991af55c6ca15c7d50a1e377f4d19",
         "298052ced2822d69c2e669aa3c5ee47f322e81e21c0576f8326e115fbb492405"),
    (4, 'heuristic', 117):
        ("5eeda39df82f290e8093292aa6a616b8a9f5a293729bdd032faa38c258faa953",
         "9f39d90973e8c84b54731f83d61174716e495cf7fb47998f5ca9660e50392fcf"),
    (7, 'random', 147):
        ("aff13c85e626353e68cd78e2778ca52cca2050996dcaf68ed179c9503713021e",
         "d8b12fcc9b9e623a322340dc6f1a1717fca9884f84f0ac9731f7659b324852c7"),
    (7, 'heuristic', 147):
        ("a026b54cf4ba656f5c4219e214104827e6346fada0285e2fb06f2ecff13699db",
         "6978453d5acb45ba2f0782f238f1c29758415885924b1890fde358e119a0243b"),
    (10, 'random', 177):
        ("9b945eab401da23795d56b19f842c7668ff1cbe2620b888ea1315c532cd50605",
         "b0bc19db0fb77ee7ba4e008f82c86cf102c4f0f3f823d696fb658cd5292b4f12"),
    (10, 'heuristic', 177):
        ("1e2a75cf4c608cd09b3c60fc1a380088b73cdc0f38d22098cdbb88fae24c3a2c",
         "5d080323d7d13b6ec4d1431c1aeaa7c8e4683f3c0eb90d12d2cb5dc4123a5aed"),
}

# log_lines over the engine's own events (what the Discord service and the validator use).
EVENT_RUNS = [(",".join(sub), n, 5000 + 37 * i + n) for i, sub in enumerate(SUBSETS)
              for n in (2, 5, 10)]
EVENT_GOLDEN: dict[tuple[str, int, int], str] = {
    ('', 2, 5002):
        "8028da55f260395566740da416554d69ee832e639343860fbe5e23eda9c4f934",
    ('', 5, 5005):
        "7cea062332cdc0360717d02a92ca4c93be94534285b6be7bcf0bd6a472e04505",
    ('', 10, 5010):
        "2c755210d3bcc8bfdd03ada45cf998dd14e92b26966701d731a27c3c62ad80ba",
    ('mischief', 2, 5039):
        "1d09f89ad08e564523ddbd14c7e1527630cc19b7ff1496e4b3180c98b7eb54ec",
    ('mischief', 5, 5042):
        "cd350d032f06e99b442b2c172c4ea929ba8a33bb25a0236a062b8648d178a956",
    ('mischief', 10, 5047):
        "aeb146ef95f116c34a782caa8af449a5f760905a5ba3b6c0d14e7107b4038c0e",
    ('cannon', 2, 5076):
        "163c9271312d6ea7b6b3bf5d5329a508a3cd713a9279a51f1d34e22ecafb7167",
    ('cannon', 5, 5079):
        "792abe7feba25b93f8e2b7ff4278cd00abba1aa4d9e1b529aec2b871576d798a",
    ('cannon', 10, 5084):
        "fbfbddd962a70743c06cd42fc6b08efbc6311761436918fc3ccc556cb9d6f37c",
    ('mercenary', 2, 5113):
        "993d431879bf6d79ef7a2ccdd6be06d1a3a68912bec92dffa71e7cf5c906a10d",
    ('mercenary', 5, 5116):
        "e5a86f0e48810a90f543e881b9a5c257b0a52e9b0263c242a117981d44a14193",
    ('mercenary', 10, 5121):
        "164cb9fc56c87a30167afaf0f85d24548dae1c73e7081fa3a4eff0e10d4f650b",
    ('mischief,cannon', 2, 5150):
        "994ca93e2cf2cc1714e864f32504a049893d096b59199b66b6a322bfbd936f78",
    ('mischief,cannon', 5, 5153):
        "d782ba200f8c67e8ba4d52db6db7f434eac9c811e8021565322191ddfa841c87",
    ('mischief,cannon', 10, 5158):
        "81f6c7fea1fb59d5b0ae23f0304bf8cfce7dc16694ca631f984b1f4190522d5f",
    ('mischief,mercenary', 2, 5187):
        "0574c07b4a24989b468ef294fc3f0d434a6016f84c43ec632a56f9fbe8a9954e",
    ('mischief,mercenary', 5, 5190):
        "258317c93b7c7e7c93a9cd71ae06fc9d38252e3cf94c40bce49012c32dd5cdef",
    ('mischief,mercenary', 10, 5195):
        "9d95998ca3b5b6a80d54e67f37d9615479b2afa8debabad01ef4b3152865520c",
    ('cannon,mercenary', 2, 5224):
        "bc6c1daf25db4efed4771d600f864a609eac8e99a934dcb066c4a8e3cbf34a27",
    ('cannon,mercenary', 5, 5227):
        "a31b612943c508660db25c24c18e46196619a5c694e9ebcfec912becf8759ed2",
    ('cannon,mercenary', 10, 5232):
        "c664de9d615b5cea93daad86c7eac987e08cc12f38180fbcf46f65b7732d8bc3",
    ('mischief,cannon,mercenary', 2, 5261):
        "8f7858c9bc68fb624a7d21fd7f75256873f0d822e50059af71cc38cb47105198",
    ('mischief,cannon,mercenary', 5, 5264):
        "b89b333800521a9031b62df3c40144c694ba5d2dce5f0ede3b5828f99cd3342e",
    ('mischief,cannon,mercenary', 10, 5269):
        "9c7832998df42e71de4e9f222bc0a1a55f7faed8a2f4a8661948912d5e97a40a",
}


@pytest.mark.parametrize("run", _royale_runs(), ids=lambda r: f"{r[0]}-{r[1]}")
def test_royale_simulate_log_is_unchanged(tmp_path: Path, run: tuple[str, str, int]) -> None:
    assert _royale_run(tmp_path, *run) == ROYALE_GOLDEN[run]


@pytest.mark.parametrize("run", POSING_RUNS, ids=lambda r: f"{r[0]}p-{r[1]}")
def test_posing_simulate_log_is_unchanged(tmp_path: Path, run: tuple[int, str, int]) -> None:
    n, ai, seed = run
    data, summary = _simulate(tmp_path, "posing", n, 3, seed, ai)
    got = (hashlib.sha256(data).hexdigest(), hashlib.sha256(summary.encode()).hexdigest())
    assert got == POSING_GOLDEN[run]


def _event_log(options: str, n: int, seed: int) -> str:
    engine = kind_of("royale")
    opts = {"expansions": [o for o in options.split(",") if o]}
    played = play_game(engine, [f"p{i}" for i in range(n)], seed, ["heuristic", "random"], opts)
    data = "".join(log_lines(f"g{seed}", played.events)).encode()
    return hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("run", EVENT_RUNS, ids=lambda r: f"{r[0] or 'none'}-{r[1]}p")
def test_event_log_lines_are_unchanged(run: tuple[str, int, int]) -> None:
    assert _event_log(*run) == EVENT_GOLDEN[run]

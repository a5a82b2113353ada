"""The stored import graph (docs/cache.md, "The stored graph"): a warm run links only the files whose
content changed since the last run, and decides exactly as a run that builds the graph in full
(`--no-cache`). The harness sets IMPACT_CHECK_GRAPH=1, so each run below also compares the graph it took
from the cache with a full build and fails on any difference."""
from harness import make_repo, selected_ids


def decide(repo):
    warm = repo.decide()
    full = repo.decide("--no-cache")
    assert full["project"]["linked"] == full["project"]["python_files"]
    for key in ("decision", "reason"):
        assert warm[key] == full[key]
    assert selected_ids(warm) == selected_ids(full)
    assert [t["chain"] for t in warm["selected"]] == [t["chain"] for t in full["selected"]]
    return warm


def warm_shop(tmp_path):
    """The shop fixture with cart.py changed, after one run that stored its graph."""
    repo = make_repo(tmp_path, "shop")
    repo.replace("src/shop/cart.py", "self.lines = {}", "self.lines = dict()")
    first = decide(repo)
    return repo, first


def test_a_warm_run_links_only_what_changed(tmp_path):
    repo, first = warm_shop(tmp_path)
    files = first["project"]["python_files"]
    assert first["project"]["linked"] == files  # nothing stored yet

    again = decide(repo)
    assert again["project"]["linked"] == 0  # the same state: the stored graph as it is

    # cart.py changes again, and pricing.py too: those two are linked, no other.
    repo.replace("src/shop/cart.py", "self.lines = dict()", "self.lines = {}  # again")
    repo.replace("src/shop/pricing.py", '"""Prices in cents."""', '"""Prices in cents, always."""')
    later = decide(repo)
    assert later["project"]["linked"] == 2


def test_an_import_added_is_linked(tmp_path):
    repo, _ = warm_shop(tmp_path)
    # catalog.py starts to import the cart module: its graph edges change, and only it is linked again.
    repo.write("src/shop/catalog.py", "import shop.cart\n" + repo.read("src/shop/catalog.py"))
    warm = decide(repo)
    assert warm["project"]["linked"] == 1


def test_a_new_file_or_a_changed_configuration_builds_in_full(tmp_path):
    repo, _ = warm_shop(tmp_path)
    repo.write("src/shop/extra.py", "import shop.cart\n")
    added = decide(repo)
    assert added["project"]["linked"] == added["project"]["python_files"]
    repo.write("tests/conftest.py", repo.read("tests/conftest.py") + "\ncollect_ignore = ['test_text.py']\n")
    ignored = decide(repo)
    assert ignored["project"]["linked"] == ignored["project"]["python_files"]


def test_a_damaged_stored_graph_is_built_again(tmp_path):
    repo, _ = warm_shop(tmp_path)
    stored = next((repo.path / ".impact_cache").glob("graph-v*.bin"))
    data = bytearray(stored.read_bytes())
    data[len(data) // 2] ^= 0x5A
    stored.write_bytes(bytes(data))
    run = repo.impact("--dry-run", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert run.json["project"]["linked"] == run.json["project"]["python_files"]
    assert f"{stored.name} is damaged; the import graph was built anew" in run.stderr
    again = repo.impact("--dry-run", "--format", "json")
    assert again.json["project"]["linked"] == 0 and "warning" not in again.stderr

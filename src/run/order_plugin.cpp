// The run order's part of impact's durations plugin (docs/cache.md, "Run order"), appended to the
// recording part (durations_plugin.cpp), whose pytest_configure reads the order's inputs.
#include "run/order_plugin.hpp"

namespace impact {

// Every hook swallows its own errors and then leaves pytest's order as it is. The hook runs first
// (tryfirst) so that pytest's own regrouping of parametrized fixtures, --lf/--ff and -k/-m work on
// the new order rather than being undone by it.
const char* const k_order_plugin_source = R"PY(

# Run order (docs/cache.md, "Run order"): last failures first, then the longest first. Only reorders,
# never adds or drops a test, and leaves the order as it is on any error.
_ORDERING_PLUGINS = {"pytest_randomly", "random_order", "pytest_random_order", "pytest_order", "pytest_ordering",
                     "pytest_dependency"}
_order = {"inputs": None, "applied": None}


def _order_inputs(config):
    # Under xdist every worker collects and must collect the same order: the controller reads the
    # inputs once and hands them to each worker (pytest_configure_node); a worker reads no file.
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        return workerinput.get("impact_order")
    path = os.environ.get("IMPACT_ORDER_DURATIONS")
    root = os.environ.get("IMPACT_DURATIONS_ROOT", "")
    if not path or not root or os.path.realpath(root) != os.path.realpath(_where["invocation"] or ""):
        return None
    durations = {}
    try:
        with open(path, encoding="utf-8") as f:
            for k, v in json.load(f)["tests"].items():
                seconds = v["seconds"]
                if isinstance(seconds, (int, float)) and seconds >= 0:
                    durations[k] = float(seconds)
    except Exception:
        durations = {}  # none recorded yet, or a file impact rebuilds on its next run
    failed = []
    cache = getattr(config, "cache", None)
    if cache is not None:
        record = cache.get("cache/lastfailed", {})
        if isinstance(record, dict):
            failed = sorted(k for k, v in record.items() if v is True)
    return {"failed": failed, "durations": durations}


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    try:
        if _order["inputs"] is not None:
            node.workerinput["impact_order"] = _order["inputs"]
    except Exception:
        pass


def _keeps_order(config):
    # Stepwise resumes at a position of the last run's order; the plugins below shuffle or order
    # tests on purpose, or skip a test whose dependency has not run yet.
    if getattr(config.option, "stepwise", False) or getattr(config.option, "stepwise_skip", False):
        return True
    for plugin in config.pluginmanager.get_plugins():
        name = getattr(plugin, "__name__", None) or type(plugin).__module__ or ""
        if name.split(".")[0] in _ORDERING_PLUGINS:
            return True
    return False


def _arrange(entries, depth):
    # Entries are (collector chain, item, seconds, failed). Siblings under one collector (directory,
    # package, module, class) are ordered; a collector's items stay together, so fixtures scoped to it
    # are set up once, as in pytest's own order.
    groups = {}
    for entry in entries:
        chain = entry[0]
        key = id(chain[depth]) if depth < len(chain) else ("item", id(entry[1]))
        groups.setdefault(key, []).append(entry)
    blocks = []
    for position, members in enumerate(groups.values()):
        if depth < len(members[0][0]):
            members = _arrange(members, depth + 1)
        blocks.append((not any(m[3] for m in members), -sum(m[2] for m in members), position, members))
    blocks.sort(key=lambda block: block[:3])
    return [m for block in blocks for m in block[3]]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    try:
        inputs = _order["inputs"]
        if not inputs or len(items) < 2 or _keeps_order(config):
            return
        failed = set(inputs["failed"])
        durations = inputs["durations"]
        seconds = [durations.get(_repo_relative(item.nodeid)) for item in items]
        known = sorted(s for s in seconds if s is not None)
        median = known[len(known) // 2] if known else 0.0
        entries = []
        for item, s in zip(items, seconds):
            chain = item.listchain()[1:-1]
            bad = item.nodeid in failed or any(node.nodeid in failed for node in chain)
            entries.append((chain, item, median if s is None else s, bad))
        arranged = [entry[1] for entry in _arrange(entries, 0)]
        if len(arranged) != len(items) or {id(i) for i in arranged} != {id(i) for i in items}:
            return
        if any(a is not b for a, b in zip(arranged, items)):
            items[:] = arranged
            _order["applied"] = (sum(1 for e in entries if e[3]), len(known), len(items))
    except Exception:
        pass


def pytest_report_collectionfinish(config):
    try:
        if _order["applied"] and config.getoption("verbose") >= 0:
            failures, known, total = _order["applied"]
            return ("impact: run order: last failures first ({}), then the longest first ({} of {} test(s) with a "
                    "recorded duration); impact --no-reorder keeps pytest's order".format(failures, known, total))
    except Exception:
        pass
    return None
)PY";

} // namespace impact

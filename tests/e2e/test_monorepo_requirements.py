"""Monorepo mode: pip requirements files as declared edges (docs/monorepo.md, "Edges"). A project's
requirements*.txt, or a file of its requirements/ folder, that names a sibling by path (`-e ../a`,
`../a`, `file:../a`) or by its distribution name makes it depend on that sibling, as [project]
dependencies do."""
import pytest

from harness import make_repo


def layout(requirements):
    """libs/a (distribution libs-a) and libs/b, whose tests never import liba (so that no edge is
    seen in imports): only `requirements` (path -> text, in libs/b) can make b depend on a."""
    files = {
        "libs/a/pyproject.toml": '[project]\nname = "Libs_A"\nversion = "1"\n\n[tool.pytest.ini_options]\n',
        "libs/a/liba/__init__.py": "",
        "libs/a/liba/core.py": "def add(a, b):\n    return a + b\n",
        "libs/a/tests/test_core.py": "from liba.core import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
        "libs/b/pytest.ini": "[pytest]\n",
        "libs/b/tests/test_b.py": "def test_b():\n    assert True\n",
        "libs/c/pytest.ini": "[pytest]\n",
        "libs/c/requirements.txt": "# nothing of ours\nrequests>=2\n-r ../b/requirements.txt\n",
        "libs/c/tests/test_c.py": "def test_c():\n    assert True\n",
    }
    files.update({f"libs/b/{path}": text for path, text in requirements.items()})
    return files


def decide(tmp_path, requirements):
    repo = make_repo(tmp_path, files=layout(requirements))
    repo.replace("libs/a/liba/core.py", "return a + b", "return b + a")
    run = repo.impact("--dry-run", "--format", "json")
    assert run.returncode == 0, run.stderr
    return {p["path"]: p for p in run.json["projects"]}, run.json["edges"]


@pytest.mark.parametrize("path, text, why", [
    ("requirements.txt", "-e ../a\n", "path dependency ../a in libs/b/requirements.txt"),
    ("requirements-dev.txt", "pytest>=8  # tests\n--editable=../a[test]\n",
     "path dependency ../a in libs/b/requirements-dev.txt"),
    ("requirements.txt", "../a\n", "path dependency ../a in libs/b/requirements.txt"),
    ("requirements.txt", "file:../a ; python_version >= '3.8'\n", "path dependency ../a in libs/b/requirements.txt"),
    ("requirements/test.txt", "-e ../a\n", "path dependency ../a in libs/b/requirements/test.txt"),
    ("requirements/test.txt", "-e ../../a\n", "path dependency ../../a in libs/b/requirements/test.txt"),
    ("requirements.txt", "libs.a[extra]>=1 \\\n    ; python_version > '3'\n", "declares libs-a in libs/b/requirements.txt"),
    ("requirements.txt", "libs-a @ file:../a\n", "declares libs-a in libs/b/requirements.txt"),
])
def test_a_requirements_file_naming_a_sibling_is_a_declared_edge(tmp_path, path, text, why):
    projects, edges = decide(tmp_path, {path: text})
    assert (projects["libs/b"]["run"], projects["libs/b"]["why"]) == ("all", "depends_on_changed"), projects["libs/b"]
    assert why in projects["libs/b"]["detail"]
    assert {"from": "libs/b", "to": "libs/a", "declared": True, "why": why} in edges
    # libs/c names nothing of the monorepo (and -r is not followed)
    assert (projects["libs/c"]["run"], projects["libs/c"]["why"]) == ("none", "unchanged")


@pytest.mark.parametrize("path, text", [
    ("requirements.txt", "# -e ../a\nliba-extras\n"),      # a comment, another distribution
    ("requirements.txt", "-e git+https://example.invalid/a.git#egg=libs-a-fork\n"),
    ("constraints.txt", "-e ../a\n"),                      # not a requirements file
    ("requirements.txt", "-e ../c\n"),                     # another sibling, unchanged
])
def test_what_is_not_an_edge_to_the_changed_sibling(tmp_path, path, text):
    projects, edges = decide(tmp_path, {path: text})
    assert (projects["libs/b"]["run"], projects["libs/b"]["why"]) == ("none", "unchanged"), projects["libs/b"]
    assert not [e for e in edges if e["to"] == "libs/a"]

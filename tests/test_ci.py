"""docs/ci.md, tried: the GitHub Actions workflow and the GitLab job parse and hold what they promise, every
``referee`` command they run is run on ``records/`` (exit status and output format checked), the pytest plugin usage
works, and the pre-commit hooks run their exact entries on the staged files of a temporary git repository."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ci.md"
RECORDS = ROOT / "records"
BIN = Path(sys.executable).parent  # the environment's console scripts (referee, pytest)


@cache
def blocks() -> dict[str, Any]:
    """The YAML examples of docs/ci.md by their first line (a comment naming the file)."""
    found = {}
    for text in re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL):
        found[text.splitlines()[0]] = yaml.safe_load(text)
    return found


def workflow() -> dict[str, Any]:
    return blocks()["# .github/workflows/records.yml"]


def gitlab() -> dict[str, Any]:
    return blocks()["# .gitlab-ci.yml"]


def steps() -> list[dict[str, Any]]:
    return workflow()["jobs"]["referee"]["steps"]


def runs() -> list[str]:
    return [step["run"] for step in steps() if "run" in step]


def referee_commands() -> list[str]:
    """Every referee command the examples run, once each, in order."""
    commands = [*runs(), *gitlab()["referee"]["script"]]
    return list(dict.fromkeys(command for command in commands if command.startswith("referee ")))


def env() -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


# ---------------------------------------------------------------------------------------------------------------
# GitHub Actions and GitLab CI


def test_the_github_workflow_is_complete() -> None:
    flow = workflow()
    triggers = flow.get("on", flow.get(True))  # YAML 1.1 reads the key 'on' as true
    assert set(triggers) >= {"push", "pull_request"}
    job = flow["jobs"]["referee"]
    assert job["permissions"]["security-events"] == "write" and job["permissions"]["checks"] == "write"
    uses = [step.get("uses", "") for step in steps()]
    assert uses[0].startswith("actions/checkout@") and uses[1].startswith("actions/setup-python@")
    assert any(command.startswith("pip install") for command in runs())
    assert "referee check records/ --format github" in runs()
    (sarif_step,) = [command for command in runs() if "--format sarif" in command]
    sarif_file = sarif_step.split(">")[-1].strip()
    junit_file = sarif_step.split("--junit")[1].split()[0]
    (upload,) = [step for step in steps() if step.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    assert upload["with"]["sarif_file"] == sarif_file and upload["if"] == "always()"
    (publish,) = [step for step in steps() if "junit" in step.get("uses", "")]
    assert publish["with"]["report_paths"] == junit_file and publish["if"] == "always()"
    first = next(index for index, step in enumerate(steps()) if step.get("run", "").startswith("referee "))
    assert all(step.get("if") == "always()" for step in steps()[first + 1 :])  # every report is published


def test_the_gitlab_job_keeps_its_junit_report() -> None:
    job = gitlab()["referee"]
    (check,) = [command for command in job["script"] if "--junit" in command]
    assert job["artifacts"]["reports"]["junit"] == check.split("--junit")[1].split()[0]
    assert job["artifacts"]["when"] == "always"


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working folder as a CI checkout sees it: the records at ``records/``."""
    folder = tmp_path_factory.mktemp("checkout")
    (folder / "records").symlink_to(RECORDS, target_is_directory=True)
    return folder


def _games() -> int:
    from referee.record import iter_games

    return sum(1 for path in RECORDS.rglob("*.rec") for _ in iter_games(path.read_text(encoding="utf-8-sig")))


@pytest.mark.parametrize("command", referee_commands())
def test_every_referee_command_of_the_examples_runs_on_the_records(command: str, checkout: Path) -> None:
    done = subprocess.run(
        command, shell=True, cwd=checkout, env=env(), capture_output=True, text=True, timeout=1800, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    words = shlex.split(command.split(">")[0])
    if "--junit" in words:
        report = ET.parse(checkout / words[words.index("--junit") + 1]).getroot()
        assert report.tag == "testsuites"
        assert sum(int(suite.get("tests", "0")) for suite in report.iter("testsuite")) == _games()
        assert not list(report.iter("failure"))
    if "--format" in words and words[words.index("--format") + 1] == "sarif":
        log = json.loads((checkout / command.split(">")[-1].strip()).read_text(encoding="utf-8"))
        assert log["version"] == "2.1.0" and log["runs"][0]["tool"]["driver"]["name"] == "referee"
        assert log["runs"][0]["results"] == []
    elif "--format" in words and words[words.index("--format") + 1] == "github":
        assert all(line.startswith("::error ") for line in done.stdout.splitlines())
    elif words[1] == "fmt":
        assert "0 would be reformatted" in done.stderr
    elif "--traces" in words:
        assert re.search(r": 0 differ; \d+ golden trace\(s\) compared\n$", done.stdout)
    elif words[1] == "check":
        assert done.stdout.endswith("all good\n")


def test_the_pytest_plugin_usage(tmp_path: Path) -> None:
    (line,) = [line for line in DOC.read_text().splitlines() if line.startswith("pytest --referee-records")]
    shutil.copytree(RECORDS / "saint-petersburg" / "golden", tmp_path / "records")
    command = [sys.executable, "-m", *shlex.split(line), "-p", "no:cacheprovider", "-q"]
    done = subprocess.run(command, cwd=tmp_path, env=env(), capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout
    assert "5 passed" in done.stdout
    report = ET.parse(tmp_path / "pytest-junit.xml").getroot()
    assert sum(int(suite.get("tests", "0")) for suite in report.iter("testsuite")) == 5


# ---------------------------------------------------------------------------------------------------------------
# pre-commit


def _hooks(path: Path) -> dict[str, dict[str, Any]]:
    loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    hooks = loaded if isinstance(loaded, list) else [h for repo in loaded["repos"] for h in repo["hooks"]]
    return {hook["id"]: hook for hook in hooks}


def test_this_repositorys_hooks_run_the_ci_commands() -> None:
    hooks = _hooks(ROOT / ".pre-commit-config.yaml")
    lint = [
        step["run"] for step in blocks()["# the lint job of this repository's CI"]["lint"]["steps"] if "run" in step
    ]
    assert {hooks[name]["entry"] for name in ("ruff", "ruff-format", "mypy")} == {
        command.removesuffix(" .") for command in lint if not command.startswith("pip ")
    }
    assert hooks["mypy"]["pass_filenames"] is False
    assert hooks["referee-check"]["entry"] == "referee check"
    assert hooks["referee-fmt"]["entry"] == "referee fmt --check"
    for name in ("referee-check", "referee-fmt"):
        assert re.search(hooks[name]["files"], "records/san-juan/generated/sj-2p-seed01.rec")
        assert not re.search(hooks[name]["files"], "tests/toy/nim.rec")
    shown = blocks()["# .pre-commit-config.yaml (this repository; the full file is at the top of the repository)"]
    assert {h["id"]: h for repo in shown["repos"] for h in repo["hooks"]} == hooks  # the docs show the file


def test_the_hook_repository_offers_check_and_fmt() -> None:
    hooks = _hooks(ROOT / ".pre-commit-hooks.yaml")
    assert set(hooks) == {"referee-check", "referee-fmt"}
    used = blocks()["# .pre-commit-config.yaml"]["repos"][0]["hooks"]
    assert [hook["id"] for hook in used] == ["referee-check", "referee-fmt"]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True, timeout=60).stdout


def _run_hook(hook: dict[str, Any], repo: Path) -> subprocess.CompletedProcess[str]:
    """What pre-commit runs: the hook's entry and args, then the staged files its ``files`` pattern selects."""
    staged = _git(repo, "diff", "--cached", "--name-only", "--diff-filter=ACMR").split()
    selected = [name for name in staged if re.search(hook["files"], name)]
    command = [*shlex.split(hook["entry"]), *hook.get("args", []), *selected]
    return subprocess.run(command, cwd=repo, env=env(), capture_output=True, text=True, timeout=300, check=False)


VALID = """\
[Game "Saint Petersburg"]
[Players "Anna, Boris"]

tokens: Anna worker aristocrat, Boris building upgrade
round 1
worker phase
deal: Lumberjack, Gold Miner, Shepherd, Lumberjack
Anna: buy Shepherd for 5
Boris: buy Gold Miner for 4
"""


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_hooks_on_the_staged_records_of_a_git_repository(tmp_path: Path) -> None:
    hooks = _hooks(ROOT / ".pre-commit-hooks.yaml")
    repo = tmp_path / "club"
    (repo / "games").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / "games" / "good.rec").write_text(VALID)
    (repo / "games" / "messy.rec").write_text(VALID.replace("Boris: buy Gold Miner", "Boris:   buy gold miner"))
    (repo / "games" / "broken.rec").write_text(VALID.replace("for 4", "for 3"))
    (repo / "notes.txt").write_text("not a record")
    _git(repo, "add", "games/good.rec", "games/messy.rec", "notes.txt")

    check, fmt = _run_hook(hooks["referee-check"], repo), _run_hook(hooks["referee-fmt"], repo)
    assert check.returncode == 0, check.stdout
    assert "games/good.rec #1" in check.stdout and "games/messy.rec #1" in check.stdout
    assert "notes.txt" not in check.stdout + check.stderr
    assert fmt.returncode == 1 and "would reformat games/messy.rec" in fmt.stderr

    subprocess.run([BIN / "referee", "fmt", "games/messy.rec"], cwd=repo, env=env(), check=True, capture_output=True)
    _git(repo, "add", "games/messy.rec")
    assert _run_hook(hooks["referee-fmt"], repo).returncode == 0

    _git(repo, "add", "games/broken.rec")  # an illegal game staged: the commit is stopped, at its line
    check = _run_hook(hooks["referee-check"], repo)
    assert check.returncode == 1 and "games/broken.rec #1 saint-petersburg: illegal at 9:" in check.stdout

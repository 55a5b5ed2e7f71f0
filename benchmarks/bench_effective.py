"""The effective configuration's cost (issue 23): its share of a ``--check``, and ``--effective`` on a large tree.

1. ``--check`` at N skills (default 2,000, the four-root corpus of ``generate.py`` plus both settings files with
   hooks and MCP servers and a few plugins): the check's CPU time (a child process, ``wait4``), and the model's:
   a child that discovers the workspace as ``--check`` does and then times ``effective_of`` (untrusted, which
   computes both states for the trust preview) with ``time.process_time``. The check itself never imports the
   model (``python -X importtime`` confirms it on every run); the share says what a check would pay if it did.
2. ``clarvis-lsp --effective`` (text and ``--format json``, untrusted and ``--trusted``) at M skills (default
   10,000) and P plugins (default 50), each plugin with a skill, an agent, an MCP server, a capability and five
   hooks, all enabled by the workspace and half by the personal settings: wall and CPU time of the child.

Runs are interleaved (each repetition cycles through every command) and the medians printed as Markdown rows.

    python benchmarks/bench_effective.py --check-skills 2000 --effective-skills 10000 --plugins 50 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from bench_check import measured
from generate import generate
from installed import clarvis_lsp

WORK = Path(__file__).parent / ".work"

MODEL_TIME = """
import sys, time
from pathlib import Path
from clarvis_lsp.config.project import load_project_config
from clarvis_lsp.workspace.engine import WorkspaceEngine
ws, home = Path(sys.argv[1]), Path(sys.argv[2])
from clarvis_lsp.batch.run import discover
engine = WorkspaceEngine(directory=ws, config=load_project_config(ws).config, home=home)
discover(engine, jobs=None)
start = time.process_time()
from clarvis_lsp.effective import effective_of
imported = time.process_time()
model = effective_of(engine, trusted=False)
done = time.process_time()
print(done - start, imported - start, len(model.skills), len(model.hooks))
"""


def hooks(count: int, prefix: str) -> list[dict[str, str]]:
    events = ("pre_tool_use", "post_tool_use", "run_end", "session_start")
    return [{"event": events[index % len(events)], "command": f"./{prefix}-{index}.sh"} for index in range(count)]


def add_configuration(ws: Path, home: Path, plugins: int) -> None:
    """Both settings files (hooks, servers, enabledPlugins, providers) and ``plugins`` workspace plugins."""
    names = [f"plugin-{index:03d}" for index in range(plugins)]
    for index, name in enumerate(names):
        directory = ws / ".clarvis/plugins" / name
        (directory / "hooks").mkdir(parents=True)
        (directory / "skills" / f"{name}-skill").mkdir(parents=True)
        (directory / "agents").mkdir(parents=True)
        manifest = {
            "name": name,
            "description": f"Generated plugin {index}",
            "mcpServers": {"index": {"command": f"{name}-mcp"}},
            "capabilityExecutables": {"memory": {"command": f"{name}-memory"}},
        }
        (directory / "plugin.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        (directory / "hooks" / "hooks.json").write_text(json.dumps({"hooks": hooks(5, name)}) + "\n", encoding="utf-8")
        skill = f"---\nname: {name}-skill\ndescription: Skill of {name}.\n---\n\nUse it.\n"
        (directory / "skills" / f"{name}-skill" / "SKILL.md").write_text(skill, encoding="utf-8")
        (directory / "agents" / "helper.md").write_text(f"# Helper of {name}\n", encoding="utf-8")
    personal = {
        "hooks": hooks(40, "personal"),
        "mcpServers": {"search": {"command": "my-search"}, "notes": {"type": "http", "url": "https://n.example"}},
        "enabledPlugins": names[: len(names) // 2],
        "memory": {"provider": names[0] if names else "none"},
    }
    workspace = {
        "hooks": hooks(40, "workspace"),
        "mcpServers": {"search": {"type": "http", "url": "https://search.example"}},
        "enabledPlugins": names,
        "plans": {"provider": names[-1] if names else "none"},
    }
    (home / ".clarvis").mkdir(parents=True, exist_ok=True)
    (ws / ".clarvis").mkdir(parents=True, exist_ok=True)
    (home / ".clarvis/settings.json").write_text(json.dumps(personal, indent=2) + "\n", encoding="utf-8")
    (ws / ".clarvis/settings.json").write_text(json.dumps(workspace, indent=2) + "\n", encoding="utf-8")


def corpus(name: str, skills: int, plugins: int) -> tuple[Path, Path]:
    ws, home = generate(WORK / name, skills)
    add_configuration(ws, home, plugins)
    return ws, home


def check_never_imports_the_model(ws: Path, home: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "clarvis_lsp", "--check", str(ws), "--home", str(home)],
        capture_output=True,
        text=True,
    )
    assert result.returncode in (0, 1), result.stderr[-2000:]
    assert "clarvis_lsp.effective" not in result.stderr, "--check imported the effective configuration"


def model_cpu(ws: Path, home: Path) -> tuple[float, float]:
    """The model's CPU seconds after discovery, its imports included, and those imports alone."""
    out = subprocess.run(
        [sys.executable, "-c", MODEL_TIME, str(ws), str(home)], capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check-skills", type=int, default=2000)
    parser.add_argument("--effective-skills", type=int, default=10000)
    parser.add_argument("--plugins", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    tool = clarvis_lsp()

    ws, home = corpus("effective-check", args.check_skills, 5)
    check_never_imports_the_model(ws, home)
    check_cpu: list[float] = []
    check_wall: list[float] = []
    model: list[float] = []
    imports: list[float] = []
    for _ in range(args.repeat):
        wall, cpu, status, _out = measured([tool, "--check", str(ws), "--home", str(home), "--format", "json"])
        assert status in (0, 1)
        check_wall.append(wall)
        check_cpu.append(cpu)
        total, imported = model_cpu(ws, home)
        model.append(total)
        imports.append(imported)
    share = statistics.median(model) / statistics.median(check_cpu)
    print(
        f"| --check, {args.check_skills} skills | CPU (s) | wall (s) | the model's CPU (s) | of which imports (s) "
        "| share |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    print(
        f"| median of {args.repeat} | {statistics.median(check_cpu):.3f} | {statistics.median(check_wall):.3f} | "
        f"{statistics.median(model):.4f} | {statistics.median(imports):.4f} | {share:.1%} |"
    )
    print()

    ws, home = corpus("effective-large", args.effective_skills, args.plugins)
    commands = {
        "text": [tool, "--effective", str(ws), "--home", str(home)],
        "json": [tool, "--effective", str(ws), "--home", str(home), "--format", "json"],
        "text --trusted": [tool, "--effective", str(ws), "--home", str(home), "--trusted"],
        "json --trusted": [tool, "--effective", str(ws), "--home", str(home), "--format", "json", "--trusted"],
    }
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for _ in range(args.repeat):
        for label, command in commands.items():
            wall, cpu, status, out = measured(command)
            assert status == 0, out[-500:]
            if label.startswith("json"):
                [model_json] = json.loads(out)["workspaces"]
                assert len(model_json["plugins"]) == args.plugins
            times[label].append((wall, cpu))
    print(f"| --effective, {args.effective_skills} skills, {args.plugins} plugins | wall (s) | CPU (s) |")
    print("| --- | ---: | ---: |")
    for label, runs in times.items():
        wall = statistics.median(run[0] for run in runs)
        cpu = statistics.median(run[1] for run in runs)
        print(f"| {label} | {wall:.3f} | {cpu:.3f} |")


if __name__ == "__main__":
    main()

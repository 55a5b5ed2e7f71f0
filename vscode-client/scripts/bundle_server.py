"""Put the clarvis-lsp server and its dependencies into the VS Code extension, for one platform at a time.

    python3 scripts/bundle_server.py download TARGET...   wheels of every TARGET into build/wheels/TARGET/cp3XY
    python3 scripts/bundle_server.py install TARGET       unpack them into bundled/libs (what the .vsix carries)

A TARGET is a `vsce package --target` name: linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64. Every
wheel comes from the package index with pip's `--platform`/`--python-version`/`--only-binary=:all:`, so all five
are built on one Linux machine. pydantic-core, PyYAML, regex and rpds-py are compiled per CPython version, so each
version in PYTHONS gets its own directory `libs/cp3XY`; the pure-Python wheels every version shares go to
`libs/common` once. `bundled/start.py` picks the directory of the Python it runs on.

pip evaluates environment markers (`tomli; python_version < "3.11"`) against the Python running pip, not the
target: after each download the requirements of every wheel are evaluated here for the target, and whatever is
missing is downloaded too, until nothing is.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from email.parser import Parser
from pathlib import Path

try:
    from packaging import requirements, utils
except ImportError:  # a bare virtual environment (CI builds the extension before installing anything): pip's copy
    from pip._vendor.packaging import requirements, utils  # type: ignore[no-redef]

CLIENT = Path(__file__).resolve().parent.parent
REPOSITORY = CLIENT.parent
STAGE = CLIENT / "build" / "wheels"
LIBS = CLIENT / "bundled" / "libs"

PYTHONS = ("3.10", "3.11", "3.12", "3.13", "3.14")

# pip --platform tags, most compatible first, and the marker environment of each target.
TARGETS: dict[str, tuple[list[str], dict[str, str]]] = {
    "linux-x64": (
        ["manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux_2_28_x86_64"],
        {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64", "os_name": "posix"},
    ),
    "linux-arm64": (
        ["manylinux_2_17_aarch64", "manylinux2014_aarch64", "manylinux_2_28_aarch64"],
        {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "aarch64", "os_name": "posix"},
    ),
    "darwin-x64": (
        ["macosx_13_0_x86_64"],  # pip adds the older macOS versions and universal2 itself; google-re2 has
        # wheels for CPython 3.13 and 3.14 from macOS 13 only, so the darwin .vsix files need macOS 13 or newer
        {"sys_platform": "darwin", "platform_system": "Darwin", "platform_machine": "x86_64", "os_name": "posix"},
    ),
    "darwin-arm64": (
        ["macosx_13_0_arm64"],
        {"sys_platform": "darwin", "platform_system": "Darwin", "platform_machine": "arm64", "os_name": "posix"},
    ),
    "win32-x64": (
        ["win_amd64"],
        {"sys_platform": "win32", "platform_system": "Windows", "platform_machine": "AMD64", "os_name": "nt"},
    ),
}


def tag(python: str) -> str:
    return "cp" + python.replace(".", "")


def marker_environment(target: str, python: str) -> dict[str, str]:
    return {
        **TARGETS[target][1],
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "implementation_version": f"{python}.0",
        "platform_python_implementation": "CPython",
        "platform_release": "",
        "platform_version": "",
        "extra": "",
    }


def pip_download(target: str, python: str, requirements: list[str], destination: Path) -> None:
    platforms = [argument for platform in TARGETS[target][0] for argument in ("--platform", platform)]
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check"]
    command += ["--only-binary=:all:", "--implementation", "cp", "--python-version", python, *platforms]
    command += ["--dest", str(destination), *requirements]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"pip download for {target} Python {python} failed:\n{result.stderr[-3000:]}")


def wheel_metadata(wheel: Path) -> tuple[str, list[str]]:
    """The distribution name and Requires-Dist lines of a wheel."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(item for item in archive.namelist() if item.endswith(".dist-info/METADATA"))
        message = Parser().parsestr(archive.read(name).decode("utf-8"))
    return utils.canonicalize_name(message["Name"]), message.get_all("Requires-Dist") or []


def missing_requirements(directory: Path, environment: dict[str, str]) -> list[str]:
    """Requirements of the wheels in `directory`, for the target's environment, that no wheel there provides."""
    wheels = [wheel_metadata(wheel) for wheel in directory.glob("*.whl")]
    present = {name for name, _ in wheels}
    missing: dict[str, str] = {}
    for _, requires in wheels:
        for line in requires:
            requirement = requirements.Requirement(line)
            if requirement.marker and not requirement.marker.evaluate(environment):
                continue
            name = utils.canonicalize_name(requirement.name)
            if name not in present:
                requirement.marker = None
                missing[name] = str(requirement)
    return sorted(missing.values())


def download_one(target: str, python: str, server_wheel: Path) -> str:
    destination = STAGE / target / tag(python)
    shutil.rmtree(destination, ignore_errors=True)
    destination.mkdir(parents=True)
    pip_download(target, python, [str(server_wheel)], destination)
    environment = marker_environment(target, python)
    for _ in range(10):
        missing = missing_requirements(destination, environment)
        if not missing:
            return f"{target} Python {python}: {len(list(destination.glob('*.whl')))} wheels"
        pip_download(target, python, missing, destination)
    raise SystemExit(f"{target} Python {python}: requirements still missing after 10 rounds: {missing}")


def download(targets: list[str]) -> None:
    """Build the clarvis-lsp wheel from this checkout, then download every target's wheels, four at a time."""
    shutil.rmtree(STAGE, ignore_errors=True)
    built = STAGE / "clarvis-lsp"
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps"]
    subprocess.run([*command, "--wheel-dir", str(built), str(REPOSITORY)], check=True)
    (server_wheel,) = built.glob("clarvis_lsp-*.whl")
    jobs = [(target, python) for target in targets for python in PYTHONS]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for line in pool.map(lambda job: download_one(job[0], job[1], server_wheel), jobs):
            print(line, flush=True)


def unpack(wheel: Path, destination: Path) -> None:
    """A wheel's importable files (its root, and `.data/purelib|platlib`); scripts and headers are not needed."""
    with zipfile.ZipFile(wheel) as archive:
        for item in archive.infolist():
            parts = item.filename.split("/")
            if parts[0].endswith(".data"):
                if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
                    continue
                parts = parts[2:]
            target = destination.joinpath(*parts)
            if item.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(item))


def install(target: str) -> None:
    """Replace bundled/libs with `target`'s: shared pure wheels in common/, the rest per Python version."""
    per_python = {python: sorted((STAGE / target / tag(python)).glob("*.whl")) for python in PYTHONS}
    for python, wheels in per_python.items():
        if not wheels:
            raise SystemExit(f"no wheels for {target} Python {python}: run `bundle_server.py download {target}`")
    names = [{wheel.name for wheel in wheels} for wheels in per_python.values()]
    shared = {name for name in set.intersection(*names) if name.endswith("-none-any.whl")}
    shutil.rmtree(LIBS, ignore_errors=True)
    manifest: dict[str, object] = {"target": target, "common": sorted(shared)}
    for name in sorted(shared):
        unpack(STAGE / target / tag(PYTHONS[0]) / name, LIBS / "common")
    for python, wheels in per_python.items():
        own = [wheel for wheel in wheels if wheel.name not in shared]
        for wheel in own:
            unpack(wheel, LIBS / tag(python))
        manifest[tag(python)] = [wheel.name for wheel in own]
    (LIBS / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(f"bundled/libs: {target}, {len(shared)} shared wheels, Pythons {', '.join(PYTHONS)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=["download", "install"])
    parser.add_argument("targets", nargs="+", choices=sorted(TARGETS), metavar="TARGET")
    arguments = parser.parse_args()
    if arguments.step == "download":
        download(arguments.targets)
    else:
        for target in arguments.targets:
            install(target)


if __name__ == "__main__":
    main()

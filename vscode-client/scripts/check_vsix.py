"""Check that each platform's .vsix carries what runs, and only that.

    python3 scripts/check_vsix.py clarvis-lsp-linux-x64-0.1.0.vsix ...

For each file (its target is read from the name): the bundle, the launcher, the grammars; under
`bundled/libs` the pure-Python packages once and, for every CPython version the bundle names, the compiled
modules of pydantic-core, PyYAML, regex and rpds-py built for the target's operating system and processor (read
from the ELF, Mach-O or PE header, not the file name); nothing from e2e/, src/ or scripts/; under 30 MB.
"""

from __future__ import annotations

import re
import struct
import sys
import zipfile
from pathlib import Path

LIMIT_BYTES = 30 * 1000 * 1000
REQUIRED = [
    "extension/package.json",
    "extension/dist/extension.js",
    "extension/bundled/start.py",
    "extension/bundled/libs/manifest.json",
    "extension/bundled/libs/common/clarvis_lsp/__main__.py",
    "extension/bundled/libs/common/pygls/__init__.py",
    "extension/syntaxes/clarvis-markdown.tmLanguage.json",
    "extension/syntaxes/clarvis-json.tmLanguage.json",
]
FORBIDDEN = re.compile(r"^extension/(e2e|src|scripts|build|node_modules)/|\.png$|/__pycache__/")
# The compiled module of each package that needs one, by its directory in the libs.
COMPILED = {"pydantic_core": "_pydantic_core", "yaml": "_yaml", "regex": "_regex", "rpds": "rpds"}
PYTHONS = ("cp310", "cp311", "cp312", "cp313")  # at least these; the manifest may name more

# What the header of a compiled module must say for each target: (format, machine).
EXPECTED = {
    "linux-x64": ("ELF", 0x3E),
    "linux-arm64": ("ELF", 0xB7),
    "darwin-x64": ("Mach-O", 0x01000007),
    "darwin-arm64": ("Mach-O", 0x0100000C),
    "win32-x64": ("PE", 0x8664),
}


def machines(data: bytes) -> tuple[str, set[int]]:
    """The binary format of a compiled module and the processors it is built for (several for universal2)."""
    if data[:4] == b"\x7fELF":
        return "ELF", {struct.unpack_from("<H", data, 18)[0]}
    if data[:4] in (b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe"):
        return "Mach-O", {struct.unpack_from("<I", data, 4)[0]}
    if data[:4] in (b"\xca\xfe\xba\xbe",):  # universal: big-endian list of architectures
        count = struct.unpack_from(">I", data, 4)[0]
        return "Mach-O", {struct.unpack_from(">I", data, 8 + 20 * index)[0] for index in range(count)}
    if data[:2] == b"MZ":
        offset = struct.unpack_from("<I", data, 0x3C)[0]
        return "PE", {struct.unpack_from("<H", data, offset + 4)[0]}
    return "unknown", set()


def check(vsix: Path) -> list[str]:
    match = re.search(r"clarvis-lsp-(\w+-\w+)-", vsix.name)
    if not match or match.group(1) not in EXPECTED:
        return [f"{vsix.name}: no target in the file name"]
    target = match.group(1)
    problems = []
    if vsix.stat().st_size > LIMIT_BYTES:
        problems.append(f"{vsix.name}: {vsix.stat().st_size / 1e6:.1f} MB, over 30 MB")
    with zipfile.ZipFile(vsix) as archive:
        names = archive.namelist()
        present = set(names)
        problems += [f"{vsix.name}: lacks {name}" for name in REQUIRED if name not in present]
        problems += [f"{vsix.name}: carries {name}" for name in names if FORBIDDEN.search(name)]
        manifest = archive.read("extension.vsixmanifest").decode("utf-8")
        if f'TargetPlatform="{target}"' not in manifest:
            problems.append(f"{vsix.name}: the manifest does not name the target {target}")
        versions = sorted({name.split("/")[3] for name in names if re.match(r"extension/bundled/libs/cp3\d+/", name)})
        problems += [f"{vsix.name}: no libraries for {python}" for python in PYTHONS if python not in versions]
        expected_format, expected_machine = EXPECTED[target]
        for python in versions:
            for package, module in COMPILED.items():
                prefix = f"extension/bundled/libs/{python}/{package}/"
                found = [n for n in names if n.startswith(prefix) and re.search(rf"/{module}[^/]*\.(so|pyd)$", n)]
                if not found:
                    problems.append(f"{vsix.name}: no compiled {package} for {python}")
                    continue
                binary_format, built_for = machines(archive.read(found[0])[:4096])
                if binary_format != expected_format or expected_machine not in built_for:
                    problems.append(f"{vsix.name}: {found[0]} is {binary_format} {sorted(built_for)}, not {target}")
    return problems


def main() -> None:
    problems = [problem for argument in sys.argv[1:] for problem in check(Path(argument))]
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems or len(sys.argv) < 2:
        sys.exit(1)
    print(f"checked {len(sys.argv) - 1} .vsix files: each carries its platform's server for CPython 3.10 and later")


if __name__ == "__main__":
    main()

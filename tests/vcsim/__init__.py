"""Build (once, cached) and run the govmomi vCenter simulator wrapper in this folder.

The binary is cached in ``~/.cache/headroom-vcsim/<hash of main.go, go.mod, go.sum>/`` of the
real user (the tests' HOME is a temporary folder), so the ~1-2 minute ``go build`` happens once
per machine and per change of the wrapper.
"""

from __future__ import annotations

import hashlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

HERE = Path(__file__).resolve().parent


def _real_home() -> Path:
    return Path(pwd.getpwuid(os.getuid()).pw_dir)


def binary() -> Path:
    """The built simulator; skips the calling test when ``go`` is not on PATH."""
    go = shutil.which("go")
    if go is None:
        pytest.skip("the vCenter simulator tests need the Go toolchain ('go' is not on PATH)")
    digest = hashlib.sha256()
    for name in ("main.go", "go.mod", "go.sum"):
        digest.update((HERE / name).read_bytes())
    home = _real_home()
    cache = Path(os.environ.get("HEADROOM_VCSIM_CACHE", home / ".cache" / "headroom-vcsim"))
    out = cache / digest.hexdigest()[:16] / "vcsim-headroom"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), GOFLAGS="-mod=mod")
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=".build-")
    os.close(fd)
    try:
        subprocess.run([go, "build", "-o", tmp, "."], cwd=HERE, env=env, check=True,
                       capture_output=True, timeout=900)
        os.replace(tmp, out)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return out


@contextmanager
def serve(*args: str) -> Iterator[tuple[str, int, str, str]]:
    """Run the simulator with flags (``-cluster 4 -host 8 -vm 10``) and yield
    (host, port, user, password) of its HTTPS SDK endpoint on 127.0.0.1."""
    proc = subprocess.Popen([str(binary()), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        if not line:
            proc.kill()
            err = proc.stderr.read() if proc.stderr else ""
            raise RuntimeError(f"vcsim did not start: {err}")
        u = urlsplit(line)
        assert u.hostname == "127.0.0.1" and u.port is not None
        yield u.hostname, u.port, u.username or "user", u.password or "pass"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()

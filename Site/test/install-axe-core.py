#!/usr/bin/env python3
"""Puts axe-core's axe.min.js where the theme's accessibility gate (Site/test/axe.test.js) finds it.

    python3 Site/test/install-axe-core.py [FOLDER]     (default: .build/axe-core; `make browser-deps` runs it)

axe-core is an npm package; the registry this project's CI reaches is PyPI, where a pinned wheel
ships the same file. The wheel is fetched with pip (`pip download --no-deps --require-hashes`: only
that one file, checked against its SHA-256, nothing installed, no pip cache written), the one member
is read out of it and checked against its own SHA-256, then written as FOLDER/axe.min.js (through
a temporary file and a rename, so a half-written file is never left). Nothing happens when the
file there already has the pinned hash. Exit status 1, with the reason, on any failure.

To move to another axe-core, change the four pins below together (the wheel's hash is on its PyPI
page, or `pip hash`; the member's from `sha256sum` of the extracted file) and say so in the commit.
"""

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile

# axe-core 4.12.1 (MPL-2.0), as shipped in axe-playwright-python 0.1.8. (axe-selenium-python's
# newest release, 2.1.6, carries axe-core 3.1.1 from 2018, which lacks rules current browsers and
# WCAG 2.2 need.)
WHEEL = "axe-playwright-python==0.1.8"
WHEEL_SHA256 = "fdd263c998388f1a8e67cad02677e612d946248bd44d163be5e8650ea31f95f8"
MEMBER = "axe_playwright_python/axe.min.js"
MEMBER_SHA256 = "84494fec757e4710dc751c8d7a636e457f4532f08f85c86dc9070133fbff53bc"


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def fail(message):
    print(f"install-axe-core: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(".build", "axe-core")
    target = os.path.join(folder, "axe.min.js")
    if os.path.isfile(target) and not os.path.islink(target):
        with open(target, "rb") as f:
            if sha256(f.read()) == MEMBER_SHA256:
                return
    os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".download-") as work:
        requirements = os.path.join(work, "requirements.txt")
        with open(requirements, "w") as f:
            f.write(f"{WHEEL} --hash=sha256:{WHEEL_SHA256}\n")
        print(f"install-axe-core: downloading {WHEEL} (axe.min.js) with pip")
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "--require-hashes", "--no-cache-dir", "--disable-pip-version-check", "--no-input",
                   "--quiet", "--dest", work, "-r", requirements]
        if subprocess.run(command).returncode != 0:
            fail(f"pip could not download {WHEEL} (is PyPI reachable? is pip installed: python3 -m pip --version?)")
        wheels = [name for name in os.listdir(work) if name.endswith(".whl")]
        if len(wheels) != 1:
            fail(f"expected one wheel from pip, found {wheels}")
        try:
            with zipfile.ZipFile(os.path.join(work, wheels[0])) as wheel:
                data = wheel.read(MEMBER)
        except (KeyError, zipfile.BadZipFile) as e:
            fail(f"{wheels[0]} has no readable {MEMBER}: {e}")
        digest = sha256(data)
        if digest != MEMBER_SHA256:
            fail(f"{MEMBER} in {wheels[0]} has SHA-256 {digest}, not the pinned {MEMBER_SHA256}")
        partial = os.path.join(work, "axe.min.js")
        with open(partial, "wb") as f:
            f.write(data)
        os.replace(partial, target)
    print(f"install-axe-core: {target} (SHA-256 {MEMBER_SHA256[:12]}…)")


if __name__ == "__main__":
    main()

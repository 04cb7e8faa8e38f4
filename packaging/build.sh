#!/usr/bin/env bash
# Build the Headroom one-folder bundle (dist/headroom/) with PyInstaller and check it:
# `headroom --self-test` offscreen, then a command-line import of a tiny RVTools workbook.
# Usage: packaging/build.sh [PYTHON_BIN_DIR]   (default: .venv/bin, with requirements/package.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.venv/bin}
start=$(date +%s)
"$BIN/pyinstaller" --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/headroom.spec
built=$(date +%s)
echo "bundle: dist/headroom ($(du -sh dist/headroom | cut -f1)), built in $((built - start)) s"

export QT_QPA_PLATFORM=offscreen
dist/headroom/headroom --self-test
dist/headroom/headroom examples >/dev/null

# the importers are bundled too: a two-VM RVTools workbook made with the build venv's openpyxl
smoke=$(mktemp -d)
trap 'rm -rf "$smoke"' EXIT
"$BIN/python" - "$smoke/rv.xlsx" <<'PY'
import sys
from openpyxl import Workbook
wb = Workbook(write_only=True)
ws = wb.create_sheet("vHost")
ws.append(["Host", "Datacenter", "Cluster", "Speed", "# CPU", "Cores per CPU", "HT Active",
           "# Memory", "ESX Version"])
ws.append(["esx1", "DC", "CL", 2600, 2, 16, "True", 524288, "VMware ESXi 8.0.2 build-1"])
ws = wb.create_sheet("vInfo")
ws.append(["VM", "Powerstate", "Template", "CPUs", "Memory", "Host", "Cluster", "Datacenter",
           "OS according to the configuration file"])
ws.append(["web1", "poweredOn", "False", 4, 8192, "esx1", "CL", "DC", "Ubuntu Linux (64-bit)"])
ws.append(["tpl", "poweredOff", "True", 2, 4096, "esx1", "CL", "DC", "Windows"])
wb.save(sys.argv[1])
PY
dist/headroom/headroom import-rvtools "$smoke/rv.xlsx" -o "$smoke/estate.json"
dist/headroom/headroom evaluate "$smoke/estate.json" >/dev/null
echo "package: ok in $(( $(date +%s) - start )) s"

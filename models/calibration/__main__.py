"""``python -m models.calibration``: refit every coefficient from the cases and write the
table, then its cross-validation (``--no-cv``: the table only).

It stands above both :mod:`models.calibration.fit` (the table) and
:mod:`models.calibration.crossval` (which refits with the fit's routines), so neither imports
the other's caller.
"""

from __future__ import annotations

import sys

from models.calibration import crossval
from models.calibration.fit import print_table, write_table
from models.core import coefficients


def main(argv: list[str] | None = None) -> int:
    doc = write_table()
    print(f"wrote {len(doc['coefficients'])} fitted coefficients to {coefficients.TABLE_PATH}")
    if "--no-cv" not in (argv or []):
        cv = crossval.write_stored()
        print(f"wrote the cross-validation of {len(cv['comparisons'])} figures to"
              f" {crossval.STORED_PATH}")
    print_table(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

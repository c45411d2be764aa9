"""``python -m tools.i18n extract``: rebuild the template and update every language's catalogue.
``python -m tools.i18n check``: run the catalogue checks (tests/i18n).
"""

from __future__ import annotations

import subprocess
import sys

from babel.messages.pofile import read_po, write_po

from tools.i18n.extract import ROOT, template
from ui.i18n import LOCALES


def extract() -> int:
    """Write messages.pot and merge it into every ``<lang>.po`` (new msgids untranslated)."""
    pot = template()
    path = LOCALES / "messages.pot"
    if path.exists():  # the same msgids: the same file (no date churn in the diff)
        with path.open("rb") as f:
            old = read_po(f)
        if {(m.context, m.id) for m in old} == {(m.context, m.id) for m in pot}:
            pot.creation_date = old.creation_date
    with path.open("wb") as f:
        write_po(f, pot, width=100, no_location=True, omit_header=False, sort_output=True)
    for path in sorted(LOCALES.glob("*.po")):
        with path.open("rb") as f:
            cat = read_po(f, locale=path.stem)
        cat.update(pot, no_fuzzy_matching=True)
        with path.open("wb") as f:
            write_po(f, cat, width=100, no_location=True, ignore_obsolete=True,
                     sort_output=True)
    print(f"{len(pot)} msgids in messages.pot; updated "
          f"{', '.join(p.name for p in sorted(LOCALES.glob('*.po'))) or 'no language'}")
    return 0


def check() -> int:
    """The catalogue checks: every msgid translated, placeholders, plurals, Discord's limits."""
    return subprocess.call([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0",
                            "-q", str(ROOT / "tests" / "i18n")])


def main() -> int:
    """Run the sub-command named on the command line."""
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "extract":
        return extract()
    if what == "check":
        return check()
    print("usage: python -m tools.i18n extract|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())

"""Every link of a report and of a site made from the wheel leads somewhere.

The wheel is built from this checkout and unpacked into a folder of its own (its code and data
only: the dependencies are this environment's), and the suite is run from an unrelated folder
against a broken engine, so that the report has failures, likely causes and rule links; then a
site is built from its results. Each ``href`` and ``src`` of the report, the site and the JUnit
file is followed:

* a link into the rulebook published for this version is mapped onto the rulebook built from
  this checkout (``tox -e docs``): its page must exist and hold the anchor;
* a relative link, or a ``file:`` one, must name a file that exists, and its anchor an element;
* any other address is an error: nothing else is linked.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from guinote_conformance import __version__
from guinote_conformance.base.paths import published_rulebook
from tests.docs.conftest import BuiltSite
from tests.harness.wheel import unpack_wheel, wheel_suite

#: served in its own process: a broken engine patches the reference engine's modules where it runs
BROKEN = "serve:tests.broken_engines.engines:caballo_above_sota"
#: where it fails (DECK-06), and many rules besides: a report with failures and many rule links
AREAS = ("--area", "deck", "--area", "free_phase")


class Links(HTMLParser):
    """The links of a page (``href``, ``src``) and its anchors (``id``, ``name``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.anchors: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in {"href", "src"} and value:
                self.links.append(value)
            if name == "id" or (tag == "a" and name == "name"):
                self.anchors.add(value or "")


def read(page: Path) -> Links:
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def broken_links(pages: list[Path], rulebook: Path) -> list[str]:
    """Each link of ``pages`` that leads nowhere, with the page that has it."""
    published = published_rulebook(__version__)
    broken: list[str] = []
    anchors: dict[Path, set[str]] = {}

    def has(target: Path, fragment: str) -> bool:
        if not target.is_file():
            return False
        if not fragment or target.suffix != ".html":
            return True
        if target not in anchors:
            anchors[target] = read(target).anchors
        return unquote(fragment) in anchors[target]

    for page in pages:
        links = read(page).links if page.suffix == ".html" else re.findall(r'(?:href|url)="([^"]+)"', page.read_text())
        for link in links:
            parts = urlsplit(link)
            if link.startswith(published + "/"):
                target = rulebook / unquote(link[len(published) + 1 :].split("#")[0])
            elif parts.scheme == "file":
                target = Path(unquote(parts.path))
            elif parts.scheme in {"", None} and not parts.netloc:
                target = (page.parent / unquote(parts.path)) if parts.path else page
            elif parts.scheme == "data":
                continue
            else:
                broken.append(f"{page.name}: {link}: an address that is neither the rulebook nor a file")
                continue
            if not has(target, parts.fragment):
                broken.append(f"{page.name}: {link}")
    return broken


@pytest.fixture(scope="module")
def unpacked_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack_wheel(tmp_path_factory.mktemp("wheel"))


suite = wheel_suite


def test_every_link_of_a_report_and_a_site_made_from_the_wheel_leads_somewhere(
    site: BuiltSite, unpacked_wheel: Path, tmp_path: Path
) -> None:
    ran = suite(
        unpacked_wheel,
        tmp_path,
        "run",
        "--engine",
        BROKEN,
        "--area",
        "deck",
        "--area",
        "free_phase",
        "--report-dir",
        "reports",
    )
    assert ran.returncode == 1, ran.stdout[-3000:] + ran.stderr[-3000:]
    located = suite(unpacked_wheel, tmp_path, "--version")
    assert located.returncode == 0 and __version__ in located.stdout
    built = suite(unpacked_wheel, tmp_path, "site", "reports/results.json", "--out", "site")
    assert built.returncode == 0, built.stdout + built.stderr

    report = tmp_path / "reports"
    pages = [report / "index.html", report / "junit.xml", *sorted((tmp_path / "site").rglob("*.html"))]
    links = sum(len(read(page).links) for page in pages if page.suffix == ".html")
    rule_links = (report / "index.html").read_text(encoding="utf-8").count(published_rulebook(__version__))
    assert links > 100 and rule_links > 10, (links, rule_links)
    assert not (broken := broken_links(pages, site.html)), (
        f"{len(broken)} of {links} links lead nowhere:\n" + "\n".join(broken[:40])
    )


def test_a_report_links_to_a_local_build_when_asked(site: BuiltSite, unpacked_wheel: Path, tmp_path: Path) -> None:
    """``$GUINOTE_RULEBOOK_URL`` naming a local build links there: the folder of a bilingual build
    (``tox -e docs``) stands for its English edition."""
    bilingual = site.html.parent if (site.html.parent / "en" / "index.html").is_file() else site.html
    ran = suite(unpacked_wheel, tmp_path, "run", "--engine", BROKEN, *AREAS, "--report-dir", "reports",
                rulebook=str(bilingual))  # fmt: skip
    assert ran.returncode == 1, ran.stdout[-3000:] + ran.stderr[-3000:]
    text = (tmp_path / "reports" / "index.html").read_text(encoding="utf-8")
    assert f'href="{site.html.as_uri()}/rulebook/' in text
    assert published_rulebook(__version__) not in text
    assert not broken_links([tmp_path / "reports" / "index.html"], site.html)

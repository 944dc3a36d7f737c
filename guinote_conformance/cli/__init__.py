"""``guinote-conformance``: run the rulebook's scenarios against any engine and report.

Examples::

    guinote-conformance run                                  # the reference engine, every profile
    guinote-conformance run --engine "cmd:node my_engine.js" --expectations known.toml
    guinote-conformance run --engine py:my_pkg.adapter:make_engine --profile ludoteka --area cantes
    guinote-conformance rules --json                        # the rule index with its scenarios
    guinote-conformance validate --engine "cmd:./my-engine"  # is the protocol harness sound?

Every user mistake ends with one line ``error: ...`` and the exit code of
:mod:`guinote_conformance.base.exit_codes`, never a traceback.

In: the command line. Out: the commands' output and their exit code. The command line only parses
options and hands them to the stages. This module makes the typer ``app`` (its help, ``--version``)
and registers the commands in the order ``--help`` lists them; they are grouped in modules: the
runs and their results files (:mod:`~guinote_conformance.cli.results`: run, report, expectations), the
catalogue (:mod:`~guinote_conformance.cli.catalogue`: rules, profiles, flags, export), the protocol harness
(:mod:`~guinote_conformance.cli.harness`: validate, smoke), the realisations (:mod:`~guinote_conformance.cli.realise`),
a variant's quick check (:mod:`~guinote_conformance.cli.variant`: check-variant)
and differential fuzzing (:mod:`~guinote_conformance.cli.fuzz`: compare, replay); what they share is in
:mod:`~guinote_conformance.cli.common`. The scaffolding of a regional variant (new-flag, new-value,
new-custom) and the badge and the site register their own commands
(:mod:`guinote_conformance.catalogue.scaffold`, :mod:`guinote_conformance.report.site`).
"""

from __future__ import annotations

from typing import Annotated

import typer

from guinote_conformance import __version__
from guinote_conformance.adapters.gcp.messages import PROTOCOL_NAME
from guinote_conformance.catalogue.scaffold import register as register_scaffold
from guinote_conformance.cli import catalogue, club, fuzz, harness, realise, results, variant
from guinote_conformance.cli.common import exit_codes
from guinote_conformance.engines.specs import FORMS
from guinote_conformance.report.site import register as register_site

app = typer.Typer(
    help=f"Check a Guiñote engine against the rulebook's scenarios.\n\nEngines (--engine): {FORMS}.",
    epilog=exit_codes(),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # plain click help: readable placeholders, no box drawing
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"guinote-conformance {__version__} (protocol {PROTOCOL_NAME})")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="print the version and exit")
    ] = False,
) -> None:
    pass


#: The commands in the order ``--help`` lists them, each with its epilog (its examples).
COMMANDS = (
    (results.run, results.RUN_EPILOG),
    (catalogue.rules, catalogue.RULES_EPILOG),
    (catalogue.profiles, catalogue.PROFILES_EPILOG),
    (catalogue.flags, catalogue.FLAGS_EPILOG),
    (club.club, club.CLUB_EPILOG),
    (harness.validate, harness.VALIDATE_EPILOG),
    (harness.smoke, harness.SMOKE_EPILOG),
    (catalogue.export, catalogue.EXPORT_EPILOG),
    (realise.realise, realise.REALISE_EPILOG),
    (fuzz.compare, fuzz.COMPARE_EPILOG),
    (fuzz.replay, fuzz.REPLAY_EPILOG),
    (results.report, results.REPORT_EPILOG),
    (results.expectations, results.EXPECTATIONS_EPILOG),
)
for _command, _epilog in COMMANDS:
    app.command(epilog=_epilog)(_command)

# new-flag, new-value, new-custom: scaffolding for a regional variant (guinote_conformance.catalogue.scaffold)
register_scaffold(app)
register_site(app)  # badge and site: the pages and badges of results files (guinote_conformance.report.site)
# check-variant: what CI checks of a variant, on what it touched (tox -e variant; guinote_conformance.cli.variant)
app.command("check-variant")(variant.check_variant)


def main() -> None:
    app()

"""Every scenario of the suite as pytest tests, for the plugin to run against engines.

``guinote-conformance run`` runs this module. To run the scenarios inside a pytest project of
your own, load the plugin and import the tests into one of your test modules::

    # conftest.py
    pytest_plugins = ["guinote_conformance.plugin"]

    # test_guinote.py
    from guinote_conformance.suite import *  # noqa: F403

and run ``pytest --engine "cmd:./my-engine"`` (every option of the plugin is under
``pytest --help``, group "Guiñote conformance").
"""

import pytest
from pytest_bdd import scenarios

from guinote_conformance.run.language import session_root

# The plugin parametrizes guinote_case with (engine, profile); pytest-bdd resolves step
# fixtures at run time, so the parameter must be requested statically here.
pytestmark = pytest.mark.usefixtures("guinote_case")

# the English feature files, or the Spanish ones generated from them (--language es)
scenarios(str(session_root()))

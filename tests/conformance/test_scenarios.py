"""Every scenario of features/, run against the selected engines under each of their profiles."""

import pytest
from pytest_bdd import scenarios

# The plugin parametrizes guinote_case with (engine, profile); pytest-bdd resolves step
# fixtures at run time, so the parameter must be requested statically here.
pytestmark = pytest.mark.usefixtures("guinote_case")

scenarios(".")

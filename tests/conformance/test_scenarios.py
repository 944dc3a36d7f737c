"""Every scenario of features/, run against the selected engines under each of their profiles.

The repository runs the packaged tests and steps, exactly as an installed suite does.
"""

from guinote_conformance.suite import *  # noqa: F403

"""The engine under test, as the suite holds it.

In: an engine spec (``reference``, ``py:module:factory``, ``cmd:...``, ``serve:...``). Out: an
:class:`~guinote_conformance.adapters.interface.Engine`, wrapped as the suite needs it: its explicit draw played on the
suite's side for an engine that draws by itself (:mod:`~guinote_conformance.engines.explicit_draw`), and
every call recorded (:mod:`~guinote_conformance.engines.recording`) so that a failure can be replayed.
"""

"""The parts of :mod:`guinote_conformance.adapters.subprocess_adapter`, which assembles them into
:class:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine`: an engine written in any language, run
as a subprocess that speaks the conformance protocol (GCP).

* :mod:`guinote_conformance.adapters.wire.failures`: every way the engine can fail, as an exception that says what
  was sent, what came back and the end of the engine's stderr;
* :mod:`guinote_conformance.adapters.wire.pipes`: the engine's stdout read with a deadline (by ``select``, or by a
  reader thread), its stderr drained into a bounded ring of lines;
* :mod:`guinote_conformance.adapters.wire.process`: one launched engine process: a request framed as one line, its
  answer read back with a deadline and a bound, the request sent ahead of reading its answer;
* :mod:`guinote_conformance.adapters.wire.process_tree`: no process outlives the engine (its process group, the
  processes that carry the launch's mark);
* :mod:`guinote_conformance.adapters.wire.game`: :class:`~guinote_conformance.adapters.wire.game.SubprocessGame`, one
  game inside the
  engine process, rebuilt after a relaunch.
"""

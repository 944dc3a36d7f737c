"""The reference as oracle: how an engine's answer differs from the reference's, and which rule that is.

In: the steps of a game (an action, the answer, the events, the state after it) on both engines, or
a failed run's transcript. Out: the first difference between two steps
(:mod:`~guinote_conformance.oracle.steps`), the divergence and its :class:`~guinote_conformance.oracle.divergence.Cause`
named by the rule that decides what differs (:mod:`~guinote_conformance.oracle.divergence`,
:mod:`~guinote_conformance.oracle.owners`, :mod:`~guinote_conformance.oracle.rules`), the first divergence of a failed
run's transcript
(:mod:`~guinote_conformance.oracle.transcript`), and, over a whole results file, the likely causes of its
failures (:mod:`~guinote_conformance.oracle.causes`).
"""

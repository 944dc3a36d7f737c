"""The reference as oracle: how an engine's answer differs from the reference's, and which rule that is.

In: the steps of a game (an action, the answer, the events, the state after it) on both engines, or
a failed run's transcript. Out: the first difference between two steps
(:mod:`~conformance.oracle.steps`), the divergence and its :class:`~conformance.oracle.divergence.Cause`
named by the rule that decides what differs (:mod:`~conformance.oracle.divergence`,
:mod:`~conformance.oracle.owners`, :mod:`~conformance.oracle.rules`), the first divergence of a failed run's transcript
(:mod:`~conformance.oracle.transcript`), and, over a whole results file, the likely causes of its
failures (:mod:`~conformance.oracle.causes`).
"""

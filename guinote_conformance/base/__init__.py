"""What every stage uses: the errors that end a command and their exit codes, the checks of option
values, the policy for an engine's untrusted text, the ``file:line`` reading of TOML entry files,
and the package's paths.

In: nothing of the suite's. Out: plain values and exceptions; this stage imports no other.
"""

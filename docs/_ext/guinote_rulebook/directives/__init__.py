"""One module per directive of the rulebook."""

"""The contract kit: recorded cases, their replay and comparison with goldens,
recording new cases and checking the live services for drift."""

"""CP-SAT models for the pairing solitaires (Half Moon first)."""

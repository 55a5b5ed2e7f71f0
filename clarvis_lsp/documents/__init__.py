"""Position-keeping parsers for the Clarvis file kinds."""

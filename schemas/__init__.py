"""JSON Schemas for the Clarvis file kinds, shipped as package data."""

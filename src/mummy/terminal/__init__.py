"""Terminal front ends: thin loops over the engines."""

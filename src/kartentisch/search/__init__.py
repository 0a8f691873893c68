"""Search: exact solvers and search-based bots."""

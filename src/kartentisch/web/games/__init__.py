"""Table adapters, one module per game, each exposing ``TABLE_GAME``."""

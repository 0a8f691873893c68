"""The ``kartentisch`` command: play, replay and read the rules in the terminal."""

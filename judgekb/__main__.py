"""``python -m judgekb`` runs the command line."""

from judgekb.cli import command_line

command_line()

"""``python -m judgekb`` runs the command line."""

from judgekb.cli import main

main()

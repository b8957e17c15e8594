"""The web app judges use at the table (app.py), its pages, guards and text filters, the offline copy and the static export."""

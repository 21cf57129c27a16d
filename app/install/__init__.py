"""Turning something found elsewhere (a registry entry, a `.mcpb` bundle, an install link, a README
snippet with placeholders) into a server entry: what it is, what the person must fill in, and the
entry once they have. No Qt here; `app/ui/install_dialog.py` shows a plan, the CLI asks on a terminal.
"""

"""Sphinx's configuration for kiln's docs: the Markdown pages (MyST) and the
API reference autodoc reads from the installed package's docstrings.
`make docs` builds them with warnings as errors."""
import os
import sys

import kiln

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "_ext"))

project = "kiln"
release = kiln.__version__
extensions = ["myst_parser", "sphinx.ext.autodoc", "kiln_names"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}
html_theme = "alabaster"

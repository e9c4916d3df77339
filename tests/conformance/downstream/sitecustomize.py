"""Run by Python at start-up in the downstream suites' pytest processes
(run.py puts this folder on PYTHONPATH): ``cupy`` and ``cupyx`` are kiln,
through the same name-only shim whole programs run through."""
import name_shim

name_shim.install()

"""pytest plugin for runs under compute-sanitizer: tests that would start
after KILN_TEST_DEADLINE (a Unix time) are skipped, so a run ends by itself and
the sanitizer still prints its error summary instead of being killed mid-test;
a test still running after KILN_TEST_STALL seconds has every thread's Python
stack dumped to the log, to show where it waits."""
import faulthandler
import os
import time

import pytest

_DEADLINE = float(os.environ.get("KILN_TEST_DEADLINE", "inf"))
_STALL = float(os.environ.get("KILN_TEST_STALL", "0"))
# pytest captures file descriptor 2 during a test; the dump goes to the log
# through a copy of it taken before capturing starts.
_LOG = os.fdopen(os.dup(2), "w")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if time.time() > _DEADLINE:
        pytest.skip("past KILN_TEST_DEADLINE (sanitizer run's time limit)")
    if _STALL > 0:
        faulthandler.dump_traceback_later(_STALL, file=_LOG)


def pytest_runtest_teardown(item):
    faulthandler.cancel_dump_traceback_later()

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Python package's in-VM suite: pytest on tests/vm/python (the build's
# package, build/python over build/lib, on Debian's /usr/bin/python3),
# counted as a kselftest suite is (tests/run-pytest.sh prints its Totals
# line). Installed as build/tests/vm/test_python, so that
# `make vm-test SUITES=python` runs it like any other suite.
top=$(cd "$(dirname "$0")/../../.." && pwd)
exec "$top/tests/run-pytest.sh" - test_python "$top/tests/vm/python" -v

"""Runs before any test module: ``minimind_lab.runtime.REPRODUCIBLE_CPU_ENV``.

``python3 run.py test`` sets these already; this covers a direct ``pytest`` call. Notebook kernels
started by nbval inherit them. They must be in place before torch computes anything.

With ``MINIMIND_LAB_ARITHMETIC=native`` (what ``tests/test_other_arithmetic.py`` sets for its
second run of the lessons) nothing is set: torch's own kernels, MKL's own dispatch and the thread
count given, as in JupyterLab on a learner's machine.
"""

import os

from minimind_lab.runtime import ARITHMETIC_FLAG, REPRODUCIBLE_CPU_ENV, reproducible_cpu

if os.environ.get(ARITHMETIC_FLAG) != "native":
    for _name, _value in REPRODUCIBLE_CPU_ENV.items():
        os.environ.setdefault(_name, _value)
    if all(os.environ[name] == value for name, value in REPRODUCIBLE_CPU_ENV.items()):
        reproducible_cpu()

"""Runs before any test module: ``minimind_lab.runtime.REPRODUCIBLE_CPU_ENV``.

``python3 run.py test`` sets these already; this covers a direct ``pytest`` call. Notebook kernels
started by nbval inherit them, so stored outputs (made with ``python3 run.py refresh``) match on
every x86 machine. They must be in place before torch computes anything.
"""

import os

from minimind_lab.runtime import REPRODUCIBLE_CPU_ENV, reproducible_cpu

for _name, _value in REPRODUCIBLE_CPU_ENV.items():
    os.environ.setdefault(_name, _value)
if all(os.environ[name] == value for name, value in REPRODUCIBLE_CPU_ENV.items()):
    reproducible_cpu()

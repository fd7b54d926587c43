"""``python -m sukno …`` runs the ``sukno`` command."""

import sys

from sukno import main

sys.exit(main())

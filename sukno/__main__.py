"""``python -m sukno …`` runs the ``sukno`` command."""

import sys

from net.cli.main import main

sys.exit(main())

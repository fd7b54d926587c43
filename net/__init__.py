"""The club's edges: SSH and its sessions, the modes people meet, the house, the nodes, the command line."""

import warnings

# asyncssh names cryptography's DSA types when it is imported, and cryptography 51 on warns once per name:
# ten lines on stderr before every command's own output.  The club never offers or accepts DSA keys.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh\.")

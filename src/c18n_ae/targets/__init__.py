"""Where things run: the transport (local shell, SSH), remote builds and runs, the description of
a machine and the ABI of its binaries. May import common and experiments."""

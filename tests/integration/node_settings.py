"""The kill-a-node test's web nodes: the production settings, plus the switch that kills a node
after a commit and before its answer (tests/integration/die_after_commit.py). Outermost, so
every other middleware has run on the answer that is never sent."""

from casino.settings import *  # noqa: F403
from casino.settings import MIDDLEWARE

MIDDLEWARE = ["tests.integration.die_after_commit.DieAfterCommitMiddleware", *MIDDLEWARE]

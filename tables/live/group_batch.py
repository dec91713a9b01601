"""A batch of (group, message) pairs sent through channels-redis in two round trips per Redis
server, however many groups it names.

channels-redis's `group_send` costs four round trips per group (drop the expired members,
read the members, drop the members' expired messages, an EVAL that ships its script's text
each time), and under the floor load the drain sends a batch to dozens of groups: that loop
was the drain's whole cost. Here:

1. one pipeline per server holding groups: each group's expired members dropped and the rest
   read (`listened.group_members`); a group without members costs nothing more;
2. one pipeline per server holding member channels: each channel key touched has its expired
   messages dropped, then each (group, message) is delivered to the group's members on that
   server by a script of our own, loaded in the same pipeline the first time a connection
   runs it and called by its SHA after that, so its text crosses the wire once.

The consumers must read exactly what `group_send` would have written: the channel keys, the
message each key holds (with the `__asgi_channel__` the receiving side dispatches on), its
serialization and each channel's capacity all come from the layer's own
`_map_channel_keys_to_connection`, the helper `group_send` itself uses. The contract tests in
tests/integration/test_group_batch.py fail if that helper or the stored format changes.
"""

from __future__ import annotations

import hashlib
import logging
import time
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from channels_redis.core import RedisChannelLayer
from redis.exceptions import NoScriptError

from tables.live.listened import group_members

logger = logging.getLogger(__name__)

# KEYS: the member channels' keys on one server. ARGV: each key's message, then each key's
# capacity, then the score to file the messages under (the send time) and the keys' lifetime.
# A channel at capacity is skipped, not failed: one stalled page must not stop the others.
DELIVER_TO_MEMBERS = """
local count = #KEYS
local score = ARGV[2 * count + 1]
local lifetime = ARGV[2 * count + 2]
local skipped = 0
for i = 1, count do
    if redis.call('ZCARD', KEYS[i]) < tonumber(ARGV[count + i]) then
        redis.call('ZADD', KEYS[i], score, ARGV[i])
        redis.call('EXPIRE', KEYS[i], lifetime)
    else
        skipped = skipped + 1
    end
end
return skipped
"""
DELIVER_SHA = hashlib.sha1(DELIVER_TO_MEMBERS.encode()).hexdigest()
# A channel's messages are read lowest score first, and equal scores in the order of their
# bytes (random-prefixed): each delivery of a batch is filed this much after the one before.
SCORE_STEP_SECONDS = 1e-6
# The Redis clients (one per event loop and server) whose server has run the script: the
# others get a SCRIPT LOAD at the head of their pipeline. Weak: a closed loop's clients go.
_script_loaded: weakref.WeakSet[Any] = weakref.WeakSet()


@dataclass
class _Delivery:
    """One (group, message) pair's call of the script on one server."""

    number: int  # the pair's place among the batch's deliveries
    keys: list[bytes]
    arguments: list[Any]


@dataclass
class _ServerBatch:
    keys: dict[bytes, None] = field(default_factory=dict)  # every channel key touched, once
    deliveries: list[_Delivery] = field(default_factory=list)


async def send_batch(layer: RedisChannelLayer, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each (group, message) pair to the group's members, in the order given."""
    members = await group_members(layer, {group for group, _ in messages})
    if not members:
        return
    now = time.time()
    lifetime = int(layer.expiry)
    servers: dict[int, _ServerBatch] = defaultdict(_ServerBatch)
    sent: list[tuple[tuple[str, ...], int]] = []  # each delivery's groups and their members
    for groups, message in _one_per_message(messages):
        channels = list(dict.fromkeys(c for group in groups for c in members.get(group, ())))
        if not channels:
            continue
        number = len(sent)
        sent.append((groups, len(channels)))
        score = now + number * SCORE_STEP_SECONDS
        by_server, payloads, capacities = layer._map_channel_keys_to_connection(channels, message)
        for index, keys in by_server.items():
            server = servers[index]
            server.keys.update(dict.fromkeys(keys))
            arguments = [payloads[key] for key in keys] + [capacities[key] for key in keys]
            server.deliveries.append(_Delivery(number, keys, [*arguments, score, lifetime]))
    skipped = [0] * len(sent)
    cutoff = int(now) - int(layer.expiry)
    for index, server in servers.items():
        for number, count in await _deliver(layer.connection(index), server, cutoff):
            skipped[number] += count
    for (groups, member_count), count in zip(sent, skipped, strict=True):
        if count:  # the same line group_send logs, so the floor's logs read alike
            group = ", ".join(groups)
            logger.info("%s of %s channels over capacity in group %s", count, member_count, group)


def _one_per_message(
    messages: list[tuple[str, dict[str, Any]]],
) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """Neighbouring pairs that carry the same message (a table's notice to its own group and
    then to the floor's) as one delivery to all their groups' members. All the channels of a
    web process share one Redis key, and the layer stores one entry per key naming every
    channel of it: so a process's tablets and floor pages get the notice in one entry, where
    two groups sent apart stored, and its reader took, one each. Only neighbours merge, so
    every member still hears its messages in the order given."""
    merged: list[tuple[tuple[str, ...], dict[str, Any]]] = []
    for group, message in messages:
        if merged and merged[-1][1] is message:
            merged[-1] = ((*merged[-1][0], group), message)
        else:
            merged.append(((group,), message))
    return merged


async def _deliver(connection: Any, server: _ServerBatch, cutoff: int) -> list[tuple[int, int]]:
    """One server's deliveries in one pipeline: each delivery's number and skipped count."""
    pipe = connection.pipeline(transaction=False)
    for key in server.keys:
        pipe.zremrangebyscore(key, min=0, max=cutoff)
    loading = connection not in _script_loaded
    if loading:
        pipe.script_load(DELIVER_TO_MEMBERS)
    _call_all(pipe, server.deliveries)
    # Errors come back in place: a NOSCRIPT (the server restarted, or flushed its scripts,
    # since this client loaded it) is answered by loading it again, anything else raised.
    answers = await pipe.execute(raise_on_error=False)
    _raise_first(answers, but=NoScriptError)
    _script_loaded.add(connection)
    outcomes = answers[len(server.keys) + loading :]
    done = list(zip(server.deliveries, outcomes, strict=True))
    missed = [delivery for delivery, outcome in done if isinstance(outcome, NoScriptError)]
    if missed:
        # Every delivery of the pipeline, unless the scripts were flushed in its midst:
        # then those few arrive after the ones that got through.
        retry = connection.pipeline(transaction=False)
        retry.script_load(DELIVER_TO_MEMBERS)
        _call_all(retry, missed)
        again = (await retry.execute(raise_on_error=False))[1:]
        _raise_first(again)
        done += list(zip(missed, again, strict=True))
    return [
        (delivery.number, int(outcome))
        for delivery, outcome in done
        if not isinstance(outcome, NoScriptError)
    ]


def _call_all(pipe: Any, deliveries: list[_Delivery]) -> None:
    for delivery in deliveries:
        pipe.evalsha(DELIVER_SHA, len(delivery.keys), *delivery.keys, *delivery.arguments)


def _raise_first(answers: list[Any], but: type[Exception] | None = None) -> None:
    for answer in answers:
        if isinstance(answer, Exception) and not (but is not None and isinstance(answer, but)):
            raise answer

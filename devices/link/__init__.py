"""The host end of SHOE-LINK: sessions, delivery, liveness and reconnection over a pyserial port.

A reader process wires it like this (the sink is the product's, backed by the database)::

    reader = ShoeLinkReader(url, sink, LinkSettings(table_id="SYM-03"))
    stop_on_signals(reader.stop)
    reader.run()  # returns after SIGTERM / SIGINT, having reported its counters

`LinkSink` (devices/link/sink.py) is everything the link asks of the sink. The link ACKs an event
only after `sink.commit` returns, and commits each boot's events in seq order, never past a gap.
"""

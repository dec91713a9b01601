"""The host end of SHOE-LINK: sessions, delivery, liveness and reconnection over a pyserial port."""

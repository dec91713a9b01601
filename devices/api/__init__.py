"""The device registry's REST API: pit bosses enrol, bind, approve, retire; dealers enter
cards the shoe could not read."""

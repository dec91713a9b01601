import sys

from devices.simulator.cli import main

sys.exit(main())

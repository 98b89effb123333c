"""``python -m controller.simfabric --devices FIRST:COUNT --address HOST:PORT``."""

from controller.simfabric.server import main

raise SystemExit(main())

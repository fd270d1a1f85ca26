"""The production recipe (nginx, systemd, environment) and ``make deploy-check``, which runs it."""

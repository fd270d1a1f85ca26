"""Load benchmark: bots playing real moves against the product and a bare Channels floor."""

"""The host side of UCMP (§6.1): flow aging -> DSCP bucket, as kernel rules made from a
route artifact. :mod:`controller.host.aging` builds the rules (pure),
:mod:`controller.host.nft` installs and removes them (the I/O edge)."""

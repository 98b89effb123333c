"""Host flow aging kept by the daemon (UCMP §6.1: "a new alpha is broadcast to the
hosts"): the nftables DSCP rules of :mod:`controller.host` in every network namespace
``[hosts] netns`` names, made from the source routes' buckets and ``[hosts] alpha``.

:func:`rules_for` is the check (run with the config's other checks, before anything is
written); :func:`apply_all` installs the rules where they differ from what the daemon
last installed (start, reload, new routes after a failure); each namespace's table is
replaced in one ``nft -f`` transaction."""

from __future__ import annotations

from controller.daemon.config import ConfigError, NetConfig
from controller.errors import UroError
from controller.host import aging, nft


def rules_for(cfg: NetConfig, routes) -> aging.AgingRules | None:
    """The flow-aging rules for ``routes`` under ``cfg`` (None: no host namespaces given).
    A namespace that does not exist is an error when the rules are applied (logged, in
    the status), not here: `uro emulate up` checks the config before it creates them."""
    if not cfg.hosts.netns:
        return None
    if routes.source is None:
        raise ConfigError(f"{cfg.path}: [hosts]: netns: no source routes to take buckets from")
    try:
        r = aging.rules_for_routes(routes.source, cfg.hosts.alpha, what="[routing.source]")
        nft.check_tools(None)      # the namespaces may not exist yet (`uro emulate up` checks first)
    except UroError as e:
        raise ConfigError(f"{cfg.path}: [hosts]: {e}") from None
    return r


def apply_all(rules: aging.AgingRules | None, netns: tuple[str, ...], applied: dict, pool_map=map) -> dict:
    """Install ``rules`` in every namespace of ``netns`` whose table is not already
    ``rules`` (``applied``: netns -> rules the daemon installed there, updated). Returns
    {netns: error or None} for the namespaces written."""
    if rules is None:
        return {}
    todo = [ns for ns in netns if applied.get(ns) != rules]

    def one(ns: str) -> str | None:
        try:
            nft.apply(rules, ns, enable_accounting=True)
        except UroError as e:
            return str(e)
        return None
    results = dict(zip(todo, pool_map(one, todo)))
    for ns, err in results.items():
        if err is None:
            applied[ns] = rules
        else:
            applied.pop(ns, None)
    return results


class HostAging:
    """The flow-aging rules the daemon keeps in the hosts' namespaces: the current rules
    (None: no ``[hosts] netns``), what each namespace holds and each one's last error."""

    def __init__(self, log):
        self.log = log
        self.rules: aging.AgingRules | None = None
        self.applied: dict[str, aging.AgingRules] = {}   # netns -> rules installed there
        self.errors: dict[str, str] = {}                 # netns -> last error

    def sync(self, netns: tuple[str, ...], pool_map=map) -> dict:
        """Bring every namespace of ``netns`` to :attr:`rules` (UCMP §6.1); forget the ones
        no longer named. Returns {netns: error or None} for the namespaces written."""
        for ns in list(self.applied):
            if ns not in netns:
                self.applied.pop(ns)
        results = apply_all(self.rules, netns, self.applied, pool_map)
        for ns, err in results.items():
            if err is None:
                self.errors.pop(ns, None)
            else:
                self.errors[ns] = err
                self.log.error("hosts.aging_failed", netns=ns, error=err)
        if results and self.rules is not None:
            self.log.event("hosts.aging_applied", netns=sorted(ns for ns, e in results.items() if e is None),
                           alpha=self.rules.alpha, buckets=self.rules.buckets)
        return results

    def status(self, cfg: NetConfig) -> dict | None:
        """The status API's ``hosts`` (None without ``[hosts] netns``)."""
        if not cfg.hosts.netns:
            return None
        return {"alpha": cfg.hosts.alpha, "netns": list(cfg.hosts.netns),
                "buckets": None if self.rules is None else self.rules.buckets,
                "applied": sorted(self.applied), "errors": dict(self.errors)}

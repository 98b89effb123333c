"""`uro host rules|apply|remove`: host flow aging (UCMP §6.1) as nftables rules made from
a UCMP route artifact (controller.host)."""

from __future__ import annotations

from controller.cli import common
from controller.errors import UroError

# library modules are imported inside the commands that use them: `uro` loads only what the command it runs needs


def _rules(args):
    from controller.host import aging
    from controller.tables import artifacts

    if not args.routes:
        raise UroError(f"host {args.action}: --routes NAME.uro is required (a UCMP route artifact)")
    art = artifacts.open(args.routes)
    return aging.rules_for_routes(art, args.alpha, what=f"route artifact {args.routes}")


def cmd_host(args) -> int:
    from controller.host import aging, nft

    if args.action == "rules":
        if args.netns:
            raise UroError("host rules: --netns is for apply/remove (rules only prints)")
        print(aging.render(_rules(args)), end="")
        return 0
    if args.action == "apply":
        r = _rules(args)
        nft.apply(r, args.netns, enable_accounting=args.enable_accounting)
        where = f"netns {args.netns}" if args.netns else "this host"
        print(f"applied table inet {r.table} in {where}: {r.buckets} buckets, alpha {r.alpha:g}, "
              f"{len(r.intervals)} byte intervals")
        return 0
    if args.routes:
        raise UroError("host remove: takes no --routes (it removes the table uro installed)")
    nft.remove(args.netns)
    print(f"removed table inet {aging.TABLE} from {'netns ' + args.netns if args.netns else 'this host'} "
          "(if it was there)")
    return 0


def register(sub) -> None:
    r = sub.add_parser("host", help="host flow aging: UCMP buckets as nftables DSCP rules (UCMP §6.1)",
                       description="rules: print the nftables ruleset that tags each flow's packets with its "
                                   "flow-size bucket (DSCP) from the bytes it has sent (conntrack counters); "
                                   "apply: install it atomically in its own table (inet uro_aging), replacing "
                                   "a previous one; remove: delete that table")
    r.add_argument("action", choices=["rules", "apply", "remove"])
    r.add_argument("--routes", metavar="DIR", help="a UCMP route artifact (uro routes --algo ucmp -o NAME.uro)")
    r.add_argument("--alpha", type=common.finite_float, default=0.5,
                   help="weight factor alpha (UCMP Eq. 2-4): bucket k starts at boundary_k x slice bytes / alpha "
                        "bytes sent (default 0.5)")
    r.add_argument("--netns", metavar="NAME", help="apply/remove in this network namespace (default: this host's)")
    r.add_argument("--enable-accounting", action="store_true",
                   help="apply: switch conntrack accounting on (net.netfilter.nf_conntrack_acct=1) if it is off, "
                        "instead of refusing")
    r.set_defaults(func=cmd_host)

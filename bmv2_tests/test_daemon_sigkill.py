"""SIGKILL the daemon in the middle of a push and start it again, on a (108, 6) ToR
(r108x6 program, ~2K per-hop + source-route entries per generation, long enough to be
killed inside it): right after the kill the switch runs exactly one complete route set
(the old one, or the new one if the flip had happened) -- never a mix; after the restart
it runs the new routes with nothing left of the old generation."""

from __future__ import annotations

import signal
import time

import pytest

from controller.agent.bmv2_process import free_port
from daemon_util import DaemonProc, SwitchProc, need_daemon_stack, switch_state, until, write_net


@pytest.fixture(autouse=True)
def stack():
    need_daemon_stack()


@pytest.fixture(scope="module")
def r108(tmp_path_factory):
    from controller.p4gen import build as p4build
    from controller.p4gen import profile as prof

    out = tmp_path_factory.mktemp("r108x6")
    p4build.build(prof.load("r108x6"), out, ["tor"])
    base = out / "tor_r108x6"
    return {"tor": (base.with_suffix(".p4info.txtpb"), base.with_suffix(".json"), base.with_suffix(".contract.json"))}


SCHED = 'generate = "opera"\ntors = 108\nuplinks = 6\nseed = 1'
ROUTES_A = 'source_routed = []\n[routing.per_hop]\nk = 4\nmax_hops = 4'
# B differs in every per-hop entry (K and the hop bound) and source-routes 30 destinations
# over their direct circuits (selector members and groups too); cheap to compute
ROUTES_B = ('source_routed = [' + ", ".join(str(d) for d in range(1, 31)) + ']\n[routing.per_hop]\nk = 2\n'
            'max_hops = 3\n[routing.source]\nalgo = "direct"')


def expected(cfg_path, routes_text):
    from controller.agent.backend import backend_for
    from controller.daemon.config import load
    from controller.daemon.controller import Prepared
    from controller.schedule.degrade import Failed

    cfg = load(cfg_path)
    prep = Prepared(cfg, Failed(), backend_for)
    return prep.roles["tor0"], prep.routes


@pytest.mark.parametrize("delay", [0.0, 0.15, "after-flip"])
def test_sigkill_mid_push_never_leaves_a_mixed_generation(tmp_path, r108, delay):
    from controller.agent.diff import same_state
    from controller.agent import generations as gens

    sw = SwitchProc(tmp_path, "tor0").start()
    port = free_port()
    switches = [{"name": "tor0", "role": "tor", "tor": 0, "address": sw.address,
                 "ports": {"hosts": [0, 1, 2, 3, 4, 5, 6, 7], "uplinks": [8, 9, 10, 11, 12, 13]}}]
    cfg = tmp_path / "net.toml"
    try:
        write_net(cfg, r108, switches, status_port=port, schedule=SCHED, routing=ROUTES_A)
        role, ra = expected(cfg, ROUTES_A)
        d = DaemonProc(cfg, tmp_path, "d1")
        d.wait_event("generation.installed", timeout=120)
        write_net(cfg, r108, switches, status_port=port, schedule=SCHED, routing=ROUTES_B)
        _, rb = expected(cfg, ROUTES_B)
        d.signal(signal.SIGHUP)
        if delay == "after-flip":
            d.wait_event("generation.active", timeout=120)     # killed while deleting the old generation
        else:
            d.wait_event("generation.writing", timeout=120)
            time.sleep(delay)
        d.signal(signal.SIGKILL)
        d.proc.wait(10)
        d.err.close()
        st, _ = switch_state(sw.address, r108["tor"])
        act, _ = role.active(st)
        part = gens.split(st, role.config_table()).gens[act]
        is_a, is_b = same_state(part, role.routes(ra, act)), same_state(part, role.routes(rb, act))
        assert is_a or is_b, f"after SIGKILL ({delay}): generation {act} holds neither route set"
        if delay == "after-flip":
            assert is_b and act == 1
        elif delay == 0.0:
            assert is_a and act == 0, "killed right at the start of the write: the old generation runs"
        # restart: the new routes, nothing of the old generation left (its slot: their shadow).
        # The killed daemon's session may still be the switch's primary when the new one
        # connects (bmv2 has not yet seen its stream end): the first writes are refused (Not
        # primary) and the daemon retries its install after the start; so the switch is
        # watched until it runs the new routes, or the time is up, before the daemon stops.
        d2 = DaemonProc(cfg, tmp_path, "d2")

        def restarted(st) -> dict[str, bool]:
            """Each property the switch must have once the restarted daemon is done, by its
            message: the new routes active, the other generation their exact shadow (nothing
            of the old routes left, whatever the kill left there: docs/daemon.md "Diff-only
            writes"), only the active generation live."""
            act, _ = role.active(st)
            if act is None:
                return {"after the restart the switch runs the new routes": False}
            p = gens.split(st, role.config_table())
            return {"after the restart the switch runs the new routes": same_state(p.gens[act], role.routes(rb, act)),
                    "the other generation is the exact shadow": same_state(p.gens[1 - act], role.routes(rb, 1 - act)),
                    "only the active generation is live": role.live(st) == frozenset({act})}
        try:
            d2.wait_event("api.listening", timeout=120)
            until(lambda: all(restarted(switch_state(sw.address, r108["tor"])[0]).values()), timeout=90,
                  what="the restarted daemon's new routes on the switch")
        finally:
            rc = d2.stop()          # stopped whether or not it got there
        assert rc == 0
        st, _ = switch_state(sw.address, r108["tor"])
        missed = [what for what, ok in restarted(st).items() if not ok]
        assert not missed, missed
        p = gens.split(st, role.config_table())
        assert same_state(gens.static_as_read(p, role.static()), role.static())
    finally:
        sw.stop()

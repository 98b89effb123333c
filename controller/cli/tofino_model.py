"""`uro tofino-model up|down`: a Tofino2 ToR of a network config on the SDE's software model.

``up`` takes the config's tofino2 switch (``--switch`` when there are several), its
program's bf-p4c build and port map, makes a veth pair per dev port of the ToR
(``<prefix><port>s`` is the model's side, ``<prefix><port>h`` the side a host or a test
sends on), and starts ``tofino-model`` + ``bf_switchd`` with the program loaded
(:class:`controller.agent.tofino_process.TofinoModelSwitch`); it returns once the switch's
BfRt server reports the program, leaving both running. Then ``uro agent push`` and
``uro daemon`` take the switch as they would a real one. ``down`` stops exactly what
``up`` recorded in its state directory (by PID and command line), deletes its veths and
puts ``vm.nr_hugepages`` back.

The model is quiet unless ``--trace``: its per-packet trace goes to
``<state>/logs/model_<time>.log``. ``--trace tables`` (the default) traces every table of
every pipeline pass, the deparsed fields and the AFC words the program emits (~4 MB/s while
the slice timer runs); ``--trace packets`` only the packets in and out, with their bytes
(~2 MB/s, and about a tenth of a core less of the model's CPU). Traced, the model's shell
listens on a port ``up`` prints, to change the level while it runs
(:mod:`controller.agent.tofino_model_shell`).
"""

from __future__ import annotations

import json
from pathlib import Path

#: where `up` keeps its records and logs (one model per machine: BfRt port 50052 is fixed)
STATE_DIR = "/run/uro-tofino-model"
#: ``--trace`` levels: the model's P4 log level of each (``rmt-set-log-level -T P4 -l``)
TRACE_LEVELS = {"tables": "Debug", "packets": "Info"}
#: veth name prefix (``<prefix><dev port>s`` / ``...h``: at most 15 characters)
VETH_PREFIX = "tm"


def _switch(cfg, name: str | None):
    from controller.daemon import plan
    from controller.errors import UroError

    sws = [s for s in plan.select(cfg, name) if s.target == "tofino2"]
    if not sws:
        raise UroError(f"{cfg.path}: no tofino2 switch" + (f" called {name!r}" if name else "")
                       + " (a [[switch]] with target = \"tofino2\")")
    if len(sws) > 1:
        raise UroError(f"{cfg.path}: {len(sws)} tofino2 switches ({', '.join(s.name for s in sws)}): "
                       "say which with --switch (one model per machine)")
    return sws[0]


def resolve(cfg, name: str | None):
    """(switch, program directory, compiled program name, port map) of the config's
    tofino2 switch; a UroError naming what is missing (the build: `uro p4 build`)."""
    from controller.agent import bfrt
    from controller.errors import UroError
    from controller.tofino2 import settings

    sw = _switch(cfg, name)
    prog = cfg.programs[sw.program]
    for role in bfrt.FILE_ROLES:
        f = prog.files.get(role)
        if f is None or not Path(f).is_file():
            raise UroError(f"{cfg.path}: program {sw.program!r}: {role} file {f} not found "
                           "(build it first: uro p4 build --target tofino2 --profile NAME)")
    d = Path(prog.files["bfrt"]).parent
    try:
        name = json.loads(Path(prog.files["context"]).read_text()).get("program_name") or d.name
    except (OSError, ValueError) as e:
        raise UroError(f"{prog.files['context']}: not a bf-p4c context.json: {e}") from None
    pm_file = prog.files.get("port_map")
    prof = bfrt._profile_of(prog.contract)
    pm = settings.load(pm_file) if pm_file else settings.default_port_map(prof)
    return sw, d, name, pm


def cmd_up(args) -> int:
    from controller.agent import tofino_process as tp
    from controller.agent import veths as veth_pairs
    from controller.daemon.config import load
    from controller.errors import UroError

    cfg = load(args.config)
    sw, prog_dir, prog_name, pm = resolve(cfg, args.switch)
    why = tp.missing()
    if why:
        raise UroError(f"tofino-model cannot run here: {why}")
    state = Path(args.state_dir)
    if tp.TofinoModelSwitch.recorded(state / "pids"):
        raise UroError(f"a model started by `uro tofino-model up` runs already (records in {state}): "
                       f"uro tofino-model down --state-dir {state}")
    state.mkdir(parents=True, exist_ok=True)
    veths = veth_pairs.add_veths([*pm.hosts, *pm.uplinks], VETH_PREFIX, state / "veths.json")
    from controller.agent.bmv2_process import free_port

    traced = args.trace is not None
    model = tp.TofinoModelSwitch(state / "logs", {p: s for p, (s, _) in veths.items()}, program_dir=prog_dir,
                                 program_name=prog_name, pid_dir=state / "pids", trace=traced, detach=True,
                                 cli_port=free_port() if traced else None,
                                 p4_log_level=TRACE_LEVELS[args.trace] if traced else None)
    try:
        model.start()
    except BaseException:
        veth_pairs.delete_veths(state / "veths.json")
        raise
    print(f"{sw.name}: tofino-model + bf_switchd running {prog_name!r} (pids {model.model.pid}, "
          f"{model.switchd.pid}); BfRt at {model.address} (the config says {sw.address})")
    for role, ports in (("host", pm.hosts), ("uplink", pm.uplinks)):
        for i, p in enumerate(ports):
            s, h = veths[p]
            print(f"  {role} {i}: dev port {p} = {s} (send and sniff on {h})")
    print(f"  logs: {state / 'logs'} (bf_switchd: switchd.log, bf_drivers.log; the model: model.log"
          + (f", its packet trace model_*.log: {args.trace})" if traced else "; no packet trace: --trace)"))
    if traced:
        print(f"  the model's shell: telnet 127.0.0.1 {model.cli_port} (its trace level stays as started: "
              f"the model crashes when it changes while packets flow)")
    print(f"  next: uro agent push --config {args.config}; stop: uro tofino-model down"
          + ("" if args.state_dir == STATE_DIR else f" --state-dir {state}"))
    return 0


def cmd_down(args) -> int:
    from controller.agent import tofino_process as tp
    from controller.agent import veths as veth_pairs

    state = Path(args.state_dir)
    done = tp.TofinoModelSwitch.reap(state / "pids") + veth_pairs.delete_veths(state / "veths.json")
    for line in done:
        print(line)
    print("nothing was running" if not done else "tofino-model down")
    return 0


def register(sub) -> None:
    p = sub.add_parser("tofino-model", help="a Tofino2 ToR of a network config on the SDE's software model")
    tsub = p.add_subparsers(dest="tofino_model_command", required=True)
    up = tsub.add_parser("up", help="veths + tofino-model + bf_switchd with the switch's program, left running")
    up.add_argument("--config", required=True, metavar="NET.TOML", help="the network config (examples/net-tofino2.toml)")
    up.add_argument("--switch", metavar="NAME", help="the tofino2 switch (when the config has several)")
    up.add_argument("--trace", nargs="?", const="tables", choices=sorted(TRACE_LEVELS),
                    help="keep the model's per-packet trace in the logs: every table of every pass (tables, "
                         "the default; ~4 MB/s while the slice timer runs) or the packets in and out (packets)")
    up.add_argument("--state-dir", default=STATE_DIR, help=f"records and logs (default {STATE_DIR})")
    up.set_defaults(func=cmd_up)
    dn = tsub.add_parser("down", help="stop what `up` started, delete its veths, restore hugepages")
    dn.add_argument("--state-dir", default=STATE_DIR, help=f"as given to up (default {STATE_DIR})")
    dn.set_defaults(func=cmd_down)

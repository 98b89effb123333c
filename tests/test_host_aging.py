"""Host flow aging (UCMP §6.1): the nftables ruleset made from a route set's buckets
(pure), and `uro host rules` / bad input through the CLI."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cli import main
from controller.errors import UroError
from controller.host import aging
from controller.routing import ucmp, uro
from controller.routing.paths import Buckets
from controller.schedule import opera
from controller.tables import artifacts


def run(argv):
    try:
        return main(argv)
    except SystemExit as e:
        return e.code


@pytest.fixture(scope="module")
def ucmp8(tmp_path_factory):
    d = tmp_path_factory.mktemp("host")
    sched = opera(8, 2)
    routes = ucmp.compute(sched)
    artifacts.write(routes, d / "u.uro")
    artifacts.write(uro.compute(sched), d / "p.uro")
    return routes, d / "u.uro", d / "p.uro"


boundaries = st.lists(st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(40)), min_size=0, max_size=20,
                      unique=True).map(lambda xs: tuple(sorted(xs)))


@settings(max_examples=200, deadline=None)
@given(b=boundaries, slice_bytes=st.sampled_from([625.0, 25000.0, 625000.0, 1234.5]),
       alpha=st.sampled_from([0.1, 0.5, 1.0, 3.0]), size=st.integers(0, 10**8))
def test_ruleset_bucket_is_the_route_sets_bucket(b, slice_bytes, alpha, size):
    """Every byte count lands in exactly one interval, and that interval's bucket is the
    one Buckets.bucket_of (Eq. 4) gives; intervals cover 0..2^64-1 without gaps."""
    r = aging.rules(b, slice_bytes, alpha)
    assert r.intervals[0][0] == 0 and r.intervals[-1][1] == aging.U64_MAX
    for (lo, hi, _), (lo2, _, _) in zip(r.intervals, r.intervals[1:]):
        assert lo <= hi and hi + 1 == lo2
    assert [x[2] for x in r.intervals] == sorted(x[2] for x in r.intervals)
    ref = Buckets(b, slice_bytes, None, None)
    assert r.bucket_of(size) == ref.bucket_of(size, alpha)


def test_alpha_scales_thresholds_and_buckets_below_a_byte_collapse():
    r1 = aging.rules((Fraction(1), Fraction(2)), 1000.0, 1.0)
    assert r1.intervals == ((0, 999, 0), (1000, 1999, 1), (2000, aging.U64_MAX, 2))
    r2 = aging.rules((Fraction(1), Fraction(2)), 1000.0, 2.0)   # larger alpha: flows age faster
    assert r2.intervals == ((0, 499, 0), (500, 999, 1), (1000, aging.U64_MAX, 2))
    # boundaries 1/3 byte apart: one bucket is empty, the larger one is kept
    r3 = aging.rules((Fraction(1000), Fraction(3001, 3)), 1.0, 1.0)
    assert r3.intervals == ((0, 999, 0), (1000, 1000, 1), (1001, aging.U64_MAX, 2))
    r4 = aging.rules((Fraction(3001, 3), Fraction(3002, 3)), 1.0, 1.0)   # both round up to 1001 bytes
    assert r4.intervals == ((0, 1000, 0), (1001, aging.U64_MAX, 2)) and r4.buckets == 3


def test_too_many_buckets_and_bad_alpha_are_refused():
    with pytest.raises(UroError, match="65 flow-size buckets, more than the 64 a 6-bit DSCP holds"):
        aging.rules(tuple(Fraction(i + 1) for i in range(64)), 1000.0, 1.0)
    with pytest.raises(UroError, match="--alpha must be a positive number"):
        aging.rules((Fraction(1),), 1000.0, 0.0)


def test_render_is_one_table_with_a_chain_per_bucket_and_both_directions(ucmp8):
    routes, _, _ = ucmp8
    r = aging.rules_for_routes(routes, 0.5)
    text = aging.render(r)
    assert text.count("table inet uro_aging {") == 1 and r.buckets == routes.buckets.count
    for b in range(r.buckets):
        assert f"chain bucket{b} {{" in text and f"ip dscp set {b} counter" in text and f"ip6 dscp set {b} counter" in text
    assert "ct direction original ct original bytes vmap @bucket_of_bytes" in text
    assert "ct direction reply ct reply bytes vmap @bucket_of_bytes" in text
    assert "hook output priority mangle" in text
    script = aging.replace_script(r)
    assert script.startswith("table inet uro_aging {}\ndelete table inet uro_aging\n")
    # what the artifact says is what the route set says
    _, art, _ = ucmp8
    assert aging.rules_for_routes(artifacts.open(art), 0.5) == r


def test_cli_rules_prints_the_ruleset(ucmp8, capsys):
    routes, art, _ = ucmp8
    assert run(["host", "rules", "--routes", str(art), "--alpha", "2"]) == 0
    out = capsys.readouterr().out
    assert out == aging.render(aging.rules_for_routes(routes, 2.0))


@pytest.mark.parametrize("argv,msg", [
    (["host", "rules", "--routes", "{per_hop}"], "per_hop routes (uro) have no flow-size buckets; host flow aging "
                                                  "needs UCMP routes"),
    (["host", "rules", "--routes", "{ucmp}", "--alpha", "-1"], "--alpha must be a positive number, got -1.0"),
    (["host", "rules"], "host rules: --routes NAME.uro is required"),
    (["host", "apply", "--routes", "{per_hop}", "--netns", "x"], "have no flow-size buckets"),
    (["host", "remove", "--routes", "{ucmp}"], "host remove: takes no --routes"),
    (["host", "rules", "--routes", "{ucmp}", "--netns", "x"], "--netns is for apply/remove"),
])
def test_bad_input_is_one_line(ucmp8, capsys, argv, msg):
    _, u, p = ucmp8
    argv = [a.format(per_hop=p, ucmp=u) for a in argv]
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("uro: error: ") and msg in err and err.count("\n") == 1

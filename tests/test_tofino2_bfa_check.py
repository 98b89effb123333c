"""controller.tofino2.bfa_check on assembly in bf-p4c's format: arithmetic on a PHV
container shared by live fields at different bits is found (the ``sub W6, W6, W4`` bf-p4c
9.13.4 emitted for the t2na ToR's ``prev_next_tor - my_tor``); exclusive overlays at the
same bits, other stages and bitwise ops are not; a build with it is refused."""

from __future__ import annotations

import pytest

from controller.tofino2 import bfa_check, compiler

BFA = """\
version:
  version: 1.0.1
phv ingress:
  ig_intr_md.ingress_port: {  stage 0..1: W6(16..24) }
  hdr.ipv4.dstAddr.0-15: MH1
  hdr.pg_port_down.port_num: {  stage 0..1: MH1(0..8) }
  hdr.qupd.epoch: {  stage 0..1: MH1 }
  meta.my_tor: {  stage 1..9: W4(16..31) }
  meta.alt_up_3: {  stage 3..12: W4(8..15) }
  meta.hop_slice: {  stage 4: W4(0..7) }
  meta.prev_next_tor: {  stage 4..10: W6(16..31) }
  meta.qupd_age: {  stage 2..3: H4 }
  meta.epoch: {  stage 1: H1, stage 2..13: DH0, stage 14..18: H1 }
phv egress:
  hdr.bridge.type: B0
stage 1 ingress:
  ternary_match tbl_qupd_a 0:
    actions:
      UroIngress.qupd_a(0, 1):
      - sub H4, H1, MH1

      - or W4, W4, W6
stage 4 ingress:
  ternary_match tbl_tor_diff 6:
    actions:

      UroIngress.tor_diff(0, 6):
      - sub W6, W6, W4
stage 12 ingress:
  ternary_match tbl_later 1:
    actions:
      - add W4, W4, 1
"""


def test_the_borrow_bf_p4c_emitted_is_found():
    found = bfa_check.shared_arithmetic(BFA)
    assert [(f.stage, f.instruction, f.container, f.fields) for f in found] == [
        (4, "sub W6, W6, W4", "W4", ("meta.alt_up_3", "meta.hop_slice", "meta.my_tor"))]
    assert "carries cross them" in str(found[0]) and "stage 4" in str(found[0])


def test_exclusive_overlays_other_stages_and_bitwise_ops_pass():
    # MH1 in stage 1: dstAddr / port_num / qupd.epoch all start at bit 0 (one of them per packet);
    # the bitwise 'or' on W4 carries nothing; in stage 12 only alt_up_3 lives in W4
    ok = BFA.replace("      - sub W6, W6, W4\n", "")
    assert bfa_check.shared_arithmetic(ok) == []
    assert bfa_check.shared_arithmetic(BFA, "egress") == []


def test_a_build_with_it_is_refused(tmp_path):
    bfa = tmp_path / "tor.bfa"
    bfa.write_text(BFA)
    with pytest.raises(compiler.CompileError, match=r"tor.p4 is unsafe: ingress stage 4: 'sub W6, W6, W4'"):
        compiler.check_assembly(bfa, tmp_path / "tor.p4")
    bfa.write_text(BFA.replace("      - sub W6, W6, W4\n", ""))
    compiler.check_assembly(bfa, tmp_path / "tor.p4")

"""Transfer streams: CPU cycles per byte on the critical thread, the wire, the window."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration.file_transfer import mbps
from models.calibration.file_transfer import transfer as fedex_transfer
from models.document.schema import KINDS
from models.engine.evaluation import evaluate
from models.subsystems import transfer

TOOLS = list(KINDS["vm"].props["workload.net_tool"].choices or ())
CRYPTO = list(KINDS["vm"].props["workload.net_crypto"].choices or ())
SETTINGS = settings(max_examples=60, deadline=None)


CIPHERS = list(KINDS["vm"].props["workload.net_cipher"].choices or ())
MACS = list(KINDS["vm"].props["workload.net_mac"].choices or ())


def cap(tool: str, crypto: str = "none", streams: int = 1, vcpus: int = 8, ghz: float = 2.8,
        line: float = 9415.0, rtt: float = 0.25, cipher: str = "aes128-cbc",
        mac: str = "hmac-md5", aes_ni: bool = False) -> float:
    a = np.array
    return float(transfer.stream_cap_mbps(
        a([TOOLS.index(tool)]), a([CRYPTO.index(crypto)]), a([streams]), a([vcpus]),
        a([ghz]), a([line]), a([rtt]), a([CIPHERS.index(cipher)]), a([MACS.index(mac)]),
        a([aes_ni]), a([False]))[0])


def test_crypto_costs_order_openssh_hpn_none() -> None:
    assert cap("scp", "openssh") < cap("scp", "hpn_ssh") < cap("scp", "none")


def test_netperf_has_no_tool_cap() -> None:
    assert cap("netperf") == float("inf")


def test_openssh_fixed_window_dominates_over_a_wan_and_hpn_lifts_it() -> None:
    ssh = cap("scp", "openssh", rtt=40.0)
    assert abs(ssh - 65536 * 8 / 0.040 / 1e6) / ssh < 0.05  # one 64 KB window per round trip
    assert cap("scp", "hpn_ssh", rtt=40.0) > 20 * ssh


def test_streams_add_up_sub_linearly_towards_what_the_vcpus_can_do() -> None:
    one = cap("scp", "openssh")
    four = cap("scp", "openssh", streams=4)
    assert 3.6 * one < four < 4 * one  # contention for cores and wire already shows
    z = np.array([0])
    _, total = transfer.stream_cycles(np.array([1]), np.array([1]), z, z, np.array([False]))
    ceiling = 2 * 2.8e9 / total[0] * 8e-6
    assert 0.97 * ceiling < cap("scp", "openssh", streams=64, vcpus=2) <= ceiling


def test_each_cipher_and_mac_costs_its_cycles_and_aes_ni_cuts_aes() -> None:
    base = cap("scp", "openssh")
    assert cap("scp", "openssh", cipher="3des-cbc") < base < cap("scp", "openssh",
                                                                 cipher="arcfour")
    assert cap("scp", "openssh", mac="hmac-sha2-256") < base < cap("scp", "openssh",
                                                                   mac="umac-64")
    assert cap("scp", "openssh", aes_ni=True) > base
    assert cap("scp", "openssh", cipher="arcfour", aes_ni=True) == cap(
        "scp", "openssh", cipher="arcfour")  # RC4 does not use AES-NI
    # an AEAD cipher authenticates itself: the MAC setting does not matter
    assert cap("scp", "openssh", cipher="aes128-gcm", mac="hmac-sha1") == cap(
        "scp", "openssh", cipher="aes128-gcm", mac="umac-64")


def test_crypto_narrows_hpn_ssh_edge_as_streams_fill_the_cores() -> None:
    edge = [cap("scp", "hpn_ssh", n) / cap("scp", "openssh", n) for n in (1, 8, 32)]
    assert edge[0] > edge[1] > edge[2] >= 1.0


@SETTINGS
@given(st.sampled_from(TOOLS[1:]), st.sampled_from(CRYPTO), st.integers(1, 32),
       st.floats(0.01, 100.0), st.floats(1.5, 3.8))
def test_more_streams_faster_cores_shorter_rtt_never_lower_throughput(
        tool: str, crypto: str, streams: int, rtt: float, ghz: float) -> None:
    base = cap(tool, crypto, streams, rtt=rtt, ghz=ghz)
    assert np.isfinite(base) and base > 0
    assert cap(tool, crypto, streams + 1, rtt=rtt, ghz=ghz) >= base
    assert cap(tool, crypto, streams, rtt=rtt, ghz=ghz * 1.1) >= base
    assert cap(tool, crypto, streams, rtt=rtt * 2, ghz=ghz) <= base


def test_eight_streams_without_crypto_reach_the_line_natively() -> None:
    pred = evaluate(fedex_transfer("bbcp", streams=8))
    assert pred.vms.bound_by[0].startswith("nic n1: 10 Gbit/s line rate")
    assert mbps("bbcp") < 4000 < mbps("bbcp", streams=8)


def test_tool_threads_show_in_the_host_cpu() -> None:
    hpn = evaluate(fedex_transfer("scp", "hpn_ssh")).hosts.cpu_util[0]
    none = evaluate(fedex_transfer("scp")).hosts.cpu_util[0]
    assert hpn > none > 0

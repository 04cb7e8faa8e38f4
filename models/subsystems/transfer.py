"""File transfer: what one stream of a transfer tool carries, and what many streams add up to.

A stream moves each byte through a chain of work:

* **CPU on the stream's critical thread**, in passes over each byte (one copy or checksum,
  :data:`models.core.events.BYTE_PASS_NS`, the cost every subsystem shares): the kernel
  TCP/socket work of one connection (:data:`STREAM_PASSES`), the tool's own read of the file
  spread over its threads (:data:`TOOL_PASSES` / :data:`TOOL_THREADS`: rsync pipelines 2
  processes, bbcp runs 4 threads), the ssh channel's pipe for tools that tunnel through ssh
  (:data:`CHANNEL_PASSES`), and the bulk crypto: the cipher's and the MAC's
  cycles per byte (``workload.net_cipher``, ``workload.net_mac``; AES is several times
  cheaper with the host's AES-NI instructions, ``host.aes_ni``).  OpenSSH does cipher and MAC
  on its one thread; HPN-SSH runs the cipher on 4 threads beside one MAC thread, so its crypto
  stage costs ``max(cipher / 4, MAC)``;
* **the wire**: a single-threaded tool writes one buffer and waits for the socket to drain it
  (no overlap of CPU and serialisation: ``8 / line rate`` per byte);
* **the flow-control window**: at most one window per round trip, ``RTT / window`` per byte.
  OpenSSH's channel window is a fixed 64 KB; HPN-SSH grows it with the TCP window, which the
  kernel caps at :data:`TCP_WINDOW_BYTES`.

``streams`` such streams contend for the same cores and the same wire: a closed queueing
network (exact single-class MVA over the stream count) with the cores as a multi-server
station (Seidmann) and the wire as a single server; the window is a delay.  A stream's
critical thread is one server's work per byte and a stream keeps ``total / critical`` cores
busy at full speed, so the cores serve ``cores x critical / total`` streams at once and their
capacity is ``cores x clock / total cycles per byte``.  One stream runs at its critical
path; as streams are added the aggregate grows sub-linearly towards the cores' or the wire's
capacity (the study: 'with encryption on, the aggregate grows sub-linearly because crypto
saturates the cores').  On bare metal the hyperthreads add :data:`HT_GAIN` of a core each.

Nothing here is fitted to the FedEx study but ftp's cost on its production servers (their
hardware is not given): a pass over a byte is the LRO study's (``models.core.events``),
AES-128's cost a published benchmark's, the other ciphers and MACs that cost scaled by
published relative speeds (:data:`CIPHER_SHARE`, :data:`MAC_CPB`), and the pass counts are
the mechanism.  Every single-stream run, the OpenSSH runs (scp and rsync, 400-550 Mbit/s),
bbcp's ">6x" and the 8-stream line rate are checks (models/calibration/file_transfer.py).
"""

from __future__ import annotations

import numpy as np

from models.core import coefficients, events
from models.core.platform import HT_THROUGHPUT, REF_GHZ
from models.document.schema import KINDS

# tool codes follow models.document.schema: netperf, scp, rsync, bbcp, ftp
STREAM_PASSES = 2.0
"""Kernel TCP of one connection, per byte: the socket copy between user and kernel buffers and
the checksum over it (:data:`models.core.events.BYTE_PASS_NS` each)."""
TOOL_PASSES = 1.0
"""The file tools' own work per byte: one read of the file's bytes into the tool's buffer (the
FedEx runs read from RAM disks)."""
CHANNEL_PASSES = 2.0
"""ssh's channel per byte: scp writes the bytes into a pipe and ssh reads them out of it, two
copies, before ssh's own socket write (counted in the stream's passes)."""
C_FTP = coefficients.declare(
    "transfer.c_ftp", "cycles/byte at 2.8 GHz", 20.0,
    "ftp on FedEx's production servers (hardware not given); fitted to 560 Mbit/s over 10GbE"
    " (ftx-ftp-1g-vs-initial-10g); its 320 Mbit/s over 1GbE is the check.  Prior: 20.")
TOOL_THREADS = np.array([1.0, 1.0, 2.0, 4.0, 1.0])
"""Threads sharing the tool's work: scp 1, rsync 2, bbcp 4 (default), ftp 1 (FedEx setup)."""
THROUGH_SSH = np.array([False, True, True, False, False])


def pass_cycles() -> float:
    """Reference-core cycles of one pass over a byte (the one per-byte cost, defined in
    :mod:`models.core.events`)."""
    return events.BYTE_PASS_NS.value * REF_GHZ


def cipher_cycles() -> float:
    """Reference-core cycles to cipher one byte with software AES-128-CBC (the published
    benchmark figure, :mod:`models.core.events`)."""
    return events.aes128_cbc_ns() * REF_GHZ


CIPHERS = tuple(str(x) for x in KINDS["vm"].props["workload.net_cipher"].choices or ())
CIPHER_SHARE: dict[str, tuple[float, float]] = {
    "aes128-cbc": (1.0, 0.25), "aes128-ctr": (0.85, 0.08), "aes256-ctr": (1.2, 0.11),
    "aes128-gcm": (1.3, 0.12), "chacha20-poly1305": (0.35, 0.35), "arcfour": (0.45, 0.45),
    "3des-cbc": (5.5, 5.5)}
"""Cycles per byte of each cipher relative to software AES-128-CBC (the fitted
:func:`cipher_cycles`), without and with AES-NI: AES-256 runs 14 rounds to AES-128's 10; CTR and
GCM pipeline the block cipher (CBC encryption cannot), GCM adds its GHASH; ChaCha20-Poly1305,
RC4 and 3DES do not use AES-NI.  Relative speeds as published cycles-per-byte tables give them
(OpenSSL speed, Crypto++ benchmarks); the GCM and ChaCha20 entries include their MAC."""
AEAD = ("aes128-gcm", "chacha20-poly1305")
"""Ciphers that authenticate the data themselves: no separate MAC."""
MACS = tuple(str(x) for x in KINDS["vm"].props["workload.net_mac"].choices or ())
MAC_CPB: dict[str, float] = {"hmac-md5": 4.0, "hmac-sha1": 6.0, "hmac-sha2-256": 12.0,
                             "umac-64": 1.0, "none": 0.0}
"""MAC cycles per byte per core: HMAC-MD5 4 (assumed; no case isolates it: a few cycles, below
HPN-SSH's cipher threads, so HPN-SSH stays cipher-bound as the study describes), the others
in the ratio published tables give (SHA-1 ~1.5x MD5, SHA-256 ~3x, UMAC-64 ~1/4)."""
HPN_CIPHER_THREADS = 4.0
SSH_WINDOW_BYTES = 65536.0
"""OpenSSH's static channel flow-control window, the limit HPN-SSH removes (HPN-SSH docs)."""
TCP_WINDOW_BYTES = 4194304.0
"""Linux's default maximum auto-tuned TCP window (net.ipv4.tcp_rmem max, 4 MB); assumed."""
WIRE_OVERLAP = 1.0
"""Serialisation time not overlapped with the tool's CPU work, in units of 8/line per byte:
one buffer written at a time (a mechanism value, not fitted)."""
HT_GAIN = HT_THROUGHPUT - 1.0
"""What a core's second hyperthread adds on bare metal (:data:`models.core.platform.HT_THROUGHPUT`,
from SPEC's results with hyperthreading on and off)."""
MAX_STREAMS = 4096
_NETPERF = 0
_NONE, _OPENSSH, _HPN = 0, 1, 2


def crypto_cycles(crypto: np.ndarray, cipher: np.ndarray, mac: np.ndarray,
                  aes_ni: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cipher, MAC) cycles per byte per core of each stream's bulk crypto (0 without)."""
    share = np.array([CIPHER_SHARE[ch] for ch in CIPHERS])
    c = cipher_cycles() * np.where(aes_ni, share[cipher, 1], share[cipher, 0])
    aead = np.array([ch in AEAD for ch in CIPHERS])[cipher]
    m = np.where(aead, 0.0, np.array([MAC_CPB[m] for m in MACS])[mac])
    on = crypto != _NONE
    return np.where(on, c, 0.0), np.where(on, m, 0.0)


def stream_cycles(tool: np.ndarray, crypto: np.ndarray, cipher: np.ndarray, mac: np.ndarray,
                  aes_ni: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(critical-thread cycles/byte, all threads' cycles/byte) of one stream."""
    byte = pass_cycles()
    c_tool = np.array([0.0] + [TOOL_PASSES * byte] * 3 + [C_FTP.value])
    c_ciph, c_mac = crypto_cycles(crypto, cipher, mac, aes_ni)
    ssh = THROUGH_SSH[tool] | (crypto != _NONE)
    base = STREAM_PASSES * byte + np.where(ssh, CHANNEL_PASSES * byte, 0.0)
    crit_crypto = np.where(crypto == _HPN, np.maximum(c_ciph / HPN_CIPHER_THREADS, c_mac),
                           c_ciph + c_mac)
    crit = base + c_tool[tool] / TOOL_THREADS[tool] + crit_crypto
    total = base + c_tool[tool] + c_ciph + c_mac
    return crit, total


def stream_cap_mbps(tool: np.ndarray, crypto: np.ndarray, streams: np.ndarray,
                    vcpus: np.ndarray, ghz: np.ndarray, line_mbps: np.ndarray,
                    rtt_ms: np.ndarray, cipher: np.ndarray, mac: np.ndarray,
                    aes_ni: np.ndarray, ht_native: np.ndarray) -> np.ndarray:
    """Aggregate Mbit/s ``streams`` streams of ``tool`` with ``crypto`` carry over
    ``vcpus`` cores (plus :data:`HT_GAIN` each where ``ht_native``) and a line of
    ``line_mbps`` (inf for netperf, whose limits are the network path's)."""
    out = np.full(tool.shape, np.inf)
    on = tool != _NETPERF
    if not on.any():
        return out
    k = np.flatnonzero(on)
    crit, total = stream_cycles(tool[k], crypto[k], cipher[k], mac[k], aes_ni[k])
    hz = ghz[k] * 1e9
    cores = vcpus[k] * np.where(ht_native[k], 1.0 + HT_GAIN, 1.0)
    window = np.where(crypto[k] == _OPENSSH, SSH_WINDOW_BYTES, TCP_WINDOW_BYTES)
    line = line_mbps[k]
    # seconds per byte at each station
    d_cpu = crit / hz
    servers = cores * crit / total  # streams the cores run at full speed at once
    q_cpu = np.where(servers >= 1.0, d_cpu / np.maximum(servers, 1.0), total / (hz * cores))
    z_cpu = np.where(servers >= 1.0, d_cpu - q_cpu, 0.0)
    d_wire = np.divide(WIRE_OVERLAP * 8.0, line * 1e6, out=np.zeros(len(k)), where=line > 0)
    z = z_cpu + rtt_ms[k] / 1000.0 / window
    n = np.minimum(streams[k], MAX_STREAMS).astype(np.int64)
    x = np.zeros(len(k))
    qc, qw = np.zeros(len(k)), np.zeros(len(k))
    for m in range(1, int(n.max()) + 1):  # exact MVA, one population step at a time
        rc, rw = q_cpu * (1.0 + qc), d_wire * (1.0 + qw)
        xm = m / (z + rc + rw)
        go = m <= n
        x = np.where(go, xm, x)
        qc, qw = np.where(go, xm * rc, qc), np.where(go, xm * rw, qw)
    out[k] = x * 8e-6
    return out


def stream_cores(tool: np.ndarray, crypto: np.ndarray, mbps: np.ndarray, ghz: np.ndarray,
                 cipher: np.ndarray, mac: np.ndarray, aes_ni: np.ndarray) -> np.ndarray:
    """Cores the tool's threads (file copy, ssh channel, crypto, kernel TCP) keep busy
    moving ``mbps``; 0 for netperf (the network path counts its cost)."""
    _, total = stream_cycles(tool, crypto, cipher, mac, aes_ni)
    return np.where(tool == _NETPERF, 0.0, mbps * 125000.0 * total / (ghz * 1e9))

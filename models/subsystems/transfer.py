"""File transfer: what one stream of a transfer tool carries, and what many streams add up to.

A stream moves each byte through a chain of work; the chain's time per byte is the sum of

* **CPU on the stream's critical thread**, in cycles per byte at the host's clock: the kernel
  TCP/socket work of one connection (:data:`C_STREAM`), the tool's own copy/protocol work
  spread over its threads (:data:`C_TOOL` / :data:`TOOL_THREADS`: rsync pipelines 2 processes,
  bbcp runs 4 threads), the ssh channel's pipe copy and packetising for tools that tunnel
  through ssh (:data:`C_CHANNEL`), and the bulk crypto - OpenSSH does cipher and MAC on its
  one thread, HPN-SSH runs the cipher on 4 threads beside one MAC thread, so its crypto stage
  costs ``max(cipher / 4, MAC)``;
* **the wire**: a single-threaded tool writes one buffer and waits for the socket to drain it
  (no overlap of CPU and serialisation: ``8 / line rate`` per byte);
* **the flow-control window**: at most one window per round trip, ``RTT / window`` per byte.
  OpenSSH's channel window is a fixed 64 KB; HPN-SSH grows it with the TCP window, which the
  kernel caps at :data:`TCP_WINDOW_BYTES`.

``streams`` such streams run side by side until the line, the PCIe slot
(``models.subsystems.network``)
or the VM's vCPUs (every thread's cycles, not only the critical one's) run out.

Coefficients: cycles per byte on the FedEx study's Xeon X5560 (2.8 GHz, no AES-NI), fitted to
its single-stream runs (ids beside each); the OpenSSH runs (scp and rsync, 400-550 Mbit/s), the
1GbE ftp figure, bbcp's ">6x" and the 8-stream line rate are checks (models/calibration/
file_transfer.py).
"""

from __future__ import annotations

import numpy as np

from models.engine import coefficients

FEDEX = ("Maximizing File Transfer Performance Using 10Gb Ethernet and Virtualization:"
         " A FedEx Case Study")

# tool codes follow models.document.schema: netperf, scp, rsync, bbcp, ftp
C_STREAM = coefficients.declare(
    "transfer.c_stream", "cycles/byte", 3.0,
    "Kernel TCP + socket copy of one connection; fitted with C_TOOL_COPY and C_CHANNEL to three"
    " runs without bulk crypto: scp 2.0, rsync 2.3 (ftx-native-1stream-hpnssh-nocrypto) and"
    " bbcp 3.6 Gbit/s (ftx-native-1stream-bbcp).  Prior: 3 cycles/byte (two copies).")
C_TOOL_COPY = coefficients.declare(
    "transfer.c_tool_copy", "cycles/byte", 3.0,
    "The file tools' own read/copy/protocol work (same three runs).  Prior: 3 cycles/byte.")
C_CHANNEL = coefficients.declare(
    "transfer.c_channel", "cycles/byte", 3.0,
    "ssh channel: pipe copy and packetising in the ssh process (same three runs).  Prior: 3.")
C_FTP = coefficients.declare(
    "transfer.c_ftp", "cycles/byte at 2.8 GHz", 20.0,
    "ftp on FedEx's production servers (hardware not given); fitted to 560 Mbit/s over 10GbE"
    " (ftx-ftp-1g-vs-initial-10g); its 320 Mbit/s over 1GbE is the check.  Prior: 20.")
TOOL_THREADS = np.array([1.0, 1.0, 2.0, 4.0, 1.0])
"""Threads sharing the tool's work: scp 1, rsync 2, bbcp 4 (default), ftp 1 (FedEx setup)."""
THROUGH_SSH = np.array([False, True, True, False, False])
C_CIPHER = coefficients.declare(
    "transfer.c_cipher", "cycles/byte", 18.0,
    "AES-128 without AES-NI; fitted to HPN-SSH's 1.4 Gbit/s with its 4 cipher threads"
    " (ftx-native-1stream-hpnssh).  Prior: software AES-128 runs at about 15-20 cycles/byte.")
C_MAC = 4.0
"""MAC (HMAC-MD5/SHA1), cycles/byte; assumed (no case isolates it): a few cycles per byte,
below the HPN cipher threads' 4.8, so HPN-SSH stays cipher-bound as the study describes."""
HPN_CIPHER_THREADS = 4.0
SSH_WINDOW_BYTES = 65536.0
"""OpenSSH's static channel flow-control window, the limit HPN-SSH removes (HPN-SSH docs)."""
TCP_WINDOW_BYTES = 4194304.0
"""Linux's default maximum auto-tuned TCP window (net.ipv4.tcp_rmem max, 4 MB); assumed."""
WIRE_OVERLAP = 1.0
"""Serialisation time not overlapped with the tool's CPU work, in units of 8/line per byte:
one buffer written at a time (a mechanism value, not fitted)."""
_NETPERF = 0
_NONE, _OPENSSH, _HPN = 0, 1, 2


def stream_cycles(tool: np.ndarray, crypto: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(critical-thread cycles/byte, all threads' cycles/byte) of one stream."""
    c_tool = np.array([0.0] + [C_TOOL_COPY.value] * 3 + [C_FTP.value])
    cipher = C_CIPHER.value
    ssh = THROUGH_SSH[tool] | (crypto != _NONE)
    base = C_STREAM.value + np.where(ssh, C_CHANNEL.value, 0.0)
    crit_crypto = np.select([crypto == _OPENSSH, crypto == _HPN],
                            [cipher + C_MAC,
                             max(cipher / HPN_CIPHER_THREADS, C_MAC)], 0.0)
    all_crypto = np.where(crypto != _NONE, cipher + C_MAC, 0.0)
    crit = base + c_tool[tool] / TOOL_THREADS[tool] + crit_crypto
    total = base + c_tool[tool] + all_crypto
    return crit, total


def stream_cap_mbps(tool: np.ndarray, crypto: np.ndarray, streams: np.ndarray,
                    vcpus: np.ndarray, ghz: np.ndarray, line_mbps: np.ndarray,
                    rtt_ms: np.ndarray) -> np.ndarray:
    """Aggregate Mbit/s ``streams`` streams of ``tool`` with ``crypto`` can carry (inf for
    netperf, whose limits are the network path's)."""
    crit, total = stream_cycles(tool, crypto)
    hz = ghz * 1e9
    wire = np.divide(WIRE_OVERLAP * 8.0, line_mbps * 1e6, out=np.zeros(line_mbps.shape),
                     where=line_mbps > 0)
    window = np.where(crypto == _OPENSSH, SSH_WINDOW_BYTES, TCP_WINDOW_BYTES)
    s_per_byte = crit / hz + wire + rtt_ms / 1000.0 / window
    per_stream = 8e-6 / s_per_byte
    cpu = vcpus * hz / total * 8e-6
    cap = np.minimum(per_stream * streams, cpu)
    return np.where(tool == _NETPERF, np.inf, cap)


def stream_cores(tool: np.ndarray, crypto: np.ndarray, mbps: np.ndarray,
                 ghz: np.ndarray) -> np.ndarray:
    """Cores the tool's threads (file copy, ssh channel, crypto, kernel TCP) keep busy
    moving ``mbps``; 0 for netperf (the network path counts its cost)."""
    _, total = stream_cycles(tool, crypto)
    return np.where(tool == _NETPERF, 0.0, mbps * 125000.0 * total / (ghz * 1e9))

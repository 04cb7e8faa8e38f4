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

FEDEX = ("Maximizing File Transfer Performance Using 10Gb Ethernet and Virtualization:"
         " A FedEx Case Study")

# tool codes follow models.document.schema: netperf, scp, rsync, bbcp, ftp
C_STREAM = 2.95
"""Kernel TCP + socket copy of one connection, cycles/byte; fitted with C_TOOL and C_CHANNEL
to three runs without bulk crypto: scp 2.0, rsync 2.3 (ftx-native-1stream-hpnssh-nocrypto) and
bbcp 3.6 Gbit/s (ftx-native-1stream-bbcp): three equations, three unknowns."""
C_TOOL_COPY = 2.92
"""The file tools' own read/copy/protocol work, cycles/byte (same three runs)."""
C_CHANNEL = 2.79
"""ssh channel: pipe copy and packetising in the ssh process, cycles/byte (same three runs)."""
C_FTP = 34.5
"""ftp on FedEx's production servers (hardware not given), cycles/byte at 2.8 GHz; fitted to
560 Mbit/s over 10GbE (ftx-ftp-1g-vs-initial-10g); its 320 Mbit/s over 1GbE is the check."""
C_TOOL = np.array([0.0, C_TOOL_COPY, C_TOOL_COPY, C_TOOL_COPY, C_FTP])
TOOL_THREADS = np.array([1.0, 1.0, 2.0, 4.0, 1.0])
"""Threads sharing the tool's work: scp 1, rsync 2, bbcp 4 (default), ftp 1 (FedEx setup)."""
THROUGH_SSH = np.array([False, True, True, False, False])
C_CIPHER = 19.2
"""AES-128 without AES-NI, cycles/byte; fitted to HPN-SSH's 1.4 Gbit/s with its 4 cipher
threads (ftx-native-1stream-hpnssh).  (Software AES-128 runs at about 15-20 cycles/byte.)"""
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
    ssh = THROUGH_SSH[tool] | (crypto != _NONE)
    base = C_STREAM + np.where(ssh, C_CHANNEL, 0.0)
    crit_crypto = np.select([crypto == _OPENSSH, crypto == _HPN],
                            [C_CIPHER + C_MAC,
                             max(C_CIPHER / HPN_CIPHER_THREADS, C_MAC)], 0.0)
    all_crypto = np.where(crypto != _NONE, C_CIPHER + C_MAC, 0.0)
    crit = base + C_TOOL[tool] / TOOL_THREADS[tool] + crit_crypto
    total = base + C_TOOL[tool] + all_crypto
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

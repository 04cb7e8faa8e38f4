"""Work per event that several subsystems share, defined once.

A byte received by a VM, a byte a file-transfer tool copies through a pipe and a byte the
virtual switch copies between two VMs are the same event: one pass of a core over the byte
(:data:`BYTE_PASS_NS`, reference-core time, :mod:`models.core.platform`).  A subsystem counts
how many passes its path makes (the mechanism) and never fits its own per-byte cost: the one
coefficient is fitted where it shows alone (the LRO study's CPU efficiency,
``models.calibration.network``) and the other studies are its checks.

Likewise a byte on an Ethernet wire carries :data:`TCP_GOODPUT` of payload (framing, not a
fitted efficiency), and a byte ciphered in software costs :data:`AES128_CBC_CYCLES` cycles of
the core that ciphers it (a published benchmark figure, not fitted to any study here).
"""

from __future__ import annotations

from models.core import coefficients
from models.core.platform import processor_speed

BYTE_PASS_NS = coefficients.declare(
    "events.byte_pass_ns", "ns per byte of the reference core", 0.33,
    "One pass of a core over a byte of data: a copy from one buffer to another, or a checksum"
    " over it.  Fitted with network.cpu_msg_ns to LRO's CPU-efficiency gains (a received byte"
    " is three passes: vmkernel to guest, guest kernel to user, checksum;"
    " net-lro-native-to-vm-cpu-efficiency); the file-transfer tools' kernel, pipe and copy work"
    " (the FedEx study) and the virtual switch's VM-to-VM copy count passes of it.  Prior:"
    " 0.33 ns (memcpy at about 3 GB/s).")

RX_BYTE_PASSES = 3.0
"""A byte a VM receives: the vmkernel's copy into the guest's ring, the guest kernel's copy to
user space, and the checksum over it."""

TCP_GOODPUT = 1448.0 / 1538.0
"""Payload over wire bytes of TCP on a 1500-byte MTU: a 1448-byte segment (IPv4 and TCP headers
with timestamps) in a 1538-byte frame with its preamble and inter-frame gap.  10GbE carries
9.41 Gbit/s of payload, 1GbE 117.7 MB/s."""

AES128_CBC_CYCLES = 18.0
"""Software AES-128-CBC without AES-NI, cycles per byte of the core that ciphers: ``openssl
speed aes-128-cbc`` on one core of the 2.5-3 GHz Xeons of 2009-2011 ran 146-168 MB/s
(15-20 cycles a byte; 'about 23' for AES-GCM with its GHASH, Drucker, Gueron and Krasnov).
A published benchmark figure, not fitted to any study here."""

AES128_CBC_PROCESSOR = ("Intel Xeon X5560", 2.8)
"""A core of the benchmark's generation (Nehalem-EP) and its clock: the cycles above are its
cycles, turned into reference-core time through its SPEC figure."""


def aes128_cbc_ns() -> float:
    """ns of the reference core to cipher one byte with software AES-128-CBC."""
    model, ghz = AES128_CBC_PROCESSOR
    return AES128_CBC_CYCLES / ghz * processor_speed(model)

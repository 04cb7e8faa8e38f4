"""Which datastores share a storage array: LUNs grouped by NAA prefix, exports by NFS server.

A storage array of the design is a queueing station (its drives serve every VM whose disk is on
it), so datastores carved from one physical array must become one array.  The inventory does
not say which array a LUN lives on, but its address does:

- a VMFS datastore's address is its (first) LUN's NAA id, ``naa.`` + 32 hex digits: NAA type
  6, the vendor's IEEE OUI (6 digits), then a vendor-specific identifier whose leading digits
  name the array (controller or frame serial) and whose trailing ones the LUN.  LUNs sharing
  :data:`NAA_PREFIX` hex digits are taken to share an array;
- an NFS datastore's address is ``server:/export`` (or a ``nfs://`` URL): exports of one server
  share it;
- a vSAN datastore is its cluster's disk groups: an array of its own;
- a datastore without an address stays an array of its own (as before grouping existed);
- a VMFS datastore that exactly one host mounts is that host's **local storage** (a boot disk,
  ``datastore1 (12)``, ``esx01_local``), not a shared array: it groups only with other local
  datastores of the same host (one RAID controller's virtual disks), never with another host's.
  Where the source says what a datastore is (Live Optics' ``Local`` / ``Cluster`` devices,
  vCenter's ``multipleHostAccess``) its word is taken.  A datastore one host mounts stays a
  shared array where something says it lives on one: a LUN whose NAA names an array vendor
  (:data:`SAN_VENDORS`) or shares its NAA prefix with datastores other hosts mount (a LUN of
  the SAN presented to one host), or one reached over a fabric (FC, iSCSI).

The grouping is a heuristic (a vendor may put the LUN number early); the import report lists
every group it formed so that it can be checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from models.io.importers import DatastoreRecord

NAA_PREFIX = 16
"""Hex digits after ``naa.`` that name the array: NAA type (1), vendor OUI (6) and the first 9
vendor-specific digits (e.g. ``naa.6006016045502500`` for one Dell EMC VNX/Unity frame)."""

VENDORS = {
    "006016": "Dell EMC VNX/Unity", "000097": "Dell EMC VMAX/PowerMax",
    "00a098": "NetApp", "24a937": "Pure Storage", "0002ac": "HPE 3PAR/Primera",
    "001738": "IBM XIV", "005076": "IBM", "00c0ff": "HPE MSA", "001405": "Linux-IO iSCSI",
    "000e1e": "QLogic", "5000c5": "Seagate", "6c9ce9": "Hitachi", "0060e8": "Hitachi",
    "0000c5": "Huawei", "0014ce": "NetApp E-Series", "01b07a": "Nimble",
    "2d05c0": "Nutanix", "000c29": "VMware", "0090fa": "Emulex",
}
"""IEEE OUIs of common array vendors (for the array's name only)."""
SAN_VENDORS = frozenset(VENDORS) - {"5000c5", "000e1e", "000c29", "0090fa"}
"""OUIs that name a storage array (not a drive, an HBA or a virtual disk): a LUN of theirs is
on the SAN even where one host mounts it."""


@dataclass
class ArrayGroup:
    key: str
    name: str
    protocol: str | None
    address: str
    datastores: list[DatastoreRecord] = field(default_factory=list)
    local: bool = False
    """One host's own disks (:func:`is_local`), not a shared array."""

    @property
    def host(self) -> str:
        """The host a local group's datastores are on ("" when the inventory names none)."""
        return next((h for d in self.datastores for h in d.hosts), "") if self.local else ""


def protocol(ds_type: str) -> str | None:
    t = ds_type.lower()
    if t.startswith("nfs"):
        return "nfs"
    if "vsan" in t:
        return "vsan"
    return t if t in ("fc", "iscsi", "sas") else None  # a LUN's protocol, when known


def _nfs_server(address: str) -> str | None:
    a = address.strip()
    if "://" in a:
        host = urlsplit(a).hostname
        return host.lower() if host else None
    m = re.match(r"([^:/\s]+):/", a)
    return m.group(1).lower() if m else None


def _naa_prefix(address: str) -> str | None:
    m = re.match(rf"naa\.([0-9a-f]{{{NAA_PREFIX}}})", address.strip().lower())
    return m.group(1) if m else None


def mounts(ds: DatastoreRecord) -> int:
    """How many hosts mount ``ds``: the inventory's count where it has one, else the hosts it
    names."""
    named = len(set(ds.hosts))
    return ds.host_count if ds.host_count is not None and ds.host_count >= named else named


def is_local(ds: DatastoreRecord, shared_prefixes: frozenset[str] = frozenset()) -> bool:
    """Whether ``ds`` is one host's own disks (see the module docstring): the source's word,
    else a VMFS datastore exactly one host mounts whose LUN is not the SAN's (an array
    vendor's NAA, or an NAA prefix in ``shared_prefixes``: those of datastores several hosts
    mount) and that is not reached over a fabric."""
    if ds.local is not None:
        return ds.local
    t = ds.type.strip().lower()
    if mounts(ds) != 1 or protocol(ds.type) in ("nfs", "vsan", "fc", "iscsi") \
            or "vvol" in t or "pmem" in t or array_key(ds)[0].startswith(("nfs:", "vsan:")):
        return False
    prefix = _naa_prefix(ds.address)
    return prefix is None or (prefix[1:7] not in SAN_VENDORS and prefix not in shared_prefixes)


def array_key(ds: DatastoreRecord) -> tuple[str, str, str]:
    """(group key, array name, address) of a datastore."""
    proto = protocol(ds.type)
    addr = ds.address.strip()
    low = addr.lower()
    if proto == "vsan":
        return f"vsan:{ds.name}", ds.name, low or ds.name
    if proto == "nfs" or (_nfs_server(addr) and not low.startswith(("naa.", "eui.", "t10."))):
        server = _nfs_server(addr)
        if server:
            return f"nfs:{server}", f"NFS {server}", server
        return f"ds:{ds.name}", ds.name, low
    m = re.match(rf"naa\.([0-9a-f]{{{NAA_PREFIX}}})", low)
    if m:
        prefix = m.group(1)
        vendor = VENDORS.get(prefix[1:7], "")
        label = f"{vendor} array" if vendor else "array"
        return f"naa:{prefix}", f"{label} naa.{prefix}", f"naa.{prefix}"
    return f"ds:{ds.name}", ds.name, low


def group_datastores(datastores: list[DatastoreRecord]) -> list[ArrayGroup]:
    """Datastores grouped into arrays, in the order of their first datastore; a local one
    (:func:`is_local`) only with the same host's local datastores."""
    shared = frozenset(p for d in datastores if mounts(d) > 1
                       and (p := _naa_prefix(d.address)) is not None)
    groups: dict[str, ArrayGroup] = {}
    for ds in datastores:
        local = is_local(ds, shared)
        key, name, address = array_key(ds)
        if local:  # one host's disks: never another host's, nor a shared array's
            host = ds.hosts[0].lower() if ds.hosts else ""
            key = f"local:{host}:{key}" if host else f"local::ds:{ds.name}"
            name = f"{ds.hosts[0]} local disks" if host else ds.name
        g = groups.get(key)
        if g is None:
            g = groups[key] = ArrayGroup(key, name, protocol(ds.type), address, local=local)
        g.datastores.append(ds)
    for g in groups.values():
        if len(g.datastores) == 1:  # a datastore alone keeps its own name
            g.name = g.datastores[0].name
        elif g.protocol is None:
            protos = {protocol(d.type) for d in g.datastores}
            g.protocol = protos.pop() if len(protos) == 1 else None
    return list(groups.values())

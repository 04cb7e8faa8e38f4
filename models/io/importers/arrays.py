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
- a datastore without an address stays an array of its own (as before grouping existed).

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


@dataclass
class ArrayGroup:
    key: str
    name: str
    protocol: str | None
    address: str
    datastores: list[DatastoreRecord] = field(default_factory=list)


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
    """Datastores grouped into arrays, in the order of their first datastore."""
    groups: dict[str, ArrayGroup] = {}
    for ds in datastores:
        key, name, address = array_key(ds)
        g = groups.get(key)
        if g is None:
            g = groups[key] = ArrayGroup(key, name, protocol(ds.type), address)
        g.datastores.append(ds)
    for g in groups.values():
        if len(g.datastores) == 1:  # a datastore alone keeps its own name
            g.name = g.datastores[0].name
        elif g.protocol is None:
            protos = {protocol(d.type) for d in g.datastores}
            g.protocol = protos.pop() if len(protos) == 1 else None
    return list(groups.values())

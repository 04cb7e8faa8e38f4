"""Read a live vCenter (or ESXi) inventory with pyVmomi.

One ContainerView over the root folder and one ``RetrievePropertiesEx`` (paged with
``ContinueRetrievePropertiesEx``) with explicit property paths per type: no per-object round
trips, and no lazy attribute walks that break on servers (or simulators) that leave a property
unset.  The connection's credentials are used to log in and then forgotten: nothing of them
reaches the design, the report or the records.
"""

from __future__ import annotations

import contextlib
import ssl
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from models.document.design import Design, DesignError, Issue
from models.io.importers import (
    DatastoreRecord,
    Estate,
    HostRecord,
    ImportReport,
    NicRecord,
    Progress,
    SiteBy,
    VmRecord,
    build_design,
)

PROPS: dict[str, list[str]] = {
    "HostSystem": ["name", "parent", "summary.hardware.numCpuPkgs",
                   "summary.hardware.numCpuCores", "summary.hardware.numCpuThreads",
                   "summary.hardware.cpuMhz", "summary.hardware.memorySize",
                   "summary.hardware.cpuModel", "summary.config.product.fullName",
                   "config.hyperThread.active", "config.network.pnic"],
    "VirtualMachine": ["name", "config.template", "config.hardware.numCPU",
                       "config.hardware.memoryMB", "config.guestFullName", "runtime.host",
                       "runtime.powerState", "runtime.faultToleranceState",
                       "summary.config.ftInfo.role", "datastore"],
    "Datastore": ["name", "summary.type", "summary.capacity", "host"],
    "ComputeResource": ["name", "parent"],
    "Datacenter": ["name", "parent"],
    "Folder": ["name", "parent"],
}


@dataclass(frozen=True)
class Connection:
    """Where and how to connect.  ``password`` is used for the login only and never stored."""

    host: str
    user: str
    password: str
    port: int = 443
    insecure: bool = False
    """Skip TLS certificate verification (test simulators, or an explicit --insecure)."""

    def __repr__(self) -> str:  # keep the password out of logs and tracebacks
        return f"Connection(host={self.host!r}, port={self.port}, user=***)"


def parse_server(text: str, default_port: int = 443) -> tuple[str, int]:
    """``vc.example.com``, ``vc:8443`` or ``https://vc/sdk`` -> (host, port).  A user or password
    in the URL is refused: it would end up in shell history."""
    raw = text.strip()
    parts = urlsplit(raw if "//" in raw else "//" + raw)
    if parts.username or parts.password:
        raise DesignError([Issue("vCenter address", "do not put credentials in the address;"
                                 " use --user and the HEADROOM_VCENTER_PASSWORD variable or"
                                 " the prompt")])
    if not parts.hostname:
        raise DesignError([Issue("vCenter address", f"'{text}' names no host")])
    try:
        port = parts.port or default_port
    except ValueError:
        raise DesignError([Issue("vCenter address", f"'{text}' has a bad port")]) from None
    return parts.hostname, port


def _connect(conn: Connection) -> Any:
    from pyVim.connect import SmartConnect  # noqa: PLC0415  (only when importing)
    from pyVmomi import vim  # noqa: PLC0415

    where = f"vCenter {conn.host}:{conn.port}"
    try:
        # an explicit verifying context: pyVmomi would skip verification for loopback hosts
        context = None if conn.insecure else ssl.create_default_context()
        return SmartConnect(host=conn.host, port=conn.port, user=conn.user, pwd=conn.password,
                            sslContext=context, disableSslCertValidation=conn.insecure,
                            httpConnectionTimeout=60, connectionPoolTimeout=-1)
    except vim.fault.InvalidLogin:
        raise DesignError([Issue(where, "login refused: wrong user name or password")]) \
            from None
    except ssl.SSLCertVerificationError as err:
        raise DesignError([Issue(where, f"the server's TLS certificate is not trusted"
                                 f" ({err.verify_message}); use --insecure only for a lab or"
                                 " test server")]) from None
    except OSError as err:
        raise DesignError([Issue(where, f"cannot connect: {err}")]) from None
    except Exception as err:  # pyVmomi raises faults of many types
        msg = getattr(err, "msg", "") or str(err) or type(err).__name__
        raise DesignError([Issue(where, f"cannot log in: {msg}")]) from None


def _retrieve(si: Any, progress: Progress | None) -> Iterator[Any]:
    """Every object of the types in PROPS with its properties, page by page."""
    from pyVmomi import vim, vmodl  # noqa: PLC0415

    content = si.RetrieveContent()
    types = [getattr(vim, t) for t in PROPS]
    view = content.viewManager.CreateContainerView(content.rootFolder, types, True)
    try:
        pc = vmodl.query.PropertyCollector
        traverse = pc.TraversalSpec(name="view", path="view", skip=False,
                                    type=vim.view.ContainerView)
        spec = pc.FilterSpec(
            objectSet=[pc.ObjectSpec(obj=view, skip=True, selectSet=[traverse])],
            propSet=[pc.PropertySpec(type=getattr(vim, t), pathSet=paths, all=False)
                     for t, paths in PROPS.items()],
            reportMissingObjectsInResults=False)
        collector = content.propertyCollector
        result = collector.RetrievePropertiesEx([spec], pc.RetrieveOptions(maxObjects=1000))
        done = 0
        while result is not None:
            yield from result.objects
            done += len(result.objects)
            if progress is not None:
                progress(done, 0, "reading the inventory")
            token = result.token
            result = collector.ContinueRetrievePropertiesEx(token) if token else None
    finally:
        view.Destroy()


def _ref(obj: Any) -> str:
    return str(obj._moId) if obj is not None else ""


def read_estate(conn: Connection, report: ImportReport,
                progress: Progress | None = None) -> Estate:
    """Log in, read the inventory into an :class:`Estate`, log out."""
    from pyVim.connect import Disconnect  # noqa: PLC0415
    from pyVmomi import vim  # noqa: PLC0415

    si = _connect(conn)
    objs: dict[str, tuple[str, dict[str, Any]]] = {}
    try:
        for oc in _retrieve(si, progress):
            props = {p.name: p.val for p in oc.propSet or ()}
            for missing in oc.missingSet or ():
                props.setdefault(missing.path, None)
            objs[_ref(oc.obj)] = (type(oc.obj).__name__.rsplit(".", 1)[-1], props)
    except vim.fault.NoPermission as err:
        raise DesignError([Issue(f"vCenter {conn.host}", "the user may not read the inventory"
                                 f" ({getattr(err, 'privilegeId', '')})")]) from None
    except DesignError:
        raise
    except Exception as err:
        msg = getattr(err, "msg", "") or str(err) or type(err).__name__
        raise DesignError([Issue(f"vCenter {conn.host}", f"reading the inventory failed:"
                                 f" {msg}")]) from None
    finally:
        with contextlib.suppress(Exception):  # logging out of a broken session
            Disconnect(si)
    return _estate(conn.host, objs, report)


def _estate(host: str, objs: dict[str, tuple[str, dict[str, Any]]],
            report: ImportReport) -> Estate:
    names = {ref: p.get("name") or ref for ref, (_, p) in objs.items()}

    def up(ref: str, want: tuple[str, ...]) -> str:
        seen = 0
        while ref and ref in objs and seen < 64:
            kind, p = objs[ref]
            if kind in want:
                return ref
            ref, seen = _ref(p.get("parent")), seen + 1
        return ""

    estate = Estate(source=f"vCenter {host}")
    for ref, (kind, p) in objs.items():
        where = f"{kind} {ref}"
        if kind == "HostSystem":
            cr = _ref(p.get("parent"))
            cluster = names.get(cr, "") if objs.get(cr, ("",))[0] == \
                "ClusterComputeResource" else ""
            h = HostRecord(name=str(p.get("name") or ref), where=where, cluster=cluster,
                           datacenter=names.get(up(cr, ("Datacenter",)), ""),
                           cpu_model=str(p.get("summary.hardware.cpuModel") or ""),
                           version=str(p.get("summary.config.product.fullName") or ""))
            pkgs = _int(p.get("summary.hardware.numCpuPkgs"))
            cores = _int(p.get("summary.hardware.numCpuCores"))
            threads = _int(p.get("summary.hardware.numCpuThreads"))
            h.sockets = pkgs
            h.cores = cores
            if pkgs and cores:
                h.cores_per_socket = max(1, cores // pkgs)
            mhz = p.get("summary.hardware.cpuMhz")
            h.mhz = float(mhz) if mhz else None
            mem = p.get("summary.hardware.memorySize")
            h.memory_mib = float(mem) / 2**20 if mem else None
            ht = p.get("config.hyperThread.active")
            h.hyperthreading = bool(ht) if ht is not None else (
                bool(threads and cores and threads > cores) if threads else None)
            for pnic in p.get("config.network.pnic") or ():
                speed = getattr(getattr(pnic, "linkSpeed", None), "speedMb", None)
                h.nics.append(NicRecord(name=str(pnic.device), speed_mbps=float(speed)
                                        if speed else None, where=f"{where} {pnic.device}"))
            estate.hosts.append(h)
        elif kind == "VirtualMachine":
            host_ref = _ref(p.get("runtime.host"))
            cr = _ref(objs.get(host_ref, ("", {}))[1].get("parent"))
            role = p.get("summary.config.ftInfo.role")
            vm = VmRecord(name=str(p.get("name") or ref), where=where,
                          host=names.get(host_ref, "") if host_ref else "",
                          cluster=names.get(cr, ""),
                          vcpus=_int(p.get("config.hardware.numCPU")),
                          powered_on=str(p.get("runtime.powerState")) != "poweredOff",
                          template=bool(p.get("config.template")),
                          os=str(p.get("config.guestFullName") or ""),
                          ft_state=str(p.get("runtime.faultToleranceState") or ""),
                          ft_secondary=(_int(role) or 0) > 1,
                          datastores=[names.get(_ref(d), "") for d in
                                      p.get("datastore") or ()])
            mem = p.get("config.hardware.memoryMB")
            vm.memory_mib = float(mem) if mem else None
            estate.vms.append(vm)
        elif kind == "Datastore":
            cap = p.get("summary.capacity")
            estate.datastores.append(DatastoreRecord(
                name=str(p.get("name") or ref), where=where,
                type=str(p.get("summary.type") or ""),
                capacity_mib=float(cap) / 2**20 if cap else None,
                hosts=[names.get(_ref(m.key), "") for m in p.get("host") or ()]))
    estate.hosts.sort(key=lambda h: (h.datacenter, h.cluster, h.name))
    estate.vms.sort(key=lambda v: v.name)
    estate.datastores.sort(key=lambda d: d.name)
    if not estate.hosts:
        report.notes.append("the inventory has no hosts the user can see")
    return estate


def _int(v: Any) -> int | None:
    try:
        return int(v) if v is not None else None
    except (TypeError, ValueError):
        return None


def import_vcenter(conn: Connection, *, site_by: SiteBy = "datacenter",
                   include_powered_off: bool = False,
                   progress: Progress | None = None) -> tuple[Design, ImportReport]:
    """Import a live vCenter inventory as a design with an auto-layout, and its report."""
    t0 = time.perf_counter()
    report = ImportReport(source=f"vCenter {conn.host}")
    estate = read_estate(conn, report, progress)
    design = build_design(estate, report, name=f"Estate from {conn.host}", site_by=site_by,
                          include_powered_off=include_powered_off, progress=progress)
    design.notes = f"Imported from vCenter {conn.host} on {time.strftime('%Y-%m-%d')}."
    report.seconds = time.perf_counter() - t0
    return design, report

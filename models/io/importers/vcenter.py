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
from models.document.words import kind_count
from models.io.importers import (
    ClusterRecord,
    DatastoreRecord,
    Estate,
    HostRecord,
    ImportReport,
    NicRecord,
    Progress,
    SiteBy,
    VmRecord,
)
from models.io.importers.build import build_design
from models.io.importers.importer import Importer, Option, Options, site_by
from models.io.importers.measurements import STATS

PASSWORD_ENV = "HEADROOM_VCENTER_PASSWORD"
"""Where ``headroom import-vcenter`` finds the password (else it prompts in a terminal)."""

PROPS: dict[str, list[str]] = {
    "HostSystem": ["name", "parent", "summary.hardware.numCpuPkgs",
                   "summary.hardware.numCpuCores", "summary.hardware.numCpuThreads",
                   "summary.hardware.cpuMhz", "summary.hardware.memorySize",
                   "summary.hardware.cpuModel", "summary.config.product.fullName",
                   "config.hyperThread.active", "config.network.pnic",
                   "summary.quickStats.overallCpuUsage",
                   "summary.quickStats.overallMemoryUsage", "vm"],
    "VirtualMachine": ["name", "config.template", "config.hardware.numCPU",
                       "config.hardware.memoryMB", "config.guestFullName", "runtime.host",
                       "runtime.powerState", "runtime.faultToleranceState",
                       "summary.config.ftInfo.role", "datastore", "config.hardware.device",
                       "summary.quickStats.overallCpuUsage",
                       "summary.quickStats.hostMemoryUsage",
                       "summary.quickStats.guestMemoryUsage", "summary.runtime.maxCpuUsage",
                       "summary.storage.committed", "summary.storage.uncommitted",
                       "runtime.connectionState"],
    "Datastore": ["name", "summary.type", "summary.capacity", "summary.freeSpace",
                  "summary.uncommitted", "summary.url", "summary.multipleHostAccess", "host",
                  "info"],
    "ClusterComputeResource": ["configurationEx"],
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
                                 " give the user and the password on their own (the user"
                                 f" option and the {PASSWORD_ENV} variable or the prompt)")])
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
                                 f" ({err.verify_message}); turn its verification off only"
                                 " for a lab or test server")]) from None
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
                progress: Progress | None = None, *, perf_days: int | None = None,
                stat: str = "p95") -> Estate:
    """Log in, read the inventory into an :class:`Estate` (with ``perf_days`` of performance
    history reduced to ``stat`` when asked), log out."""
    from pyVim.connect import Disconnect  # noqa: PLC0415
    from pyVmomi import vim  # noqa: PLC0415

    si = _connect(conn)
    objs: dict[str, tuple[str, dict[str, Any]]] = {}
    refs: dict[str, Any] = {}
    estate: Estate | None = None
    try:
        for oc in _retrieve(si, progress):
            props = {p.name: p.val for p in oc.propSet or ()}
            for missing in oc.missingSet or ():
                props.setdefault(missing.path, None)
            objs[_ref(oc.obj)] = (type(oc.obj).__name__.rsplit(".", 1)[-1], props)
            refs[_ref(oc.obj)] = oc.obj
        estate = _estate(conn.host, objs, report)
        if perf_days:
            _perf(si, estate, objs, refs, perf_days, stat, report, progress)
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
    assert estate is not None
    return estate


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

    taken = time.strftime("%Y-%m-%d %H:%M")
    quick = f"vCenter {host} quickStats at {taken}"
    estate = Estate(source=f"vCenter {host}", taken=f"read {taken}")
    for ref, (kind, p) in objs.items():
        where = f"{kind} {ref}"
        if kind == "HostSystem":
            estate.hosts.append(_host(ref, p, objs, names, up, quick))
        elif kind == "VirtualMachine":
            estate.vms.append(_vm(ref, p, objs, names, quick))
        elif kind == "Datastore":
            cap = p.get("summary.capacity")
            free = p.get("summary.freeSpace")
            unc = p.get("summary.uncommitted")
            ds = DatastoreRecord(
                name=str(p.get("name") or ref), where=where,
                type=str(p.get("summary.type") or ""),
                capacity_mib=float(cap) / 2**20 if cap else None,
                hosts=[names.get(_ref(m.key), "") for m in p.get("host") or ()],
                address=_address(p.get("info"), str(p.get("summary.url") or "")))
            if p.get("summary.multipleHostAccess") is True:  # vCenter: configured shared
                ds.local = False
            if cap and free is not None:
                ds.in_use_mib = (float(cap) - float(free)) / 2**20
                ds.provisioned_mib = ds.in_use_mib + float(unc or 0) / 2**20
            estate.datastores.append(ds)
        elif kind == "ClusterComputeResource":
            estate.clusters.append(_cluster(ref, p))
    estate.hosts.sort(key=lambda h: (h.datacenter, h.cluster, h.name))
    estate.vms.sort(key=lambda v: v.name)
    estate.datastores.sort(key=lambda d: d.name)
    estate.clusters.sort(key=lambda c: c.name)
    if not estate.hosts:
        report.notes.append("the inventory has no hosts the user can see")
    return estate


def _host(ref: str, p: dict[str, Any], objs: dict[str, tuple[str, dict[str, Any]]],
          names: dict[str, Any], up: Any, quick: str) -> HostRecord:
    where = f"HostSystem {ref}"
    cr = _ref(p.get("parent"))
    cluster = names.get(cr, "") if objs.get(cr, ("",))[0] == "ClusterComputeResource" else ""
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
    used = p.get("summary.quickStats.overallCpuUsage")
    if used is not None and h.mhz and cores:
        h.cpu_usage_pct = float(used) / (h.mhz * cores) * 100.0
    mem_used = p.get("summary.quickStats.overallMemoryUsage")
    if mem_used is not None and h.memory_mib:
        h.memory_usage_pct = float(mem_used) / h.memory_mib * 100.0
    if h.cpu_usage_pct is not None or h.memory_usage_pct is not None:
        h.measured_by = f"{quick}: overallCpuUsage and overallMemoryUsage"
    if p.get("vm") is not None:  # every VM registered on it, seen by this user or not
        h.vms_recorded = len(p["vm"])
    return h


def _vm(ref: str, p: dict[str, Any], objs: dict[str, tuple[str, dict[str, Any]]],
        names: dict[str, Any], quick: str) -> VmRecord:
    host_ref = _ref(p.get("runtime.host"))
    cr = _ref(objs.get(host_ref, ("", {}))[1].get("parent"))
    role = p.get("summary.config.ftInfo.role")
    vm = VmRecord(name=str(p.get("name") or ref), where=f"VirtualMachine {ref}",
                  host=names.get(host_ref, "") if host_ref else "",
                  cluster=names.get(cr, ""),
                  vcpus=_int(p.get("config.hardware.numCPU")),
                  powered_on=str(p.get("runtime.powerState")) != "poweredOff",
                  template=bool(p.get("config.template")),
                  orphaned=str(p.get("runtime.connectionState") or "") in (
                      "orphaned", "inaccessible", "invalid"),
                  os=str(p.get("config.guestFullName") or ""),
                  ft_state=str(p.get("runtime.faultToleranceState") or ""),
                  ft_secondary=(_int(role) or 0) > 1,
                  datastores=[names.get(_ref(d), "") for d in p.get("datastore") or ()])
    mem = p.get("config.hardware.memoryMB")
    vm.memory_mib = float(mem) if mem else None
    committed, unc = p.get("summary.storage.committed"), p.get("summary.storage.uncommitted")
    if committed is not None:
        vm.in_use_mib = float(committed) / 2**20
        vm.provisioned_mib = (float(committed) + float(unc or 0)) / 2**20
    _devices(vm, p.get("config.hardware.device") or ())
    m = vm.measured
    cpu = p.get("summary.quickStats.overallCpuUsage")
    if cpu is not None and vm.powered_on:
        m.cpu_mhz = float(cpu)
        m.cpu_max_mhz = _float(p.get("summary.runtime.maxCpuUsage")) or None
        m.sources["cpu"] = f"{quick}: overallCpuUsage"
    consumed = p.get("summary.quickStats.hostMemoryUsage")
    if consumed is not None and vm.powered_on:
        m.memory_consumed_mib = float(consumed)
        m.sources["memory"] = f"{quick}: hostMemoryUsage"
    active = p.get("summary.quickStats.guestMemoryUsage")
    if active is not None and vm.powered_on:
        m.memory_active_mib = float(active)
    return vm


def _devices(vm: VmRecord, devices: Any) -> None:
    """Each virtual disk's controller type and thin provisioning."""
    controllers: dict[int, str] = {}
    disks = []
    for d in devices:
        kind = type(d).__name__.rsplit(".", 1)[-1]
        if "Controller" in kind and hasattr(d, "key"):
            controllers[int(d.key)] = kind
        elif kind == "VirtualDisk":
            disks.append(d)
    names = {"ParaVirtualSCSIController": "VMware Paravirtual",
             "VirtualLsiLogicSASController": "LSI Logic SAS",
             "VirtualLsiLogicController": "LSI Logic Parallel",
             "VirtualBusLogicController": "BusLogic", "VirtualAHCIController": "SATA AHCI",
             "VirtualNVMEController": "NVMe", "VirtualIDEController": "IDE"}
    for d in disks:
        kind = controllers.get(int(getattr(d, "controllerKey", -1) or -1), "")
        vm.disks += 1
        if kind:
            vm.controllers.append(names.get(kind, kind))
        if bool(getattr(getattr(d, "backing", None), "thinProvisioned", False)):
            vm.thin_disks += 1


def _address(info: Any, url: str) -> str:
    """A datastore's NAA id (VMFS), server:/path (NFS) or URL."""
    vmfs = getattr(info, "vmfs", None)
    extents = getattr(vmfs, "extent", None) or ()
    if extents:
        return str(getattr(extents[0], "diskName", "") or "")
    nas = getattr(info, "nas", None)
    if nas is not None and getattr(nas, "remoteHost", None):
        return f"{nas.remoteHost}:{getattr(nas, 'remotePath', '') or '/'}"
    return url


def _cluster(ref: str, p: dict[str, Any]) -> ClusterRecord:
    rec = ClusterRecord(name=str(p.get("name") or ref), where=f"ClusterComputeResource {ref}")
    cfg = p.get("configurationEx")
    das = getattr(cfg, "dasConfig", None)
    if das is not None:
        rec.ha_enabled = bool(getattr(das, "enabled", False))
        rec.admission_control = bool(getattr(das, "admissionControlEnabled", False))
        policy = getattr(das, "admissionControlPolicy", None)
        kind = type(policy).__name__ if policy is not None else ""
        if "FailoverResources" in kind:
            rec.cpu_failover_pct = _float(getattr(policy, "cpuFailoverResourcesPercent", None))
            rec.memory_failover_pct = _float(getattr(policy, "memoryFailoverResourcesPercent",
                                                     None))
        elif "FailoverLevel" in kind:
            rec.failover_hosts = _int(getattr(policy, "failoverLevel", None))
        elif "FailoverHost" in kind:
            rec.failover_hosts = len(getattr(policy, "failoverHosts", None) or ())
    drs = getattr(cfg, "drsConfig", None)
    if drs is not None:
        rec.drs_enabled = bool(getattr(drs, "enabled", False))
        rec.drs_behavior = str(getattr(drs, "defaultVmBehavior", "") or "")
    return rec


def _float(v: Any) -> float | None:
    try:
        return float(v) if v is not None else None
    except (TypeError, ValueError):
        return None


def _perf(si: Any, estate: Estate, objs: dict[str, tuple[str, dict[str, Any]]],
          refs: dict[str, Any], days: int, stat: str, report: ImportReport,
          progress: Progress | None) -> None:
    """Performance history onto the estate's running VMs and hosts (vcenter_perf)."""
    from models.io.importers.vcenter_perf import read_perf  # noqa: PLC0415

    by_name = {str(p.get("name")): ref for ref, (_, p) in objs.items()}
    vms = {v.name: refs[by_name[v.name]] for v in estate.vms
           if v.powered_on and not v.template and v.name in by_name}
    hosts = {h.name: (refs[by_name[h.name]], (h.mhz or 0.0) * (h.cores or 0),
                      h.memory_mib or 0.0) for h in estate.hosts if h.name in by_name}
    res = read_perf(si, vms, hosts, days, stat, progress)
    for vm in estate.vms:
        m = res.vms.get(vm.name)
        if m is not None:
            m.cpu_max_mhz = m.cpu_max_mhz or vm.measured.cpu_max_mhz
            vm.measured = m
    for h in estate.hosts:
        hm = res.hosts.get(h.name)
        if hm is not None and (hm.cpu_pct is not None or hm.memory_pct is not None
                               or hm.iops is not None):
            h.cpu_usage_pct, h.memory_usage_pct = hm.cpu_pct, hm.memory_pct
            h.iops, h.read_pct, h.io_kb = hm.iops, hm.read_pct, hm.io_kb
            h.measured_by = res.source.format(
                counter="cpu.usagemhz and mem.consumed" + (
                    ", datastore.numberRead/WriteAveraged" if hm.iops is not None else ""))
    report.provenance.append(res.source.format(counter="<counter>")
                             + f": {kind_count('vm', len(res.vms))},"
                             f" {kind_count('host', len(res.hosts))}")
    report.notes.extend(res.notes)


def _int(v: Any) -> int | None:
    try:
        return int(v) if v is not None else None
    except (TypeError, ValueError):
        return None


def import_vcenter(conn: Connection, *, site_by: SiteBy = "datacenter",
                   include_powered_off: bool = False, progress: Progress | None = None,
                   perf_days: int | None = None,
                   stat: str = "p95") -> tuple[Design, ImportReport]:
    """Import a live vCenter inventory as a design with an auto-layout and a calibrated
    baseline, and its report.  ``perf_days`` reads that many days of performance history and
    sets each VM's demand from ``stat`` of it (else the inventory's instantaneous
    quickStats)."""
    from models.analysis import baseline  # noqa: PLC0415  (analysis reads the engine)

    if perf_days is not None and perf_days < 1:
        raise DesignError([Issue("--perf", f"expected a number of days >= 1, got {perf_days}")])
    t0 = time.perf_counter()
    report = ImportReport(source=f"vCenter {conn.host}")
    estate = read_estate(conn, report, progress, perf_days=perf_days, stat=stat)
    design = build_design(estate, report, name=f"Estate from {conn.host}", site_by=site_by,
                          include_powered_off=include_powered_off, progress=progress)
    design.notes = f"Imported from vCenter {conn.host} on {time.strftime('%Y-%m-%d')}."
    baseline.calibrate_after_import(design, report)
    report.seconds = time.perf_counter() - t0
    return design, report


def _check(server: str, options: Options) -> None:
    parse_server(server, _int(options.get("port")) or 443)


def _read_design(server: str, options: Options,
                 progress: Progress | None) -> tuple[Design, ImportReport]:
    host, port = parse_server(server, _int(options.get("port")) or 443)
    conn = Connection(host, str(options.get("user") or ""), str(options.get("password") or ""),
                      port, insecure=bool(options.get("insecure")))
    return import_vcenter(conn, site_by=site_by(options),
                          include_powered_off=bool(options.get("include_powered_off")),
                          progress=progress, perf_days=_int(options.get("perf")),
                          stat=str(options.get("stat") or "p95"))


IMPORTER = Importer(
    id="vcenter", name="vCenter", title="Live vCenter",
    description="a live vCenter inventory (server, user and password)",
    source=Option("server", "text", help="vCenter host name, host:port or https://host/sdk",
                  label="Server", placeholder="vcenter.example.com"),
    command="import-vcenter",
    help=f"import a live vCenter inventory as a design (password from ${PASSWORD_ENV} or a"
    " prompt)",
    menu_text="Live &vCenter", tip="Read hosts, VMs and datastores from a vCenter",
    dialog_title="Import from vCenter", working="Reading vCenter {source}",
    options=(
        Option("port", "int", flag="--port", default=443, label="Port", bounds=(1, 65535)),
        Option("user", "text", flag="--user", required=True, label="User",
               placeholder="administrator@vsphere.local"),
        Option("password", "secret", label="Password", env=PASSWORD_ENV,
               prompt="password for {user} at {server}: "),
        Option("insecure", "flag", flag="--insecure", default=False,
               label="Do not verify the TLS certificate (labs and simulators only)",
               help="do not verify the server's TLS certificate (labs and simulators only)"),
        Option("perf", "int", flag="--perf", metavar="DAYS",
               help="read DAYS of performance history (CPU, memory, virtual disks, network)"
               " and set each VM's demand from it"),
        Option("stat", "choice", flag="--stat", default="p95",
               choices=tuple((s, s) for s in STATS),
               help="statistic of the performance history (default p95)"),
    ),
    check=_check, read_design=_read_design, preload=("pyVmomi",),
)

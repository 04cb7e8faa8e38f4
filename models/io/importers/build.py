"""Map an :class:`~models.io.importers.Estate` onto a valid design, filling the import report.

Conventions of the imported design:

- ids are slugs of the inventory names with a kind prefix (``h-esx01``, ``vm-web01``,
  ``ds-gold01``, ``cl-prod``, ``site-dc1``), unique within the design;
- hosts and VMs carry a ``cluster-<slug>`` tag, so ``--set tag:cluster-prod.vcpus=4`` can
  address a cluster; hosts join ``cluster`` components (``in_cluster``) with
  the cluster's HA admission control and DRS where the inventory records them;
- storage arrays come from datastores, LUNs of one array grouped (:mod:`.arrays`); media,
  drive count and RAID are not in the inventory and keep the schema defaults; a datastore one
  host mounts (its boot or local disks) is that host's local storage: ``local``, protocol
  ``sas`` (its own controller, no fabric), linked to that host alone, and a VM whose host is
  not in the inventory but whose disk is there runs on it;
- a running VM's workload is ``measured``: what the inventory measured (``measured.*``, with
  ``provenance.*`` saying from where), no invented I/O;
  :func:`models.analysis.baseline.solve` then sets the workload figures that reproduce it;
- a VM whose host is not in the inventory is placed on the least-loaded host of its cluster;
  with neither it is imported unplaced (no ``runs_on`` link) and tagged ``unplaced``.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from models.document.catalogue import processors
from models.document.design import Component, Design, Link
from models.document.numbers import NOT_MEASURED, counted, prop_value, with_unit
from models.document.schema import HOST, VM, choice_label, prop_label
from models.document.words import kind_count
from models.io.arrange import arrange_in_place
from models.io.importers import (
    ClusterRecord,
    DatastoreRecord,
    Estate,
    Folded,
    HostRecord,
    ImportReport,
    Progress,
    SiteBy,
    Skipped,
    VmRecord,
    drop_invalid_values,
    guest_family,
    nearest_esxi,
    nic_speed_gbps,
    slug,
    vnic_type,
)
from models.io.importers.arrays import group_datastores, mounts

ASSUMED_DEVICE_TB = 3.84
"""An imported vSAN host's capacity device, where the inventory lists none: a common NVMe and
SAS SSD size; the datastore's capacity over the hosts sets how many (an assumption, said)."""
LOCAL_PROTOCOL = "sas"
"""A local datastore's protocol: the host's own SAS/SATA controller, no fabric (the design
format's name; NVMe and SATA disks are modelled alike)."""

MIB_PER_GB = 1024.0


class _Ids:
    def __init__(self) -> None:
        self.used: set[str] = set()

    def make(self, prefix: str, name: str) -> str:
        base = f"{prefix}-{slug(name)}"
        cid, n = base, 2
        while cid in self.used:
            cid, n = f"{base}-{n}", n + 1
        self.used.add(cid)
        return cid


def _in_range(spec_name: str, value: float, kind_props: dict[str, Any]) -> bool:
    spec = kind_props[spec_name]
    return not ((spec.min is not None and value < spec.min)
                or (spec.max is not None and value > spec.max))


def build_design(estate: Estate, report: ImportReport, *, name: str = "",
                 site_by: SiteBy = "datacenter", include_powered_off: bool = False,
                 progress: Progress | None = None) -> Design:
    """Map an :class:`Estate` onto a valid :class:`Design` laid out as the canvas draws it
    (:func:`models.io.arrange.arrange_in_place`: host cards in their clusters and sites,
    nothing overlapping), filling ``report``.  Credentials never reach the design: records
    carry inventory data only."""

    design = Design(name=name or f"Imported from {estate.source}")
    b = _Builder(design, report, site_by)
    b.listed = Counter(v.host for v in estate.vms if v.host)
    b.hosts(estate.hosts)
    b.clusters(estate.clusters, estate.hosts)
    b.arrays(estate)
    b.vms(estate.vms, include_powered_off, progress)
    b.finish()
    drop_invalid_values(design, report.notes.append)
    return arrange_in_place(design)


class _Builder:
    def __init__(self, design: Design, report: ImportReport, site_by: SiteBy) -> None:
        self.design, self.report, self.site_by = design, report, site_by
        self.ids = _Ids()
        self.counts: Counter[str] = Counter()
        self.sites: dict[str, str] = {}
        self.host_ids: dict[str, str] = {}
        self.host_cluster: dict[str, str] = {}
        self.cluster_ids: dict[str, str] = {}
        self.cluster_hosts: dict[str, list[str]] = {}
        self.load: dict[str, float] = {}
        self.arrays_by_ds: dict[str, str] = {}
        self.local_ds: dict[tuple[str, str], str] = {}
        """(host name, datastore name) -> the local array: a name two hosts' local
        datastores share (``datastore1`` in two datacenters) is each host's own."""
        self.local_host: dict[str, str | None] = {}
        """Local array -> the host it is on (None until a VM on it names one)."""
        self.hid_cluster: dict[str, str] = {}
        self.away: list[str] = []
        """VMs on a host other than the one whose local datastore holds their disk."""
        self.storage_pairs: set[tuple[str, str]] = set()
        self.array_disks: dict[str, list[int]] = {}
        self.vm_ids: dict[str, str] = {}
        self.listed: Counter[str] = Counter()
        """Rows of the VM list naming each host (any power state, templates too)."""
        self.unsized: list[str] = []

    # ------------------------------------------------------------------ hosts and clusters
    def site_of(self, dc: str, cluster: str) -> str:
        key = (cluster if self.site_by == "cluster" else dc) or dc or cluster or "default"
        if key not in self.sites:
            sid = self.ids.make("site", key)
            self.sites[key] = sid
            self.design.components.append(Component(sid, "site", name=key))
        return self.sites[key]

    def hosts(self, hosts: list[HostRecord]) -> None:
        design, report = self.design, self.report
        versions: Counter[tuple[str, str]] = Counter()
        unknown_cpus: dict[str, list[str]] = {}
        down: list[tuple[str, str, str]] = []
        for h in hosts:
            if h.name in self.host_ids:
                report.skip(h.where, h.name, "duplicate host: the first row with this name is"
                            " used")
                continue
            hid = self.ids.make("h", h.name)
            self.host_ids[h.name] = hid
            self.load[hid] = 0.0
            tags = [f"cluster-{slug(h.cluster)}"] if h.cluster else []
            self.host_cluster[h.name] = h.cluster
            self.hid_cluster[hid] = h.cluster
            if h.cluster:
                self.cluster_hosts.setdefault(h.cluster, []).append(hid)
            props = _host_props(h, report, versions, unknown_cpus)
            if h.vms_recorded is not None:  # a partial host runs VMs the export omits
                props["measured.vms"] = h.vms_recorded
                props["measured.vms_listed"] = self.listed[h.name]
                report.coverage.partial_hosts += h.vms_recorded > self.listed[h.name]
            design.components.append(Component(hid, "host", name=h.name, tags=tags,
                                               props=props))
            design.links.append(Link(hid, self.site_of(h.datacenter, h.cluster), "located_at"))
            for i, nic in enumerate(h.nics):
                if nic.speed_mbps is None or nic.speed_mbps <= 0:
                    report.skip(nic.where or f"host {h.name}", f"{h.name} {nic.name}",
                                NIC_DOWN)
                    down.append((nic.where or f"host {h.name}", h.name, nic.name))
                    continue
                nid = self.ids.make("nic", f"{h.name}-{nic.name or i}")
                design.components.append(Component(
                    nid, "nic", name=f"{h.name} {nic.name}",
                    props={"speed_gbps": nic_speed_gbps(nic.speed_mbps), "ports": 1}))
                design.links.append(Link(nid, hid, "installed_in"))
                self.counts["nics"] += 1
        if down:
            report.folded.append(_nics_down(down))
        for (raw, mapped), n in sorted(versions.items()):
            report.notes.append(f"ESXi version '{raw}' mapped to {mapped}"
                                f" ({kind_count('host', n)})")
        for cpu, names in unknown_cpus.items():
            whose = "its" if len(names) == 1 else "their"
            report.notes.append(f"processor '{cpu}' is not in the processor catalogue: its"
                                f" {kind_count('host', len(names))} run at {whose} clock alone"
                                " (set host.specrate_per_core where it is known)")

    def clusters(self, records: list[ClusterRecord], hosts: list[HostRecord]) -> None:
        """A cluster component for every cluster the hosts name (and every vCluster row),
        with its recorded HA and DRS policy; defaults, said so, where none is recorded."""
        by_name = {r.name: r for r in records}
        names = list(dict.fromkeys([h.cluster for h in hosts if h.cluster]
                                   + [r.name for r in records]))
        assumed = []
        for cname in names:
            rec = by_name.get(cname)
            cid = self.ids.make("cl", cname)
            self.cluster_ids[cname] = cid
            props: dict[str, Any] = {}
            if rec is None or rec.ha_enabled is None:
                assumed.append(cname)
            else:
                props = _cluster_props(rec)
            self.design.components.append(Component(cid, "cluster", name=cname,
                                                    tags=[f"cluster-{slug(cname)}"],
                                                    props=props))
            for hid in self.cluster_hosts.get(cname, []):
                self.design.links.append(Link(hid, cid, "in_cluster"))
        if assumed:
            self.report.notes.append(
                f"{kind_count('cluster', len(assumed))} without a recorded HA/DRS policy ("
                + ", ".join(assumed[:5]) + (", ..." if len(assumed) > 5 else "")
                + "): assumed HA on with 1 failover host and DRS on; set the cluster's"
                f" {prop_label('cluster', 'admission_control')} to what it is")

    # ------------------------------------------------------------------ storage
    def arrays(self, estate: Estate) -> None:
        design, report = self.design, self.report
        seen: dict[str, list[DatastoreRecord]] = {}
        unique = []
        for ds in estate.datastores:
            if ds.name in seen and not _own_local(ds, seen[ds.name]):
                report.skip(ds.where, ds.name, "duplicate datastore: the first row is used")
                continue
            seen.setdefault(ds.name, []).append(ds)
            unique.append(ds)
        protocols: Counter[str] = Counter()
        grouped = []
        local: list[str] = []
        vsan_groups: list[tuple[list[DatastoreRecord], Any]] = []
        for g in group_datastores(unique):
            aid = self.ids.make("ds" if len(g.datastores) == 1 else "arr", g.name)
            if g.local:
                props: dict[str, Any] = {"protocol": LOCAL_PROTOCOL, "local": True}
                hid = self.host_ids.get(g.host)
                self.local_host[aid] = hid
                for ds in g.datastores:
                    self.local_ds[(g.host, ds.name)] = aid
                    local.append(f"{ds.where} '{ds.name}': {g.host or 'its host not named'}"
                                 + ("" if hid or not g.host else " (not in the inventory)")
                                 + (f", with {len(g.datastores) - 1} more in {g.name}"
                                    if len(g.datastores) > 1 else ""))
            else:
                protocols[g.protocol or "fc (type unknown)"] += 1
                props = {"protocol": g.protocol} if g.protocol else {}
            sioc = [d.sioc for d in g.datastores if d.sioc is not None]
            if sioc:
                props["sioc"] = any(sioc)
            for key, attr in (("capacity_gb", "capacity_mib"),
                              ("provisioned_gb", "provisioned_mib"), ("used_gb", "in_use_mib")):
                vals = [getattr(d, attr) for d in g.datastores if getattr(d, attr) is not None]
                if vals:
                    props[key] = round(sum(vals) / MIB_PER_GB, 3)
            if g.address:
                props["address"] = g.address
            if len(g.datastores) > 1:
                props["datastores"] = len(g.datastores)
                if not g.local:
                    grouped.append(f"{g.name}: " + ", ".join(d.name for d in g.datastores[:6])
                                   + (" ..." if len(g.datastores) > 6 else ""))
            design.components.append(Component(aid, "storage_array", name=g.name,
                                               props=props))
            if g.protocol == "vsan":
                vsan_groups.append((g.datastores, props.get("capacity_gb")))
            self.array_disks[aid] = [0, 0]
            for ds in g.datastores:
                self.arrays_by_ds.setdefault(ds.name, aid)
                for hname in dict.fromkeys(ds.hosts if not g.local else ds.hosts[:1]):
                    if hname in self.host_ids and (self.host_ids[hname], aid) \
                            not in self.storage_pairs:
                        self.storage_pairs.add((self.host_ids[hname], aid))
                        design.links.append(Link(self.host_ids[hname], aid, "storage"))
        self._vsan(vsan_groups)
        if self.array_disks:
            shared = len(unique) - len(local)
            report.notes.append(
                f"storage arrays come from {counted(shared, 'datastore')}"
                + (" shared by hosts" if local else "") + (" (" + ", ".join(
                    f"{p}: {n}" for p, n in protocols.most_common()) + ")" if shared else "")
                + (f" and {counted(len(local), 'local one')}" if local else "")
                + "; media, drive count and RAID are not in the inventory: schema defaults"
                " used")
        if local:
            report.folded.append(Folded(
                f"{counted(len(local), 'local datastore')} (one host each: boot and local"
                " disks) kept as each host's local storage, not shared arrays; protocol"
                f" {choice_label(LOCAL_PROTOCOL)}, the host's own controller", local))
        if grouped:
            report.notes.append(f"{counted(len(grouped), 'array holds', 'arrays hold')} several"
                                " datastores (LUNs by NAA prefix, exports by NFS server): "
                                + "; ".join(grouped[:8]))

    def _vsan(self, groups: list[tuple[list[DatastoreRecord], Any]]) -> None:
        """A vSAN datastore is its cluster's (:mod:`models.subsystems.vsan`): the cluster
        whose hosts mount it runs vSAN, and since the inventory lists no devices each of its
        hosts is given one holding its share of the datastore's capacity; the architecture and
        policy are vSAN's defaults (OSA unless every host runs ESXi 8 or later, where ESA is
        assumed; RAID 1 FTT 1), each assumption said in the report."""
        design, report = self.design, self.report
        cluster_of = {hid: cname for cname, hids in self.cluster_hosts.items() for hid in hids}
        by_id = {c.id: c for c in design.components}
        for datastores, capacity_gb in groups:
            hosts = [self.host_ids[h] for d in datastores for h in d.hosts if h in self.host_ids]
            names = {cluster_of[h] for h in hosts if h in cluster_of}
            if len(names) != 1 or not capacity_gb:
                report.notes.append(f"vSAN datastore {datastores[0].name}: mounted by hosts of"
                                    f" {counted(len(names), 'cluster')} or of no stated"
                                    " capacity, so kept as an array of its own")
                continue
            cname = next(iter(names))
            cluster = by_id.get(self.cluster_ids.get(cname, ""))
            members = [by_id[h] for h in self.cluster_hosts.get(cname, []) if h in by_id]
            if cluster is None or not members:
                continue
            versions = [float(v.group()) if (v := re.match(r"\d+(\.\d+)?",
                                                            str(m.get("esxi_version") or "")))
                        else 0.0 for m in members]
            arch = "esa" if min(versions) >= 8.0 else "osa"
            cluster.props.update({"vsan.architecture": arch, "vsan.policy": "raid1",
                                  "vsan.ftt": 1})
            share_tb = float(capacity_gb) * 2.0**30 / 1.0e12 / len(members)
            devices = max(1, round(share_tb / ASSUMED_DEVICE_TB))
            for m in members:
                m.props.update({"vsan.devices": devices,
                                "vsan.device_tb": round(share_tb / devices, 4)})
                if arch == "osa":  # the common ReadyNode layout: two disk groups
                    m.props["vsan.disk_groups"] = max(2, -(-devices // 7))
            report.notes.append(
                f"vSAN datastore {datastores[0].name}: cluster {cname}'s vSAN"
                f" ({with_unit(float(capacity_gb), 'GB')} raw); its devices are not in the"
                f" inventory: assumed {counted(devices, 'device')} a host of about"
                f" {with_unit(ASSUMED_DEVICE_TB, 'TB')} holding its"
                f" {with_unit(share_tb, 'TB')} share"
                + (", in two disk groups" if arch == "osa" else "")
                + f", {choice_label(arch)} (ESXi"
                f" {'8 or later on every host' if arch == 'esa' else 'before 8 on a host'}),"
                " the default policy RAID 1 FTT 1")

    # ------------------------------------------------------------------ VMs
    def vms(self, vms: list[VmRecord], include_powered_off: bool,
            progress: Progress | None) -> None:
        report, counts, cov = self.report, self.counts, self.report.coverage
        secondaries: list[VmRecord] = []
        others: Counter[str] = Counter()
        controllers: Counter[str] = Counter()
        total = len(vms)
        for i, vm in enumerate(vms):
            if progress is not None and i % 500 == 0:
                progress(i, total, "building the design")
            if vm.template:
                counts["templates"] += 1
                report.skip(vm.where, vm.name, "template: templates do not run")
                continue
            if vm.ft_secondary:
                secondaries.append(vm)
                continue
            if not vm.powered_on and not include_powered_off:
                counts["powered_off_skipped"] += 1
                report.skip(vm.where, vm.name, "powered off: not imported")
                continue
            cov.runnable += 1
            problem = _vm_problem(vm)
            if problem:
                cov.dropped += 1
                report.skip(vm.where, vm.name, problem)
                continue
            self._vm(vm, others, controllers)
        _notes(report, others, controllers, counts)
        self._secondaries(secondaries)

    def _vm(self, vm: VmRecord, others: Counter[str], controllers: Counter[str]) -> None:
        design, report, cov = self.design, self.report, self.report.coverage
        vid = self.ids.make("vm", vm.name)
        self.vm_ids.setdefault(vm.name, vid)
        props = _vm_props(vm, others, controllers)
        hid = self.host_ids.get(vm.host)
        cluster = self.host_cluster.get(vm.host, "") if hid else vm.cluster
        tags = [f"cluster-{slug(cluster)}"] if cluster else []
        if vm.vcpus is None or vm.memory_mib is None:
            tags.append("unsized")
            self.unsized.append(f"{vm.where} '{vm.name}'")
        elif vm.sized_from:
            self.counts["sized_from"] += 1
        ds_name = next((d for d in vm.datastores if d in self.arrays_by_ds), None)
        aid = None if ds_name is None else \
            self.local_ds.get((vm.host, ds_name), self.arrays_by_ds[ds_name])
        on_disk = self.local_host.get(aid) if aid is not None else None
        if hid is not None:
            cov.on_their_host += 1
        elif on_disk is not None:  # its disk is on one host's own disks: it runs there
            hid = on_disk
            cov.by_cluster += 1
            tags = [t for t in tags if not t.startswith("cluster-")]
            if self.hid_cluster.get(hid):
                tags.insert(0, f"cluster-{slug(self.hid_cluster[hid])}")
            tags.append("placed-by-datastore")
            why = f"host '{vm.host}' is not in the inventory" if vm.host else "no host"
            report.placement.append(Skipped(vm.where, vm.name, f"{why}: placed on {hid}, whose"
                                            f" local datastore '{ds_name}' holds its disk"))
        elif cluster and self.cluster_hosts.get(cluster):
            hid = min(self.cluster_hosts[cluster], key=lambda h: self.load[h])
            cov.by_cluster += 1
            tags.append("placed-by-cluster")
            why = f"host '{vm.host}' is not in the inventory" if vm.host else "no host"
            report.placement.append(Skipped(vm.where, vm.name, f"{why}: placed on {hid}, the"
                                            f" least-loaded host of cluster {cluster}"))
        else:
            cov.unplaced += 1
            tags.append("unplaced")
            why = (f"host '{vm.host}' is not in the inventory" if vm.host else "no host")
            report.placement.append(Skipped(vm.where, vm.name, f"{why} and no known cluster:"
                                            " imported unplaced"))
        if not vm.powered_on:
            props["workload.profile"] = "idle"
            props["workload.memory_gb"] = 0.0
            props["provenance.memory"] = "powered off: holds no host memory"
            tags.append("powered-off")
            self.counts["powered_off_imported"] += 1
        else:
            m = vm.measured
            cov.measured_cpu += m.cpu_mhz is not None
            cov.measured_memory += m.memory_consumed_mib is not None
            cov.measured_io += m.iops is not None
        design.components.append(Component(vid, "vm", name=vm.name, tags=tags, props=props))
        if hid is not None:
            design.links.append(Link(vid, hid, "runs_on"))
            self.load[hid] += float(vm.vcpus or 0)
        if aid is not None:
            design.links.append(Link(vid, aid, "disk_on"))
            self.array_disks[aid][0] += vm.thin_disks
            self.array_disks[aid][1] += vm.disks
            if aid in self.local_host and self.local_host[aid] is None and hid is not None:
                self.local_host[aid] = hid  # a local datastore whose host is not named
            if aid in self.local_host and hid is not None and self.local_host[aid] != hid:
                self.away.append(f"{vm.where} '{vm.name}' on {hid}, its disk on"
                                 f" '{ds_name}' of {self.local_host[aid]}")
            elif hid is not None and (hid, aid) not in self.storage_pairs:
                self.storage_pairs.add((hid, aid))
                design.links.append(Link(hid, aid, "storage"))
        elif vm.datastores:
            self.counts["unknown_datastore"] += 1
        self.counts["vms"] += 1

    def _secondaries(self, secondaries: list[VmRecord]) -> None:
        design, counts, report = self.design, self.counts, self.report
        runs_on = {lk.source: lk.target for lk in design.links if lk.kind == "runs_on"}
        linked: set[str] = set()
        for vm in secondaries:
            counts["ft_secondaries"] += 1
            vid = self.vm_ids.get(vm.name)
            hid = self.host_ids.get(vm.host)
            if vid is None or hid is None:
                report.skip(vm.where, vm.name, "FT secondary: its primary or host was not"
                            " imported")
                continue
            if vid in linked:
                report.skip(vm.where, vm.name, "FT secondary: a second secondary is ignored")
                continue
            if runs_on.get(vid) == hid:
                report.skip(vm.where, vm.name, "FT secondary: on the same host as the primary")
                continue
            design.links.append(Link(vid, hid, "ft_secondary_on"))
            linked.add(vid)
            comp = design.component(vid)
            if comp is not None:
                comp.props["ft"] = True

    def finish(self) -> None:
        counts, report = self.counts, self.report
        if counts["sized_from"]:
            report.notes.append(f"{counted(counts.pop('sized_from'), 'VM')} with empty CPUs or"
                                " Memory cells in the VM list sized from their vCPU and vMemory"
                                " rows")
        if self.unsized:
            report.notes.append(
                f"{counted(len(self.unsized), 'VM')} imported unsized (no CPUs or Memory in any"
                f" sheet: the default {counted(int(VM.props['vcpus'].default or 1), 'vCPU')} and"
                f" {with_unit(float(VM.props['memory_gb'].default or 0), 'GB')}, tagged unsized;"
                " set their size): "
                + ", ".join(self.unsized[:10]) + (", ..." if len(self.unsized) > 10 else ""))
        for aid, (thin, disks) in self.array_disks.items():
            if disks and thin * 2 > disks:
                comp = self.design.component(aid)
                if comp is not None:
                    comp.props["thin"] = True
        if self.away:
            report.folded.append(Folded(
                f"{counted(len(self.away), 'VM runs', 'VMs run')} on a host other than the one"
                " whose local datastore holds its disk (the inventory says both): no storage"
                " link to another host's local disks is drawn", self.away))
        if counts["unknown_datastore"]:
            report.notes.append(f"{counted(counts.pop('unknown_datastore'), 'VM is', 'VMs are')}"
                                " on datastores missing from the datastore list: their disks"
                                " are on no storage array")
        if counts["nics"]:
            report.notes.append("NIC roles are not in the inventory: every NIC carries"
                                f" {choice_label('vm')}; mark the FT logging and vMotion"
                                " uplinks")
        counts["hosts"] = len(self.host_ids)
        counts["sites"] = len(self.sites)
        counts["clusters"] = len(self.cluster_ids)
        counts["local_storage"] = len(self.local_host)
        counts["storage_arrays"] = len(self.array_disks) - len(self.local_host)
        report.counts.update({k: v for k, v in counts.items() if v or k in (
            "vms", "hosts", "sites", "clusters", "storage_arrays", "nics")})
        for k in ("vms", "nics"):
            report.counts.setdefault(k, 0)


NIC_DOWN = "NIC link down or speed unknown"
"""Why a host's NIC is not imported (no speed: its link is down, or the export has none)."""


def _nics_down(down: list[tuple[str, str, str]]) -> Folded:
    """One counted line for the NICs that are down ("91 NICs link down or speed unknown:
    vmnic2 on 34 hosts, vmnic3 on 30 hosts, ..."), each of them in its items."""
    per: Counter[str] = Counter(dev or "unnamed" for _, _, dev in down)
    shown = [f"{dev} on {kind_count('host', n)}" for dev, n in per.most_common(4)]
    more = len(per) - len(shown)
    return Folded(f"{kind_count('nic', len(down))} link down or speed unknown (not imported): "
                  + ", ".join(shown) + (f" and {counted(more, 'other name')}" if more else ""),
                  [f"{where} '{host} {dev}'" for where, host, dev in down], NIC_DOWN)


def _own_local(ds: DatastoreRecord, earlier: list[DatastoreRecord]) -> bool:
    """Whether ``ds``, named as ``earlier`` datastores are, is another host's local datastore
    (``datastore1`` in two datacenters), not a second row of the same one."""
    return mounts(ds) == 1 and ds.local is not False and bool(ds.hosts) \
        and all(mounts(e) == 1 and e.hosts and e.hosts[0] != ds.hosts[0] for e in earlier)


# --------------------------------------------------------------------------- records -> props


def _cluster_props(rec: ClusterRecord) -> dict[str, Any]:
    props: dict[str, Any] = {"ha_enabled": bool(rec.ha_enabled)}
    if rec.admission_control is False:
        props["admission_control"] = "disabled"
    elif rec.cpu_failover_pct is not None or rec.memory_failover_pct is not None:
        props["admission_control"] = "percentage"
        cpu = rec.cpu_failover_pct if rec.cpu_failover_pct is not None \
            else rec.memory_failover_pct
        mem = rec.memory_failover_pct if rec.memory_failover_pct is not None else cpu
        props["cpu_failover_pct"] = min(max(float(cpu or 0.0), 0.0), 100.0)
        props["memory_failover_pct"] = min(max(float(mem or 0.0), 0.0), 100.0)
    elif rec.failover_hosts is not None:
        props["admission_control"] = "failover_hosts"
        props["failover_hosts"] = min(max(int(rec.failover_hosts), 0), 64)
    if rec.drs_enabled is not None:
        props["drs_enabled"] = rec.drs_enabled
    behavior = re.sub(r"[^a-z]", "", rec.drs_behavior.lower())
    for key, value in (("fully", "fully_automated"), ("partially", "partially_automated"),
                       ("manual", "manual")):
        if behavior.startswith(key):
            props["drs_automation"] = value
    return props


def _host_props(h: HostRecord, report: ImportReport, versions: Counter[tuple[str, str]],
                unknown_cpus: dict[str, list[str]]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    spec = HOST.props
    sockets = h.sockets
    cps = h.cores_per_socket
    if cps is None and h.cores and sockets:
        cps = max(1, h.cores // sockets)
    for key, value in (("sockets", sockets), ("cores_per_socket", cps)):
        if value is None:
            report.notes.append(f"host '{h.name}': {key} unknown; default {spec[key].default}")
        elif _in_range(key, value, spec):
            props[key] = int(value)
        else:
            report.notes.append(f"host '{h.name}': {key} {value} out of range; default used")
    if h.mhz is not None:
        ghz = round(h.mhz / 1000.0, 3)
        if _in_range("ghz", ghz, spec):
            props["ghz"] = ghz
        else:
            report.notes.append(f"host '{h.name}': CPU speed {with_unit(h.mhz, 'MHz')} out of"
                                f" range; default {prop_value('host', 'ghz', spec['ghz'].default)}"
                                " used")
    if h.cpu_model.strip():
        props["cpu_model"] = h.cpu_model.strip()
        if processors.match(h.cpu_model) is None:
            unknown_cpus.setdefault(h.cpu_model.strip(), []).append(h.name)
    if h.hyperthreading is not None:
        props["hyperthreading"] = h.hyperthreading
    if h.memory_mib is not None:
        gb = round(h.memory_mib / MIB_PER_GB, 3)
        if _in_range("memory_gb", gb, spec):
            props["memory_gb"] = gb
        else:
            report.notes.append(f"host '{h.name}': memory {with_unit(h.memory_mib, 'MiB')} out"
                                " of range; default used")
    mapped = nearest_esxi(h.version) if h.version else None
    if mapped is None:
        report.notes.append(f"host '{h.name}': ESXi version unknown ('{h.version}'); "
                            f"default {spec['esxi_version'].default}")
    else:
        props["esxi_version"] = mapped
        versions[(_short_version(h.version), mapped)] += 1
    for key, usage in (("measured.cpu_pct", h.cpu_usage_pct),
                       ("measured.memory_pct", h.memory_usage_pct), ("measured.iops", h.iops),
                       ("measured.read_pct", h.read_pct if h.iops else None),
                       ("measured.io_kb", h.io_kb if h.iops else None)):
        if usage is not None and _in_range(key, usage, spec):
            props[key] = round(float(usage), 3)
    if h.measured_by and (h.cpu_usage_pct is not None or h.memory_usage_pct is not None
                          or h.iops is not None):
        props["provenance.measured"] = h.measured_by
    if h.cpu_model and "cpu_model" in spec:  # the processor, where the schema keeps it
        props["cpu_model"] = h.cpu_model
    return props


def _short_version(version: str) -> str:
    m = re.search(r"\d+(\.\d+)+", version)
    return m.group(0) if m else version


def _vm_problem(vm: VmRecord) -> str | None:
    if vm.problem:
        return vm.problem
    if vm.orphaned:
        return "orphaned: vCenter has lost the VM (its host or files are gone)"
    if vm.vcpus is not None and not _in_range("vcpus", vm.vcpus, VM.props):
        return f"bad value: {with_unit(vm.vcpus, 'vCPUs')} is out of range 1..768"
    if vm.memory_mib is not None and vm.memory_mib / MIB_PER_GB > (VM.props["memory_gb"].max
                                                                  or 0):
        return f"bad value: memory {with_unit(vm.memory_mib, 'MiB')} is out of range"
    return None


def vscsi_of(controllers: list[str]) -> tuple[str | None, str]:
    """The vscsi of a VM from its disks' controllers (the most disks win) and the controller
    family it was mapped from (``""`` when none is recognised)."""
    kinds: Counter[tuple[str, str]] = Counter()
    for text in controllers:
        t = re.sub(r"[^a-z0-9]", "", text.lower())
        if "paravirtual" in t or "pvscsi" in t:
            kinds[("pvscsi", "pvscsi")] += 1
        elif "lsilogicsas" in t or "lsisas" in t:
            kinds[("lsi_sas", "lsi_sas")] += 1
        elif "lsilogic" in t or "buslogic" in t:
            kinds[("lsi_sas", "lsi_parallel")] += 1
        elif "nvme" in t:
            kinds[("pvscsi", "nvme")] += 1
        elif "sata" in t or "ahci" in t or "ide" in t:
            kinds[("lsi_sas", "sata_ide")] += 1
    if not kinds:
        return None, ""
    (vscsi, family), _ = kinds.most_common(1)[0]
    return vscsi, family


def _vm_props(vm: VmRecord, others: Counter[str], controllers: Counter[str]) -> dict[str, Any]:
    low_mem = float(VM.props["memory_gb"].min or 0)
    props: dict[str, Any] = {}  # unsized (no size in any sheet): the schema's defaults
    if vm.memory_mib is not None:
        mem = round(vm.memory_mib / MIB_PER_GB, 4)
        if mem < low_mem:
            others["\x00memory"] += 1
            mem = low_mem
        props["memory_gb"] = mem
    if vm.vcpus is not None:
        props["vcpus"] = int(vm.vcpus)
    fam = guest_family(vm.os)
    props["guest_os"] = fam
    low = vm.os.lower()
    if fam == "linux" and vm.os and not any(w in low for w in (
            "linux", "rhel", "centos", "ubuntu", "debian", "suse", "sles", "photon", "oracle",
            "rocky", "alma", "fedora", "coreos")):
        others[vm.os[:40]] += 1
    if vm.ft_state.lower() not in ("", "notconfigured", "disabled", "not configured"):
        props["ft"] = True
    nic = vnic_type(vm.adapter)
    if nic:
        props["vnic"] = nic
    vscsi, family = vscsi_of(vm.controllers)
    if vscsi:
        props["vscsi"] = vscsi
        controllers[family] += 1
    if vm.latency_sensitivity.lower() == "high":
        props["latency_sensitivity"] = "high"
    for key, mib in (("disk.provisioned_gb", vm.provisioned_mib),
                     ("disk.used_gb", vm.in_use_mib),
                     ("disk.guest_capacity_gb", vm.partition_capacity_mib),
                     ("disk.guest_used_gb", vm.partition_consumed_mib)):
        if mib is not None:
            props[key] = round(mib / MIB_PER_GB, 3)
    if vm.powered_on:
        props.update(measured_props(vm))
    return props


def measured_props(vm: VmRecord) -> dict[str, Any]:
    """The ``measured.*`` and ``provenance.*`` properties of a running VM's record."""
    m = vm.measured
    props: dict[str, Any] = {"workload.profile": "measured"}
    gb = 1.0 / MIB_PER_GB
    for key, value, scale in (
            ("measured.cpu_mhz", m.cpu_mhz, 1.0), ("measured.cpu_max_mhz", m.cpu_max_mhz, 1.0),
            ("measured.cpu_ready_pct", m.cpu_ready_pct, 1.0),
            ("measured.cpu_contention_pct", m.cpu_contention_pct, 1.0),
            ("measured.memory_active_gb", m.memory_active_mib, gb),
            ("measured.memory_consumed_gb", m.memory_consumed_mib, gb),
            ("measured.memory_ballooned_gb", m.memory_ballooned_mib, gb),
            ("measured.memory_swapped_gb", m.memory_swapped_mib, gb),
            ("measured.iops", m.iops, 1.0), ("measured.read_pct", m.read_pct, 1.0),
            ("measured.io_kb", m.io_kb, 1.0), ("measured.latency_ms", m.latency_ms, 1.0),
            ("measured.latency_peak_ms", m.latency_peak_ms, 1.0),
            ("measured.oio", m.oio, 1.0), ("measured.net_mbps", m.net_mbps, 1.0)):
        if value is not None and value >= 0:
            spec = VM.props[key]
            v = round(float(value) * scale, 4)
            if spec.max is not None:
                v = min(v, float(spec.max))
            props[key] = v
    for group, key in (("cpu", "measured.cpu_mhz"), ("memory", "measured.memory_consumed_gb"),
                       ("io", "measured.iops"), ("net", "measured.net_mbps")):
        source = m.sources.get(group)
        if source and key in props:
            props[f"provenance.{group}"] = f"measured: {source}"
        elif group == "memory" and source and "measured.memory_active_gb" in props:
            props[f"provenance.{group}"] = ("not measured (configured memory counted; only"
                                            f" active memory recorded: {source})")
        else:
            props[f"provenance.{group}"] = NOT_MEASURED
    return props


def _notes(report: ImportReport, others: Counter[str], controllers: Counter[str],
           counts: Counter[str]) -> None:
    raised = others.pop("\x00memory", 0)
    if raised:
        report.notes.append(f"{counted(raised, 'VM has', 'VMs have')} less memory than the"
                            " smallest the model takes: raised to"
                            f" {with_unit(VM.props['memory_gb'].min or 0.0, 'GB')}")
    for os_name, n in others.most_common():
        report.notes.append(f"{kind_count('vm', n)} with guest OS '{os_name}' imported as"
                            f" {choice_label('linux')}")
    if controllers:
        names = {"pvscsi": "PVSCSI", "lsi_sas": "LSI Logic SAS", "lsi_parallel":
                 "LSI Logic / BusLogic parallel (modelled as LSI Logic SAS)",
                 "nvme": "NVMe (modelled as PVSCSI, both paravirtual)",
                 "sata_ide": "SATA/IDE (modelled as LSI Logic SAS, both emulated)"}
        report.notes.append("virtual SCSI adapters from the VMs' disks: " + ", ".join(
            f"{names[k]} on {kind_count('vm', n)}" for k, n in controllers.most_common()))
    cov = report.coverage
    running = counts["vms"] - counts["powered_off_imported"]
    if running and cov.measured_io < running:
        report.notes.append(
            f"no measured storage I/O on {running - cov.measured_io:,} of"
            f" {counted(running, 'running VM')}: their IOPS and latency read 'not measured'"
            " (nothing is invented) until you assign a workload profile or import I/O data"
            " (an esxtop or Aria Operations file to calibrate from, or a vCenter import with"
            " performance history)")
    if running and cov.measured_cpu < running:
        report.notes.append(
            f"no measured CPU on {running - cov.measured_cpu:,} of"
            f" {counted(running, 'running VM')}: the baseline shares their hosts' recorded CPU"
            " usage among them where it is recorded")

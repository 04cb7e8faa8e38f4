"""The studies Headroom's models stand on: each declared once, with one title.

A :class:`Study` is a published document whose figures are calibration cases
(``resources/calibration/cases.jsonl``): its title as Headroom shows it everywhere (knob
captions, KPI tooltips, bottleneck sources, the Evidence panel, the report's appendix), who
published it and when, and the seed its cases were read from.  The case file names some
studies more than one way (a white paper and a summary of it, a guide and a reproduction of
it); those names are the study's :attr:`Study.spellings`, and :func:`named` maps each to the
one study.

:data:`GUIDES` are the product documents whose rules a model implements as stated (HA
admission control, DRS): cited the same way, but no published figure of theirs is a case.

A module that cites a study imports it from here (``VAIO.title``; ``cite(VAIO, MILLION)`` for
a figure several studies stand behind); nothing else types a study's title.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.document import licensing

VROOM_2011 = "004_71818b3e2a532e7c.txt"
"""The VMware VROOM! blog's archive of August 2011 (``mechanisms.md``, source 5)."""
VROOM = "000_5ac78f51c19be619.txt"
"""A VMware VROOM! blog archive page (``mechanisms.md``, source 1)."""
VROOM_WEB = "001_5c1e10d6bd11956d.txt"
"""The VMware VROOM! blog's Web/Tech category archive (``mechanisms.md``, source 2)."""


@dataclass(frozen=True)
class Study:
    """A published document the models cite."""

    title: str
    """The one title Headroom shows (the document's name as the case file gives it, without
    the case file's notes on which copy was read)."""
    author: str
    """Who published it: a publisher (``VMware``, ``Dell``) or the authors."""
    year: int | None
    """The year the case file or its sources (``mechanisms.md``) give; None where they give
    none (no year is guessed)."""
    seeds: tuple[str, ...] = ()
    """The ``seed_file`` its cases carry: a seed text (``000_….txt``, several studies to a
    text) or, for a document the seed texts only cite, the address its figures were read
    from (as the case file gives it).  Empty for a guide (no case)."""
    spellings: tuple[str, ...] = ()
    """Other names the case file gives it (its cases' ``study`` field), when not the title."""

    @property
    def names(self) -> tuple[str, ...]:
        """Every name it goes by: the title first."""
        return (self.title, *self.spellings)

    @property
    def citation(self) -> str:
        """``Title. Author, year.`` (no year where none is known)."""
        year = f", {self.year}" if self.year is not None else ""
        return f"{self.title}. {self.author}{year}."


# storage
VAIO = Study("Scaling Performance for VAIO in vSphere 6.0 U1", "VMware", None, (VROOM,))
MILLION = Study("Single vSphere Host, a Million I/O Operations per Second", "VMware", 2011,
                (VROOM_2011,))
RAIDPOOL = Study("Virtualized Storage Performance: RAID Groups versus Storage pools", "VMware",
                 None, (VROOM_WEB,))
SIOC = Study(
    "Performance Implications of Storage I/O Control-Enabled NFS Datastores", "VMware", 2011,
    (VROOM_2011, "https://ntpro.nl/blog/archives/1852-Performance-Implications-of-Storage-IO-"
     "Control-Enabled-NFS-Datastores-in-vSphere-5.0.html"),
    ("Performance Implications of Storage I/O Control-Enabled NFS Datastores in VMware vSphere"
     " 5.0 (executive summary)",))
SIOC_THRESHOLD = Study(
    "vSphere Resource Management: Set Storage I/O Control Threshold Value", "VMware", None,
    ("https://docs.vmware.com/en/VMware-vSphere/6.5/com.vmware.vsphere.resmgmt.doc/"
     "GUID-D3FE742F-5398-4274-83C0-C9D14DBE372A.html",))
PVSCSI = Study(
    "High-performance PVSCSI storage adapter can reduce CPIO by 10-30% (vSphere 4)", "VMware",
    2010, ("https://blogs.vmware.com/performance/2010/02/highperformance-pvsci-storage-adapter"
           "-can-reduce-cpio-by-1030.html",))
FLASH51 = Study(
    "vSphere 5.1 IOPS Performance Characterization on Flash-based Storage", "VMware", 2013,
    ("https://blogs.vmware.com/performance/2013/01/vsphere-5-1-iops-performance-"
     "characterization-on-flash-based-storage.html",))
ESX35 = Study(
    "Benchmarks: VMware ESX 3.5 surpasses more than 100,000 IOPS", "virtualization.info", 2008,
    ("https://virtualization.info/2008/05/22/benchmarks-vmware-esx-surpasses-more/",))
# network and file transfer
FEDEX = Study(
    "Maximizing File Transfer Performance Using 10Gb Ethernet and Virtualization: A FedEx Case"
    " Study", "FedEx and Intel", 2010, ("002_27ca7d83c1021a00.txt",))
LRO = Study(
    "Large Receive Offload (LRO) Support for VMXNET3 Adapters with Windows VMs on vSphere 6",
    "VMware", None, (VROOM_WEB,))
MCAST = Study("Multicast Performance on vSphere 5.0", "VMware", 2011, (VROOM_2011,))
PCOIP = Study("PCoIP Improvements in VMware View 5.0", "VMware", 2011, (VROOM_2011,))
# fault tolerance
FT4 = Study(
    "VMware vSphere 4 Fault Tolerance: Architecture and Performance", "VMware", 2009,
    ("003_aa667476d953615a.txt",
     "https://lawnandgarden.manualsonline.com/manuals/mfg/vmware/4.html?p=7",
     "https://manualshive.com/en/manual/vmware/vsphere-4/1043353?page=14",
     "https://www.manualsdir.com/manuals/219353/vmware-vsphere-fault-tolerance-4.html?page=6"),
    ("VMware vSphere 4 Fault Tolerance: Architecture and Performance (white paper excerpt)",
     "VMware vSphere 4 Fault Tolerance: Architecture and Performance (VMware white paper,"
     " 2009)"))
FT6 = Study("Fault Tolerance Performance in vSphere 6", "VMware", None, (VROOM,))
FT_LATENCY = Study(
    "vSphere Availability: Increased Network Latency Observed in FT Virtual Machines", "VMware",
    None, ("https://docs.vmware.com/en/VMware-vSphere/8.0/vsphere-availability/"
           "GUID-6F893381-BD0B-4825-B4CD-414854A9D9D9.html",))
FT_DESIGN = Study(
    "The Design of a Practical System for Fault-Tolerant Virtual Machines",
    "Scales, Nelson, Venkitachalam", 2010,
    ("Scales, Nelson, Venkitachalam (2010) 'The Design of a Practical System for"
     " Fault-Tolerant Virtual Machines', ACM SIGOPS OSR — abstract as paraphrased in public"
     " MIT 6.824 study notes (search corpus 'code')",))
# consolidation and CPU virtualisation
DENSE = Study("Dynamic Host-Wide Performance Tuning in VMware vSphere 6.0", "VMware", None,
              (VROOM,))
BEST_PRACTICES_4 = Study(
    "Performance Best Practices for VMware vSphere 4.0", "VMware", None,
    ("http://38.142.81.21:8001/manual/vmware/vsphere-4/technical-information-english/"
     "page-41.html",))
VCA_SQL = Study("VMware vCloud Air Database Performance Scalability with SQL Server", "VMware",
                None, (VROOM,))
ZEPHYR = Study("Measuring Cloud Scalability Using the Zephyr Benchmark", "VMware", None,
               (VROOM,))
DOCKER_WEB = Study("Scaling Web 2.0 Applications using Docker containers on vSphere 6.0",
                   "VMware", None, (VROOM_WEB,))
DOCKER_TX = Study("Running Transactional Workloads Using Docker Containers on vSphere 6.0",
                  "VMware", None, (VROOM_WEB,))
ORACLE = Study(
    "Virtualizing Performance-Critical Database Applications in VMware vSphere 6.0", "VMware",
    None, (VROOM,))
# stretched clusters
VSAN = Study(
    "VMware Virtual SAN Stretched Cluster Best Practices White Paper", "VMware", None,
    (VROOM, "http://www.vmwareguruz.com/vcap_guruz/vmware-virtual-san-stretched-cluster-"
     "performance-and-best-practices/"),
    ("VMware Virtual SAN Stretched Cluster – Performance and Best Practices (white paper"
     " summary)",))
SIZING = Study(
    "vSAN Stretched Cluster Bandwidth Sizing", "VMware", None,
    ("https://core.vmware.com/resource/vsan-stretched-cluster-bandwidth-sizing",
     "https://infohub.delltechnologies.com/l/dell-vxrail-7-0-vsan-stretched-cluster-planning-"
     "guide/site-to-site-1"),
    ("vSAN Stretched Cluster Bandwidth Sizing (VMware guidance, reproduced in Dell VxRail"
     " planning guide)",))
VXRAIL = Study(
    "Dell VxRail Architecture Overview: Bandwidth calculation examples", "Dell", None,
    ("https://www.dell.com/support/manuals/en-us/vxrail-appliance-series/vxrail_architecture"
     "_guide/bandwidth-calculation-examples?guid=guid-7ff38d4b-33a4-42a1-bbfa-7709af6b9711"
     "&lang=en-us",))
# Content Library
CL_SYNC = Study(
    "How to Efficiently Synchronize, Import and Export Content in VMware vSphere Content"
    " Library", "VMware", None, (VROOM,))
CL_DEPLOY = Study(
    "How to Efficiently Deploy Virtual Machines from VMware vSphere Content Library", "VMware",
    None, (VROOM_WEB,))
CL_TUNING = Study("Content Library Performance Tuning", "VMware", None, (VROOM,))

STUDIES: tuple[Study, ...] = (
    VAIO, MILLION, RAIDPOOL, SIOC, SIOC_THRESHOLD, PVSCSI, FLASH51, ESX35,
    FEDEX, LRO, MCAST, PCOIP,
    FT4, FT6, FT_LATENCY, FT_DESIGN,
    DENSE, BEST_PRACTICES_4, VCA_SQL, ZEPHYR, DOCKER_WEB, DOCKER_TX, ORACLE,
    VSAN, SIZING, VXRAIL,
    CL_SYNC, CL_DEPLOY, CL_TUNING,
)
"""Every study with calibration cases (a test holds this to the case file)."""

HA = Study("vSphere Availability: HA admission control", "VMware", None)
DRS = Study("vSphere Resource Management: DRS", "VMware", None)
HYPERTHREADING = Study("vSphere Resource Management Guide: Hyperthreading", "VMware", None)
FT_LIMITS = Study(
    "VMware vSphere Availability: Fault Tolerance Requirements, Limits, and Licensing", "VMware",
    None)
MAXIMUMS = Study("VMware vSphere Configuration Maximums (per release)", "VMware", None)
LICENSING = Study(licensing.rules().cited()[0].title, "Broadcom", 2025)
"""The per-core counting rule licensed cores follow (``resources/licensing.json``)."""

VSAN_PLANNING = Study(
    "vSAN Planning and Deployment: Designing and Sizing vSAN (Broadcom KB 428941 and"
    " 394410)", "VMware", None)
"""vSAN's capacity rules: the policies' layouts and minimum hosts, ESA's overhead, the
reserves (``models/subsystems/vsan.py``)."""

GUIDES: tuple[Study, ...] = (HA, DRS, HYPERTHREADING, FT_LIMITS, MAXIMUMS, LICENSING,
                             VSAN_PLANNING)
"""Product documents whose rules a model implements as stated (no case of theirs)."""

_BY_NAME: dict[str, Study] = {name: s for s in STUDIES + GUIDES for name in s.names}


def named(name: str) -> Study:
    """The study a title or a case file's ``study`` field names (:class:`KeyError` if none)."""
    return _BY_NAME[name]


def cite(*studies: Study) -> str:
    """The titles of ``studies`` as one source line (``"A; B"``): how a knob, a KPI or a
    bottleneck names the studies behind it."""
    return "; ".join(s.title for s in studies)


def _check_registry() -> None:
    names = [name for s in STUDIES + GUIDES for name in s.names]
    if len(names) != len(set(names)):
        raise AssertionError("a study's title or spelling is given to two studies")


_check_registry()

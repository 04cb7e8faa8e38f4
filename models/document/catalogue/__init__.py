"""The processor and server catalogues: per-core performance of each server processor from
SPEC's published results (:mod:`.processors`), the rack servers architects buy with their
processor, memory and NIC options (:mod:`.servers`), and the build that makes the processor
table from SPEC's dumps (:mod:`.build`).  Qt-free; the tables are read when first asked."""

// Command vcsim-headroom serves govmomi's vCenter simulator on loopback for Headroom's tests.
//
// `go install .../vcsim@vX` does not work from the module proxy (vcsim is a nested module), so
// the tests build this small wrapper around github.com/vmware/govmomi/simulator instead.  It
// prints the SDK URL (with the simulator's login) on one line and serves until killed.
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/simulator/vpx"
	"github.com/vmware/govmomi/vim25/types"
)

func main() {
	model := simulator.VPX()
	flag.IntVar(&model.Datacenter, "dc", 1, "datacenters")
	flag.IntVar(&model.Cluster, "cluster", 1, "clusters per datacenter")
	flag.IntVar(&model.ClusterHost, "host", 3, "hosts per cluster")
	flag.IntVar(&model.Host, "standalone-host", 0, "standalone hosts per datacenter")
	flag.IntVar(&model.Machine, "vm", 2, "VMs per cluster (per resource pool) and standalone host")
	flag.IntVar(&model.Datastore, "ds", 1, "datastores, mounted on every host")
	plain := flag.Bool("http", false, "serve plain HTTP instead of HTTPS (self-signed)")
	flag.Parse()

	// The simulator defines the virtual-disk rate and latency counters but has no samples for
	// them: give it some, so that import-vcenter --perf reads I/O as it would from vCenter.
	vpx.VmMetricData[171] = []int64{120, 140, 90, 200, 160, 110, 130, 180, 150, 100} // numberReadAveraged
	vpx.VmMetricData[172] = []int64{60, 80, 40, 100, 70, 50, 65, 90, 75, 55}         // numberWriteAveraged
	vpx.VmMetricData[175] = []int64{2, 3, 2, 4, 3, 2, 2, 5, 3, 2}                    // totalReadLatency ms
	vpx.VmMetricData[176] = []int64{1, 1, 2, 1, 1, 2, 1, 1, 2, 1}                    // totalWriteLatency ms
	for _, id := range []int32{171, 172, 175, 176} {
		vpx.VmMetrics = append(vpx.VmMetrics, types.PerfMetricId{CounterId: id, Instance: "$physDisk"})
	}

	defer model.Remove()
	if err := model.Create(); err != nil {
		log.Fatal(err)
	}
	model.Service.Listen = &url.URL{Host: "127.0.0.1:0"}
	if !*plain {
		model.Service.TLS = new(tls.Config)
	}
	server := model.Service.NewServer()
	defer server.Close()
	fmt.Println(server.URL.String())

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
}

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

# Pure addressing: every private address of the deployment is derived from the regions' CIDRs and
# counts, so seeds, peers and the topology file are known before any instance exists and no
# region has to wait for another one's resources.
locals {
  az_count = 3

  regions = {
    for r in var.regions : r.name => merge(r, {
      public_subnets = [for az in range(local.az_count) : cidrsubnet(r.cidr, 8, az)]
      app_subnets    = [for az in range(local.az_count) : cidrsubnet(r.cidr, 8, 10 + az)]
      data_subnets   = [for az in range(local.az_count) : cidrsubnet(r.cidr, 8, 20 + az)]

      cassandra = [for n in range(r.cassandra_nodes) : {
        az = n % local.az_count
        ip = cidrhost(cidrsubnet(r.cidr, 8, 20 + n % local.az_count), 10 + floor(n / local.az_count))
      }]
      kafka = [for n in range(r.kafka_brokers) : {
        az = n % local.az_count
        ip = cidrhost(cidrsubnet(r.cidr, 8, 20 + n % local.az_count), 100 + floor(n / local.az_count))
      }]
      broker = {
        az = 0
        ip = cidrhost(cidrsubnet(r.cidr, 8, 10), 10)
      }
      tickers = [for n in range(r.ticker_instances) : {
        az = n % local.az_count
        ip = cidrhost(cidrsubnet(r.cidr, 8, 10 + n % local.az_count), 20 + floor(n / local.az_count))
      }]
    })
  }

  # Up to two seeds per DC, in different zones; every node of every DC gets all of them.
  seeds = { for name, r in local.regions : name => slice([for c in r.cassandra : c.ip], 0, min(2, length(r.cassandra))) }

  topology_lines = concat(
    ["# geobroker topology, written by Terraform (modules/topology). One file for every service of every region.",
    "geobroker.topology.regions=${join(",", [for r in var.regions : r.name])}"],
    flatten([for r in var.regions : [
      "geobroker.topology.region.${r.name}.dc=${r.dc}",
      "geobroker.topology.region.${r.name}.exchanges=${join(",", r.exchanges)}",
      "geobroker.topology.region.${r.name}.replication-factor=${r.replication_factor}",
      "geobroker.topology.region.${r.name}.cassandra=${join(",", [for c in local.regions[r.name].cassandra : "${c.ip}:9042"])}",
      "geobroker.topology.region.${r.name}.kafka=${join(",", [for k in local.regions[r.name].kafka : "${k.ip}:9092"])}",
      "geobroker.topology.region.${r.name}.broker-url=http://${local.regions[r.name].broker.ip}:8080",
    ]]),
  )
}

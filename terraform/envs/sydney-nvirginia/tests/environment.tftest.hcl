mock_provider "aws" {
  alias = "sydney"
}

mock_provider "aws" {
  alias = "nvirginia"
}

variables {
  release_bucket  = "geobroker-releases"
  release_version = "1.0.0"
}

run "two_regions_with_their_dcs_and_nodes" {
  command = plan

  assert {
    condition     = keys(output.endpoints) == ["nvirginia", "sydney"]
    error_message = "two regions: sydney and nvirginia"
  }
  assert {
    condition     = output.endpoints.sydney.dc == "SydneyDC" && output.endpoints.nvirginia.dc == "NorthVirginiaDC"
    error_message = "the DC names the services expect"
  }
  assert {
    condition     = length(output.endpoints.sydney.cassandra) == 3 && length(output.endpoints.nvirginia.cassandra) == 3
    error_message = "three Cassandra nodes per DC by default"
  }
  assert {
    condition     = length(distinct([for ip in keys(module.sydney.rackdc) : split("\n", module.sydney.rackdc[ip])[1]])) == 3
    error_message = "the Sydney DC's nodes are spread over three zones (racks)"
  }
  assert {
    condition     = alltrue([for ip, yaml in merge(module.sydney.cassandra_yaml, module.nvirginia.cassandra_yaml) : strcontains(yaml, "- seeds: \"10.10.20.10,10.10.21.10,10.20.20.10,10.20.21.10\"") && strcontains(yaml, "internode_encryption: dc")])
    error_message = "every node of both DCs gossips with seeds of both DCs, encrypted between DCs"
  }
  assert {
    condition     = alltrue([for ip, rackdc in module.nvirginia.rackdc : startswith(rackdc, "dc=NorthVirginiaDC\nrack=us-east-1")])
    error_message = "N. Virginia nodes are in NorthVirginiaDC, racks in us-east-1 zones"
  }
}

run "topology_file_describes_both_regions" {
  command = plan

  assert {
    condition     = strcontains(output.topology, "geobroker.topology.regions=sydney,nvirginia\n")
    error_message = "both regions, Sydney first"
  }
  assert {
    condition     = strcontains(output.topology, "geobroker.topology.region.nvirginia.exchanges=NYSE,NASDAQ\n") && strcontains(output.topology, "geobroker.topology.region.sydney.exchanges=ASX\n")
    error_message = "exchanges per region"
  }
  assert {
    condition     = strcontains(output.topology, "geobroker.topology.region.sydney.broker-url=${output.endpoints.sydney.broker_url}\n") && strcontains(output.topology, "geobroker.topology.region.nvirginia.kafka=${output.endpoints.nvirginia.kafka}\n")
    error_message = "the topology file carries the endpoints Terraform deploys"
  }
}

run "no_cql_or_internode_port_is_open_to_the_world_and_rest_is_closed_by_default" {
  assert {
    condition     = alltrue([for r in flatten([for region in values(output.ingress) : values(region)]) : r.cidr_ipv4 != "0.0.0.0/0" && r.cidr_ipv6 == null])
    error_message = "no ingress rule anywhere admits 0.0.0.0/0"
  }
  assert {
    condition     = alltrue([for r in flatten([for region in values(output.ingress) : region.cassandra]) : r.from_port == 9042 ? r.referenced_security_group_id != null && r.cidr_ipv4 == null : r.from_port == 7000 && r.to_port == 7001])
    error_message = "Cassandra admits CQL from the brokers' security group only and nothing but internode otherwise"
  }
  assert {
    condition     = alltrue([for r in output.ingress.sydney.services : r.cidr_ipv4 == "10.20.10.10/32"]) && output.endpoints.nvirginia.broker_url == "http://10.20.10.10:8080"
    error_message = "Sydney's REST API admits only N. Virginia's broker by default"
  }
}

run "rest_opens_only_to_the_configured_range" {
  command = plan

  variables {
    rest_allowed_cidrs = ["203.0.113.0/24"]
  }
  assert {
    condition     = contains([for r in output.ingress.nvirginia.services : r.cidr_ipv4], "203.0.113.0/24")
    error_message = "the configured range reaches the broker"
  }
}

run "a_small_deployment_scales_the_counts" {
  command = plan

  variables {
    regions = [
      {
        name = "sydney", cloud_region = "ap-southeast-2", azs = ["ap-southeast-2a", "ap-southeast-2b", "ap-southeast-2c"]
        cidr = "10.10.0.0/16", dc = "SydneyDC", exchanges = ["ASX"], replication_factor = 1, cassandra_nodes = 1, kafka_brokers = 1
      },
      {
        name = "nvirginia", cloud_region = "us-east-1", azs = ["us-east-1a", "us-east-1b", "us-east-1c"]
        cidr = "10.20.0.0/16", dc = "NorthVirginiaDC", exchanges = ["NYSE", "NASDAQ"], replication_factor = 3, cassandra_nodes = 5, kafka_brokers = 3
      },
    ]
  }
  assert {
    condition     = length(output.endpoints.sydney.cassandra) == 1 && length(output.endpoints.nvirginia.cassandra) == 5
    error_message = "node counts per DC follow the variables"
  }
  assert {
    condition     = strcontains(output.topology, "geobroker.topology.region.sydney.replication-factor=1\n")
    error_message = "the replication factor reaches the topology file"
  }
}

run "rejects_a_single_region" {
  command = plan
  variables {
    regions = [{
      name = "sydney", cloud_region = "ap-southeast-2", azs = ["ap-southeast-2a", "ap-southeast-2b", "ap-southeast-2c"]
      cidr = "10.10.0.0/16", dc = "SydneyDC", exchanges = ["ASX"]
    }]
  }
  expect_failures = [var.regions]
}

run "rejects_zones_of_another_region" {
  command = plan
  variables {
    regions = [
      {
        name = "sydney", cloud_region = "ap-southeast-2", azs = ["us-east-1a", "us-east-1b", "us-east-1c"]
        cidr = "10.10.0.0/16", dc = "SydneyDC", exchanges = ["ASX"]
      },
      {
        name = "nvirginia", cloud_region = "us-east-1", azs = ["us-east-1a", "us-east-1b", "us-east-1c"]
        cidr = "10.20.0.0/16", dc = "NorthVirginiaDC", exchanges = ["NYSE", "NASDAQ"]
      },
    ]
  }
  expect_failures = [var.regions]
}

run "rejects_fewer_nodes_than_the_replication_factor" {
  command = plan
  variables {
    regions = [
      {
        name = "sydney", cloud_region = "ap-southeast-2", azs = ["ap-southeast-2a", "ap-southeast-2b", "ap-southeast-2c"]
        cidr = "10.10.0.0/16", dc = "SydneyDC", exchanges = ["ASX"], cassandra_nodes = 2
      },
      {
        name = "nvirginia", cloud_region = "us-east-1", azs = ["us-east-1a", "us-east-1b", "us-east-1c"]
        cidr = "10.20.0.0/16", dc = "NorthVirginiaDC", exchanges = ["NYSE", "NASDAQ"]
      },
    ]
  }
  expect_failures = [var.regions]
}

run "rejects_rest_open_to_the_world" {
  command = plan
  variables {
    rest_allowed_cidrs = ["0.0.0.0/0"]
  }
  expect_failures = [var.rest_allowed_cidrs]
}

mock_provider "aws" {}

run "topology" {
  command = plan
  module {
    source = "../topology"
  }
  variables {
    regions = [
      {
        name      = "sydney", cloud_region = "ap-southeast-2", cidr = "10.10.0.0/16", dc = "SydneyDC"
        exchanges = ["ASX"], replication_factor = 3, cassandra_nodes = 3, kafka_brokers = 1, ticker_instances = 1
      },
      {
        name      = "nvirginia", cloud_region = "us-east-1", cidr = "10.20.0.0/16", dc = "NorthVirginiaDC"
        exchanges = ["NYSE", "NASDAQ"], replication_factor = 3, cassandra_nodes = 3, kafka_brokers = 1, ticker_instances = 1
      },
    ]
  }
}

variables {
  name            = "sydney"
  azs             = ["ap-southeast-2a", "ap-southeast-2b", "ap-southeast-2c"]
  release_bucket  = "geobroker-releases"
  release_version = "1.0.0"
}

run "composes_one_region_from_the_topology" {
  variables {
    topology            = run.topology.regions
    seeds               = run.topology.all_seeds
    topology_properties = run.topology.properties
  }
  assert {
    condition     = output.endpoints.dc == "SydneyDC" && length(output.endpoints.cassandra) == 3
    error_message = "the region runs its own DC with three nodes"
  }
  assert {
    condition     = output.endpoints.kafka == "10.10.20.100:9092" && output.endpoints.broker_url == "http://10.10.10.10:8080"
    error_message = "endpoints follow the topology"
  }
  assert {
    condition     = output.endpoints.internode_allowed == ["10.20.20.10", "10.20.21.10", "10.20.22.10"]
    error_message = "internode is allowed from exactly the other DC's nodes"
  }
  assert {
    condition     = keys(output.endpoints.secret_arns) == ["admin-token", "cassandra-internode", "peer-token"]
    error_message = "the region's secrets exist as containers for the operator to fill"
  }
  assert {
    condition     = aws_kms_key.this.enable_key_rotation && alltrue([for s in aws_secretsmanager_secret.this : s.kms_key_id == aws_kms_key.this.arn])
    error_message = "secrets are encrypted with the region's rotating key"
  }
}

run "nothing_is_open_to_the_world" {
  variables {
    topology            = run.topology.regions
    seeds               = run.topology.all_seeds
    topology_properties = run.topology.properties
  }
  assert {
    condition     = alltrue([for r in flatten(values(output.ingress)) : r.cidr_ipv4 != "0.0.0.0/0" && r.cidr_ipv6 == null])
    error_message = "no ingress rule of any tier admits 0.0.0.0/0"
  }
  assert {
    condition     = alltrue([for r in output.ingress.cassandra : r.referenced_security_group_id != null ? true : r.from_port == 7000 && r.to_port == 7001 && contains(["10.20.20.10/32", "10.20.21.10/32", "10.20.22.10/32"], r.cidr_ipv4)])
    error_message = "Cassandra admits security groups, or peer nodes on the internode ports only"
  }
  assert {
    condition     = alltrue([for r in output.ingress.services : r.cidr_ipv4 == "10.20.10.10/32"])
    error_message = "by default the broker's REST API admits only the other region's broker"
  }
}

run "rejects_a_region_name_with_capitals" {
  command = plan
  variables {
    name                = "Sydney"
    topology            = run.topology.regions
    seeds               = run.topology.all_seeds
    topology_properties = run.topology.properties
  }
  expect_failures = [var.name]
}

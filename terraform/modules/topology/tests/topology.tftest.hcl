variables {
  regions = [
    {
      name      = "sydney", cloud_region = "ap-southeast-2", cidr = "10.10.0.0/16", dc = "SydneyDC"
      exchanges = ["ASX"], replication_factor = 3, cassandra_nodes = 3, kafka_brokers = 3, ticker_instances = 1
    },
    {
      name      = "nvirginia", cloud_region = "us-east-1", cidr = "10.20.0.0/16", dc = "NorthVirginiaDC"
      exchanges = ["NYSE", "NASDAQ"], replication_factor = 3, cassandra_nodes = 4, kafka_brokers = 1, ticker_instances = 2
    },
  ]
}

run "addresses_follow_the_counts_and_spread_over_three_zones" {
  command = plan

  assert {
    condition     = length(output.regions["sydney"].cassandra) == 3 && length(output.regions["nvirginia"].cassandra) == 4
    error_message = "one address per Cassandra node"
  }
  assert {
    condition     = [for c in output.regions["nvirginia"].cassandra : c.az] == [0, 1, 2, 0]
    error_message = "nodes must be spread round-robin over the three zones"
  }
  assert {
    condition     = [for c in output.regions["nvirginia"].cassandra : c.ip] == ["10.20.20.10", "10.20.21.10", "10.20.22.10", "10.20.20.11"]
    error_message = "Cassandra nodes live in the data subnets at fixed hosts"
  }
  assert {
    condition     = length(distinct(flatten([for r in values(output.regions) : concat([for c in r.cassandra : c.ip], [for k in r.kafka : k.ip], [r.broker.ip], [for t in r.tickers : t.ip])]))) == (3 + 3 + 1 + 1) + (4 + 1 + 1 + 2)
    error_message = "no two nodes may share an address"
  }
}

run "seeds_come_from_both_dcs" {
  command = plan

  assert {
    condition     = output.all_seeds == ["10.10.20.10", "10.10.21.10", "10.20.20.10", "10.20.21.10"]
    error_message = "two seeds per DC, in different zones, from every DC"
  }
}

run "topology_file_names_both_regions_with_their_dcs_and_endpoints" {
  command = plan

  assert {
    condition     = strcontains(output.properties, "geobroker.topology.regions=sydney,nvirginia\n")
    error_message = "the regions line lists both regions in order"
  }
  assert {
    condition     = strcontains(output.properties, "geobroker.topology.region.sydney.dc=SydneyDC\n") && strcontains(output.properties, "geobroker.topology.region.nvirginia.dc=NorthVirginiaDC\n")
    error_message = "DC names must be the ones the services expect"
  }
  assert {
    condition     = strcontains(output.properties, "geobroker.topology.region.nvirginia.exchanges=NYSE,NASDAQ\n")
    error_message = "exchanges are listed per region"
  }
  assert {
    condition     = strcontains(output.properties, "geobroker.topology.region.sydney.cassandra=10.10.20.10:9042,10.10.21.10:9042,10.10.22.10:9042\n")
    error_message = "contact points are every node of the DC on the CQL port"
  }
  assert {
    condition     = strcontains(output.properties, "geobroker.topology.region.nvirginia.kafka=10.20.20.100:9092\n") && strcontains(output.properties, "geobroker.topology.region.sydney.broker-url=http://10.10.10.10:8080\n")
    error_message = "Kafka bootstrap and broker URL per region"
  }
  assert {
    condition     = strcontains(output.properties, "geobroker.topology.region.sydney.replication-factor=3\n")
    error_message = "replication factor per region"
  }
}

run "rejects_a_replication_factor_above_the_node_count" {
  command = plan
  variables {
    regions = [{
      name      = "sydney", cloud_region = "ap-southeast-2", cidr = "10.10.0.0/16", dc = "SydneyDC"
      exchanges = ["ASX"], replication_factor = 3, cassandra_nodes = 2, kafka_brokers = 1, ticker_instances = 1
    }]
  }
  expect_failures = [var.regions]
}

run "rejects_overlapping_cidrs" {
  command = plan
  variables {
    regions = [
      {
        name      = "sydney", cloud_region = "ap-southeast-2", cidr = "10.10.0.0/16", dc = "SydneyDC"
        exchanges = ["ASX"], replication_factor = 1, cassandra_nodes = 1, kafka_brokers = 1, ticker_instances = 1
      },
      {
        name      = "nvirginia", cloud_region = "us-east-1", cidr = "10.10.0.0/16", dc = "NorthVirginiaDC"
        exchanges = ["NYSE"], replication_factor = 1, cassandra_nodes = 1, kafka_brokers = 1, ticker_instances = 1
      },
    ]
  }
  expect_failures = [var.regions]
}

run "rejects_an_exchange_owned_by_two_regions" {
  command = plan
  variables {
    regions = [
      {
        name      = "sydney", cloud_region = "ap-southeast-2", cidr = "10.10.0.0/16", dc = "SydneyDC"
        exchanges = ["ASX"], replication_factor = 1, cassandra_nodes = 1, kafka_brokers = 1, ticker_instances = 1
      },
      {
        name      = "nvirginia", cloud_region = "us-east-1", cidr = "10.20.0.0/16", dc = "NorthVirginiaDC"
        exchanges = ["ASX"], replication_factor = 1, cassandra_nodes = 1, kafka_brokers = 1, ticker_instances = 1
      },
    ]
  }
  expect_failures = [var.regions]
}

run "rejects_a_region_name_that_is_not_a_topology_key" {
  command = plan
  variables {
    regions = [{
      name      = "North Virginia", cloud_region = "us-east-1", cidr = "10.20.0.0/16", dc = "NorthVirginiaDC"
      exchanges = ["NYSE"], replication_factor = 1, cassandra_nodes = 1, kafka_brokers = 1, ticker_instances = 1
    }]
  }
  expect_failures = [var.regions]
}

run "a_third_region_is_one_more_entry" {
  command = plan
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
      {
        name      = "frankfurt", cloud_region = "eu-central-1", cidr = "10.30.0.0/16", dc = "FrankfurtDC"
        exchanges = ["XETR"], replication_factor = 3, cassandra_nodes = 3, kafka_brokers = 1, ticker_instances = 1
      },
    ]
  }

  assert {
    condition     = strcontains(output.properties, "geobroker.topology.regions=sydney,nvirginia,frankfurt\n") && strcontains(output.properties, "geobroker.topology.region.frankfurt.dc=FrankfurtDC\n") && strcontains(output.properties, "geobroker.topology.region.frankfurt.exchanges=XETR\n")
    error_message = "the third region joins the topology file"
  }
  assert {
    condition     = length(output.all_seeds) == 6 && contains(output.all_seeds, "10.30.20.10")
    error_message = "every DC contributes its seeds"
  }
}

mock_provider "aws" {}

variables {
  name                          = "sydney"
  dc                            = "SydneyDC"
  vpc_id                        = "vpc-0sydney"
  azs                           = ["ap-southeast-2a", "ap-southeast-2b", "ap-southeast-2c"]
  subnet_ids                    = ["subnet-a", "subnet-b", "subnet-c"]
  nodes                         = [{ az = 0, ip = "10.10.20.10" }, { az = 1, ip = "10.10.21.10" }, { az = 2, ip = "10.10.22.10" }]
  seeds                         = ["10.10.20.10", "10.10.21.10", "10.20.20.10", "10.20.21.10"]
  peer_node_addresses           = ["10.20.20.10", "10.20.21.10", "10.20.22.10"]
  client_security_group_ids     = ["sg-brokers"]
  replication_factor            = 3
  ami_id                        = "ami-0123456789abcdef0"
  kms_key_arn                   = "arn:aws:kms:ap-southeast-2:111122223333:key/example"
  internode_keystore_secret_arn = "arn:aws:secretsmanager:ap-southeast-2:111122223333:secret:geobroker/sydney/internode"
}

run "one_node_per_entry_spread_over_the_zones" {
  assert {
    condition     = length(aws_instance.node) == 3 && aws_instance.node[*].subnet_id == ["subnet-a", "subnet-b", "subnet-c"]
    error_message = "three nodes, one per zone's data subnet"
  }
  assert {
    condition     = aws_instance.node[*].private_ip == ["10.10.20.10", "10.10.21.10", "10.10.22.10"]
    error_message = "nodes take their fixed addresses"
  }
  assert {
    condition     = output.rackdc["10.10.21.10"] == "dc=SydneyDC\nrack=ap-southeast-2b\nprefer_local=true\n"
    error_message = "the DC name is the one the services expect, one rack per zone"
  }
}

run "cassandra_yaml_gossips_with_seeds_of_both_dcs_and_encrypts_between_dcs" {
  assert {
    condition     = strcontains(output.cassandra_yaml["10.10.20.10"], "endpoint_snitch: GossipingPropertyFileSnitch\n")
    error_message = "GossipingPropertyFileSnitch"
  }
  assert {
    condition     = strcontains(output.cassandra_yaml["10.10.20.10"], "- seeds: \"10.10.20.10,10.10.21.10,10.20.20.10,10.20.21.10\"")
    error_message = "seeds from both DCs"
  }
  assert {
    condition     = strcontains(output.cassandra_yaml["10.10.22.10"], "internode_encryption: dc\n") && strcontains(output.cassandra_yaml["10.10.22.10"], "listen_address: 10.10.22.10\n")
    error_message = "internode encryption between DCs; each node listens on its own address"
  }
  assert {
    condition     = strcontains(aws_instance.node[0].user_data, "endpoint_snitch: GossipingPropertyFileSnitch") && strcontains(aws_instance.node[0].user_data, "dc=SydneyDC")
    error_message = "cloud-init carries the rendered configuration"
  }
  assert {
    condition     = strcontains(aws_instance.node[0].user_data, "keystore_password: \"@KEYSTORE_PASSWORD@\"") && strcontains(aws_instance.node[0].user_data, "--secret-id '${var.internode_keystore_secret_arn}'")
    error_message = "user data holds only a placeholder; the node reads the keystore password from Secrets Manager"
  }
  assert {
    condition     = strcontains(aws_instance.node[0].user_data, "echo 'net.ipv4.tcp_rto_max_ms = 1000' > /etc/sysctl.d/90-geobroker-wan.conf")
    error_message = "where the kernel has it, TCP's retransmission back-off is capped at 1 s for a WAN link's return"
  }
}

run "user_data_and_cassandra_yaml_are_valid_yaml" {
  assert {
    condition     = alltrue([for i in aws_instance.node : length(yamldecode(i.user_data).write_files) == 4])
    error_message = "cloud-init user data parses as YAML with its four files"
  }
  assert {
    condition     = yamldecode(output.cassandra_yaml["10.10.21.10"]).server_encryption_options.internode_encryption == "dc" && yamldecode(output.cassandra_yaml["10.10.21.10"]).seed_provider[0].parameters[0].seeds == "10.10.20.10,10.10.21.10,10.20.20.10,10.20.21.10"
    error_message = "cassandra.yaml parses, with internode encryption between DCs and the seeds of both DCs"
  }
}

run "nodes_are_private_imdsv2_and_encrypted" {
  assert {
    condition     = alltrue([for i in aws_instance.node : i.associate_public_ip_address == false && i.metadata_options[0].http_tokens == "required" && i.root_block_device[0].encrypted])
    error_message = "no public IP, IMDSv2 only, encrypted root volume"
  }
  assert {
    condition     = alltrue([for v in aws_ebs_volume.data : v.encrypted && v.kms_key_id == var.kms_key_arn]) && length(aws_volume_attachment.data) == 3
    error_message = "every node has an encrypted data volume attached"
  }
}

run "cql_and_internode_are_never_open_to_the_world" {
  assert {
    condition     = alltrue([for r in concat(values(aws_vpc_security_group_ingress_rule.internode_peer), aws_vpc_security_group_ingress_rule.cql, [aws_vpc_security_group_ingress_rule.internode_local]) : r.cidr_ipv4 != "0.0.0.0/0" && r.cidr_ipv6 == null])
    error_message = "no CQL or internode rule admits 0.0.0.0/0"
  }
  assert {
    condition     = [for r in aws_vpc_security_group_ingress_rule.cql : r.referenced_security_group_id] == ["sg-brokers"] && alltrue([for r in aws_vpc_security_group_ingress_rule.cql : r.from_port == 9042 && r.to_port == 9042 && r.cidr_ipv4 == null])
    error_message = "CQL only from the brokers' security group"
  }
  assert {
    condition     = join(",", sort([for r in aws_vpc_security_group_ingress_rule.internode_peer : r.cidr_ipv4])) == "10.20.20.10/32,10.20.21.10/32,10.20.22.10/32"
    error_message = "internode from the other DC only from its nodes' addresses"
  }
  assert {
    condition     = aws_vpc_security_group_ingress_rule.internode_local.referenced_security_group_id == aws_security_group.node.id
    error_message = "internode inside the DC only from the DC's own nodes"
  }
}

run "rejects_a_dc_name_with_spaces" {
  command = plan
  variables {
    dc = "Sydney DC"
  }
  expect_failures = [var.dc]
}

run "rejects_another_major_version" {
  command = plan
  variables {
    cassandra_version = "4.1.5"
  }
  expect_failures = [var.cassandra_version]
}

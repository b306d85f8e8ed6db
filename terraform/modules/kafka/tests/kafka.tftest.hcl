mock_provider "aws" {}

variables {
  name                      = "nvirginia"
  vpc_id                    = "vpc-0nvirginia"
  azs                       = ["us-east-1a", "us-east-1b", "us-east-1c"]
  subnet_ids                = ["subnet-a", "subnet-b", "subnet-c"]
  brokers                   = [{ az = 0, ip = "10.20.20.100" }, { az = 1, ip = "10.20.21.100" }, { az = 2, ip = "10.20.22.100" }]
  client_security_group_ids = ["sg-brokers", "sg-tickers"]
  ami_id                    = "ami-0123456789abcdef0"
  kms_key_arn               = "arn:aws:kms:us-east-1:111122223333:key/example"
}

run "three_kraft_nodes_one_per_zone" {
  assert {
    condition     = length(aws_instance.node) == 3 && aws_instance.node[*].subnet_id == ["subnet-a", "subnet-b", "subnet-c"]
    error_message = "one node per zone"
  }
  assert {
    condition     = output.bootstrap_servers == "10.20.20.100:9092,10.20.21.100:9092,10.20.22.100:9092"
    error_message = "bootstrap servers are every node's listener"
  }
  assert {
    condition     = strcontains(output.server_properties[1], "node.id=2\n") && strcontains(output.server_properties[1], "controller.quorum.voters=1@10.20.20.100:9093,2@10.20.21.100:9093,3@10.20.22.100:9093\n") && strcontains(output.server_properties[1], "broker.rack=us-east-1b\n")
    error_message = "each node knows its id, the whole quorum and its zone"
  }
  assert {
    condition     = strcontains(output.server_properties[0], "default.replication.factor=3\n") && strcontains(output.server_properties[0], "min.insync.replicas=2\n")
    error_message = "three replicas, two in sync, with three nodes"
  }
  assert {
    condition     = length(output.cluster_id) == 22 && strcontains(aws_instance.node[2].user_data, "format -t ${output.cluster_id} ")
    error_message = "every node is formatted with the same 22-character cluster id"
  }
}

run "user_data_is_valid_yaml" {
  assert {
    condition     = alltrue([for i in aws_instance.node : length(yamldecode(i.user_data).write_files) == 3])
    error_message = "cloud-init user data parses as YAML with its three files"
  }
}

run "a_single_node_replicates_once" {
  variables {
    brokers = [{ az = 0, ip = "10.20.20.100" }]
  }
  assert {
    condition     = strcontains(output.server_properties[0], "default.replication.factor=1\n") && strcontains(output.server_properties[0], "min.insync.replicas=1\n")
    error_message = "replication cannot exceed the node count"
  }
}

run "kafka_port_only_from_the_services" {
  assert {
    condition     = [for r in aws_vpc_security_group_ingress_rule.clients : r.referenced_security_group_id] == ["sg-brokers", "sg-tickers"] && alltrue([for r in aws_vpc_security_group_ingress_rule.clients : r.cidr_ipv4 == null && r.from_port == 9092 && r.to_port == 9092])
    error_message = "9092 only from the services' security groups"
  }
  assert {
    condition     = aws_vpc_security_group_ingress_rule.cluster.referenced_security_group_id == aws_security_group.node.id && aws_vpc_security_group_ingress_rule.cluster.cidr_ipv4 == null
    error_message = "replication and controller ports only between Kafka nodes"
  }
  assert {
    condition     = alltrue([for i in aws_instance.node : i.associate_public_ip_address == false && i.metadata_options[0].http_tokens == "required" && i.root_block_device[0].encrypted]) && alltrue(aws_ebs_volume.data[*].encrypted)
    error_message = "private, IMDSv2, encrypted volumes"
  }
}

run "rejects_an_even_quorum" {
  command = plan
  variables {
    brokers = [{ az = 0, ip = "10.20.20.100" }, { az = 1, ip = "10.20.21.100" }]
  }
  expect_failures = [var.brokers]
}

run "rejects_kafka_3" {
  command = plan
  variables {
    kafka_version = "3.9.0"
  }
  expect_failures = [var.kafka_version]
}

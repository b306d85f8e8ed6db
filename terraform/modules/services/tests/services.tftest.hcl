mock_provider "aws" {
  mock_data "aws_region" {
    defaults = {
      region = "ap-southeast-2"
    }
  }
}

variables {
  name                   = "sydney"
  vpc_id                 = "vpc-0sydney"
  vpc_cidr               = "10.10.0.0/16"
  subnet_ids             = ["subnet-a", "subnet-b", "subnet-c"]
  broker                 = { az = 0, ip = "10.10.10.10" }
  tickers                = [{ az = 0, ip = "10.10.10.20" }, { az = 1, ip = "10.10.11.20" }]
  topology_properties    = "geobroker.topology.regions=sydney,nvirginia\ngeobroker.topology.region.sydney.dc=SydneyDC\n"
  peer_broker_addresses  = ["10.20.10.10"]
  admin_token_secret_arn = "arn:aws:secretsmanager:ap-southeast-2:111122223333:secret:geobroker/sydney/admin-token"
  peer_token_secret_arn  = "arn:aws:secretsmanager:ap-southeast-2:111122223333:secret:geobroker/sydney/peer-token"
  release_bucket         = "geobroker-releases"
  release_version        = "1.0.0"
  ami_id                 = "ami-0123456789abcdef0"
  kms_key_arn            = "arn:aws:kms:ap-southeast-2:111122223333:key/example"
}

run "one_broker_and_the_tickers_with_their_configuration" {
  assert {
    condition     = aws_instance.broker.private_ip == "10.10.10.10" && length(aws_instance.ticker) == 2
    error_message = "one broker at its fixed address, one instance per ticker entry"
  }
  assert {
    condition     = strcontains(aws_instance.broker.user_data, "Environment=GEOBROKER_REGION=sydney\n") && strcontains(aws_instance.broker.user_data, "Environment=GEOBROKER_TOPOLOGY=/etc/geobroker/topology.properties\n")
    error_message = "the broker gets its region and the topology path"
  }
  assert {
    condition     = strcontains(aws_instance.broker.user_data, "      geobroker.topology.region.sydney.dc=SydneyDC\n") && strcontains(aws_instance.ticker[1].user_data, "      geobroker.topology.regions=sydney,nvirginia\n")
    error_message = "every service gets the topology file"
  }
  assert {
    condition     = strcontains(aws_instance.broker.user_data, "-Xms512m -Xmx512m -XX:+ExitOnOutOfMemoryError -Dspring.aot.enabled=true") && strcontains(aws_instance.ticker[0].user_data, "-Xms256m -Xmx256m")
    error_message = "heaps are 512 MiB (broker) and 256 MiB (ticker); the broker starts from its build's AOT bean definitions"
  }
  assert {
    condition     = strcontains(aws_instance.broker.user_data, "--secret-id '${var.admin_token_secret_arn}'") && !strcontains(aws_instance.broker.user_data, "Environment=GEOBROKER_ADMIN_TOKEN") && strcontains(aws_instance.broker.user_data, "EnvironmentFile=/run/geobroker/broker-secrets.env")
    error_message = "tokens come from Secrets Manager at start, not from user data"
  }
  assert {
    condition     = strcontains(aws_instance.broker.user_data, "schema.jar apply --topology /etc/geobroker/topology.properties --keyspace geobroker") && !strcontains(aws_instance.broker.user_data, "enable, --now, geobroker-schema")
    error_message = "the schema job is installed but never started with the service"
  }
}

run "user_data_is_valid_yaml" {
  assert {
    condition     = yamldecode(aws_instance.broker.user_data).write_files[0].path == "/etc/geobroker/topology.properties" && yamldecode(aws_instance.ticker[0].user_data).write_files[0].path == "/etc/geobroker/topology.properties"
    error_message = "cloud-init user data parses as YAML and installs the topology file first"
  }
}

run "rest_is_closed_by_default_and_open_to_peer_brokers_only" {
  assert {
    condition     = length(aws_vpc_security_group_ingress_rule.rest) == 0 && length(aws_vpc_security_group_ingress_rule.fix) == 0 && length(aws_vpc_security_group_ingress_rule.metrics) == 0
    error_message = "no REST, FIX or metrics access from outside by default"
  }
  assert {
    condition     = [for r in aws_vpc_security_group_ingress_rule.rest_from_peers : r.cidr_ipv4] == ["10.20.10.10/32"]
    error_message = "the other region's broker may route market orders here"
  }
}

run "rest_opens_to_configured_cidrs" {
  variables {
    rest_allowed_cidrs = ["203.0.113.0/24"]
  }
  assert {
    condition     = [for r in aws_vpc_security_group_ingress_rule.rest : r.cidr_ipv4] == ["203.0.113.0/24"] && alltrue([for r in aws_vpc_security_group_ingress_rule.rest : r.from_port == 8080 && r.to_port == 8080])
    error_message = "REST on 8080 from exactly the configured CIDRs"
  }
  assert {
    condition     = [for r in aws_vpc_security_group_ingress_rule.fix : r.cidr_ipv4] == ["203.0.113.0/24"] && alltrue([for r in aws_vpc_security_group_ingress_rule.fix : r.from_port == 9878 && r.to_port == 9878])
    error_message = "FIX on 9878 from the same CIDRs as REST"
  }
  assert {
    condition     = strcontains(yamldecode(aws_instance.broker.user_data).write_files[2].content, "GEOBROKER_FIX_STORE=/var/lib/geobroker/fix") && strcontains(yamldecode(aws_instance.broker.user_data).write_files[2].content, "StateDirectory=geobroker")
    error_message = "the broker's FIX message store lives on the instance's disk, across restarts"
  }
  assert {
    condition     = strcontains(yamldecode(aws_instance.broker.user_data).write_files[2].content, "GEOBROKER_FIX_FILL_REGIONS=sydney") && strcontains(yamldecode(aws_instance.broker.user_data).write_files[2].content, "GEOBROKER_LIVE_PRICE_REGIONS=sydney")
    error_message = "trade reports and live prices read only the broker's own region's Kafka (others are not reachable)"
  }
}

run "instances_are_private_imdsv2_and_encrypted" {
  assert {
    condition     = alltrue([for i in concat([aws_instance.broker], aws_instance.ticker) : i.associate_public_ip_address == false && i.metadata_options[0].http_tokens == "required" && i.root_block_device[0].encrypted])
    error_message = "no public IP, IMDSv2 only, encrypted root volume"
  }
}

run "rejects_rest_open_to_the_world" {
  command = plan
  variables {
    rest_allowed_cidrs = ["0.0.0.0/0"]
  }
  expect_failures = [var.rest_allowed_cidrs]
}

run "rejects_a_release_version_that_is_not_a_plain_string" {
  command = plan
  variables {
    release_version = "../latest"
  }
  expect_failures = [var.release_version]
}

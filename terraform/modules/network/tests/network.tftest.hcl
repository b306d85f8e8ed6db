mock_provider "aws" {}

variables {
  name           = "sydney"
  cidr           = "10.10.0.0/16"
  azs            = ["ap-southeast-2a", "ap-southeast-2b", "ap-southeast-2c"]
  public_subnets = ["10.10.0.0/24", "10.10.1.0/24", "10.10.2.0/24"]
  app_subnets    = ["10.10.10.0/24", "10.10.11.0/24", "10.10.12.0/24"]
  data_subnets   = ["10.10.20.0/24", "10.10.21.0/24", "10.10.22.0/24"]
  kms_key_arn    = "arn:aws:kms:ap-southeast-2:111122223333:key/example"
}

run "spans_three_zones_with_private_subnets_only_for_nodes" {
  assert {
    condition     = aws_vpc.this.cidr_block == "10.10.0.0/16"
    error_message = "the VPC uses the region's CIDR"
  }
  assert {
    condition     = length(distinct(aws_subnet.data[*].availability_zone)) == 3 && length(distinct(aws_subnet.app[*].availability_zone)) == 3
    error_message = "app and data subnets must cover three zones"
  }
  assert {
    condition     = alltrue([for s in concat(aws_subnet.public, aws_subnet.app, aws_subnet.data) : s.map_public_ip_on_launch == false])
    error_message = "no subnet hands out public IPs"
  }
  assert {
    condition     = length(aws_nat_gateway.this) == 1
    error_message = "one NAT gateway by default"
  }
  assert {
    condition     = alltrue([for r in aws_route.private_nat : r.destination_cidr_block == "0.0.0.0/0" && r.gateway_id == null])
    error_message = "private subnets reach the internet only through NAT"
  }
}

run "default_security_group_allows_nothing" {
  assert {
    condition     = length(aws_default_security_group.this.ingress) == 0 && length(aws_default_security_group.this.egress) == 0
    error_message = "the default security group must have no rules"
  }
}

run "flow_logs_capture_all_traffic_encrypted" {
  assert {
    condition     = aws_flow_log.this.traffic_type == "ALL" && aws_cloudwatch_log_group.flow.kms_key_id == var.kms_key_arn
    error_message = "flow logs record all traffic into a KMS-encrypted group"
  }
}

run "nat_per_zone_on_request" {
  variables {
    nat_gateway_per_az = true
  }
  assert {
    condition     = length(aws_nat_gateway.this) == 3 && length(distinct(aws_route.private_nat[*].nat_gateway_id)) == 3
    error_message = "each zone routes through its own NAT gateway"
  }
}

run "rejects_two_zones" {
  command = plan
  variables {
    azs = ["ap-southeast-2a", "ap-southeast-2b"]
  }
  expect_failures = [var.azs]
}

run "rejects_a_cidr_that_is_not_a_slash_16" {
  command = plan
  variables {
    cidr = "10.10.0.0/20"
  }
  expect_failures = [var.cidr]
}

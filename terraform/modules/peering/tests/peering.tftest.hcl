# The module takes two configurations (requester, accepter): Sydney and N. Virginia here.
mock_provider "aws" {
  alias = "requester"
}

mock_provider "aws" {
  alias = "accepter"
}

variables {
  requester = {
    name            = "sydney", vpc_id = "vpc-0sydney", cidr = "10.10.0.0/16"
    route_table_ids = ["rtb-s0", "rtb-s1", "rtb-s2"]
  }
  accepter = {
    name            = "nvirginia", cloud_region = "us-east-1", vpc_id = "vpc-0nvirginia", cidr = "10.20.0.0/16"
    route_table_ids = ["rtb-n0", "rtb-n1", "rtb-n2"]
  }
}

run "routes_each_private_table_to_the_other_region" {
  assert {
    condition     = aws_vpc_peering_connection.this.peer_region == "us-east-1" && aws_vpc_peering_connection.this.peer_vpc_id == "vpc-0nvirginia"
    error_message = "the request goes to the accepter's VPC in its region"
  }
  assert {
    condition     = aws_vpc_peering_connection_accepter.this.auto_accept
    error_message = "the accepter side accepts the request"
  }
  assert {
    condition     = [for r in aws_route.requester_to_accepter : r.route_table_id] == ["rtb-s0", "rtb-s1", "rtb-s2"] && alltrue([for r in aws_route.requester_to_accepter : r.destination_cidr_block == "10.20.0.0/16"])
    error_message = "every Sydney private route table routes N. Virginia's CIDR over the peering"
  }
  assert {
    condition     = alltrue([for r in aws_route.accepter_to_requester : r.destination_cidr_block == "10.10.0.0/16"]) && length(aws_route.accepter_to_requester) == 3
    error_message = "every N. Virginia private route table routes Sydney's CIDR over the peering"
  }
}

run "rejects_equal_cidrs" {
  command = plan
  variables {
    accepter = {
      name            = "nvirginia", cloud_region = "us-east-1", vpc_id = "vpc-0nvirginia", cidr = "10.10.0.0/16"
      route_table_ids = ["rtb-n0"]
    }
  }
  expect_failures = [var.accepter]
}

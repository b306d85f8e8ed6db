# Cross-region VPC peering between two regions of the deployment, with routes in both regions'
# private route tables. Only the private subnets route to the peer; what may actually cross is
# decided by the security groups (Cassandra internode, broker-to-broker REST).
resource "aws_vpc_peering_connection" "this" {
  provider    = aws.requester
  vpc_id      = var.requester.vpc_id
  peer_vpc_id = var.accepter.vpc_id
  peer_region = var.accepter.cloud_region
  auto_accept = false
  tags        = merge(var.tags, { Name = "geobroker-${var.requester.name}-${var.accepter.name}" })
}

resource "aws_vpc_peering_connection_accepter" "this" {
  provider                  = aws.accepter
  vpc_peering_connection_id = aws_vpc_peering_connection.this.id
  auto_accept               = true
  tags                      = merge(var.tags, { Name = "geobroker-${var.requester.name}-${var.accepter.name}" })
}

resource "aws_route" "requester_to_accepter" {
  provider                  = aws.requester
  count                     = length(var.requester.route_table_ids)
  route_table_id            = var.requester.route_table_ids[count.index]
  destination_cidr_block    = var.accepter.cidr
  vpc_peering_connection_id = aws_vpc_peering_connection_accepter.this.id
}

resource "aws_route" "accepter_to_requester" {
  provider                  = aws.accepter
  count                     = length(var.accepter.route_table_ids)
  route_table_id            = var.accepter.route_table_ids[count.index]
  destination_cidr_block    = var.requester.cidr
  vpc_peering_connection_id = aws_vpc_peering_connection_accepter.this.id
}

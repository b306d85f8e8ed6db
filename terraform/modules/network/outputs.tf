output "vpc_id" {
  description = "The region's VPC."
  value       = aws_vpc.this.id
}

output "cidr" {
  description = "The VPC's CIDR."
  value       = aws_vpc.this.cidr_block
}

output "app_subnet_ids" {
  description = "Service subnets, one per zone, in zone order."
  value       = aws_subnet.app[*].id
}

output "data_subnet_ids" {
  description = "Cassandra and Kafka subnets, one per zone, in zone order."
  value       = aws_subnet.data[*].id
}

output "private_route_table_ids" {
  description = "Route tables of the private subnets (where peering routes go)."
  value       = aws_route_table.private[*].id
}

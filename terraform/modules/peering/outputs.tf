output "peering_connection_id" {
  description = "The VPC peering connection."
  value       = aws_vpc_peering_connection.this.id
}

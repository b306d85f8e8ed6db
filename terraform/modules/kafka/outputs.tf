output "security_group_id" {
  description = "The Kafka nodes' security group."
  value       = aws_security_group.node.id
}

output "bootstrap_servers" {
  description = "Kafka bootstrap servers (host:9092,...) of the region."
  value       = join(",", [for b in var.brokers : "${b.ip}:9092"])
}

output "cluster_id" {
  description = "The KRaft cluster id."
  value       = local.cluster_id
}

output "server_properties" {
  description = "The server.properties of each node, in node order."
  value       = local.server_properties
}
